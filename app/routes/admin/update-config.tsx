// /admin/users/{userId}/update-config (SPEC §2, §5): the three numbers, step 0.1, required,
// and the voltage limits beside them in the box's kind's ranges (docs/decisions/019). A form
// posted to this route's action first, so it works without JavaScript; with it, the same post
// runs through a fetcher and answers with a toast. The action saves as
// PUT /api/admin/update-motor-config does (`changeMotorConfig`: history, the box told, the
// audit trail). A change that weakens protection comes back as a confirm step listing
// old → new, whose own form posts the same values again with the confirmation
// (docs/decisions/025-weaker-protection-asks-first.md).
import { useEffect } from "react";
import { data, Link, useFetcher } from "react-router";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import { type MotorConfig, motorConfigRequestSchema } from "../../../common/api-schemas.ts";
import type { DeviceKind } from "../../../common/device-enums.ts";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { formatNumber } from "../../../common/i18n/format.ts";
import { VOLTAGE_LIMIT_RANGES } from "../../../common/protection.ts";
import {
  PROTECTION_SETTINGS,
  type ProtectionSetting,
  type WeakenedSetting,
} from "../../../common/protection-changes.ts";
import { adminUserView, changeAccountSettings } from "../../../worker/services/admin-accounts.ts";
import { weakenedSettingsOf } from "../../../worker/services/motor-config.ts";
import { ADMIN_CONFIG_PAGE_ACTION, recordAdminAudit } from "../../../worker/services/record-admin-action.ts";
import type { Refusal } from "../../../worker/services/refusal.ts";
import { adminContext, loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { Field } from "../../components/field.tsx";
import { useToast } from "../../components/toast.tsx";
import { field, isSameOriginRequest, readForm } from "../../form.server.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/update-config";

export const meta: Route.MetaFunction = () => [{ title: "Update Motor Config · Sinchai Admin" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const env = envOf(context);
  const id = userIdSchema.safeParse(params.userId);
  const loaded = await loadOrMessage(async () => {
    const user = id.success ? await adminUserView(env, id.data) : undefined;
    if (!user) return null;
    const { mobileNo, defaultCurrent, dryRunThreshold, overCurrentThreshold } = user;
    const { underVoltage, overVoltage, voltageUnbalance } = user;
    return {
      id: user.id,
      mobileNo,
      // The ranges of the account's first box, the one these settings are for.
      kind: user.device?.kind ?? "3phase",
      // Without a box, SPEC's three numbers are kept for its first box; voltage limits wait for its kind.
      hasBox: user.device !== null,
      defaultCurrent,
      dryRunThreshold,
      overCurrentThreshold,
      underVoltage,
      overVoltage,
      voltageUnbalance,
    };
  }, "admin.config.fetchFailed");
  // An unknown user and a failed read both say "Failed to fetch user data." (SPEC §8).
  return data(loaded, { status: loaded.error ? 500 : loaded.data ? 200 : 404 });
}

type TypedConfig = Record<keyof MotorConfig, string>;

/** What became of a post: saved, refused (the field at fault), or held for a confirmation. */
type Outcome =
  | { ok: true; deliveredToDevice: boolean; keptForFirstBox: boolean }
  | { ok: false; code: "invalid" | "notFound"; field: string | null }
  | { ok: false; code: "weakerProtection"; weakened: WeakenedSetting[]; values: TypedConfig };

export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) return data<Outcome>({ ok: false, code: "invalid", field: null }, { status: 403 });
  const env = envOf(context);
  const admin = context.get(adminContext);
  const form = await readForm(request);
  const values = Object.fromEntries(PROTECTION_SETTINGS.map((name) => [name, field(form, name)])) as TypedConfig;
  const confirmedWeaker = field(form, "confirmWeakerProtection") === "true";
  const id = userIdSchema.safeParse(params.userId);
  const user = id.success ? await adminUserView(env, id.data) : undefined;
  const parsed = motorConfigRequestSchema.safeParse(values);
  let outcome: Outcome;
  let status = 200;
  let refusal: Refusal | null = null;
  if (!user) {
    outcome = { ok: false, code: "notFound", field: null };
    status = 404;
  } else if (!parsed.success) {
    outcome = { ok: false, code: "invalid", field: String(parsed.error.issues[0]?.path[0] ?? "") };
    status = 400;
  } else {
    const { token: _token, confirmWeakerProtection: _asJson, ...config } = parsed.data;
    const changed = await changeAccountSettings(env, { mobileNo: user.mobileNo, config, admin, confirmedWeaker });
    if (changed.ok) {
      outcome = { ok: true, deliveredToDevice: changed.deliveredToDevice, keptForFirstBox: changed.keptForFirstBox };
    } else {
      refusal = changed;
      status = changed.status;
      outcome =
        changed.code === "weakerProtectionUnconfirmed"
          ? { ok: false, code: "weakerProtection", weakened: weakenedSettingsOf(changed), values }
          : { ok: false, code: "invalid", field: String(changed.params.field ?? "") || null };
    }
  }
  // An admin write that does not go through the API: on the trail as the API's would be.
  await recordAdminAudit(env, request, {
    admin: { id: admin.id, mobileNo: admin.mobileNo },
    action: ADMIN_CONFIG_PAGE_ACTION,
    target: user?.mobileNo ?? null,
    status,
    details: {
      ...(parsed.success ? parsed.data : values),
      ...(confirmedWeaker ? { confirmWeakerProtection: true } : {}),
      ...(status >= 400 ? { error: refusal?.code ?? outcome.ok ?? outcome.code } : {}),
      ...(refusal && Object.keys(refusal.params).length > 0 ? { errorParams: refusal.params } : {}),
    },
  });
  return data<Outcome>(outcome, { status });
}

/** The fields: names as the API expects them, limits as the server enforces them for this box's kind. */
function fieldsFor(kind: DeviceKind) {
  const ranges = VOLTAGE_LIMIT_RANGES[kind];
  return [
    { name: "defaultCurrent", label: "admin.config.defaultCurrent", min: 0.1, max: 100 },
    { name: "dryRunThreshold", label: "admin.config.dryRunThreshold", min: 0, max: 95 },
    { name: "overCurrentThreshold", label: "admin.config.overCurrentThreshold", min: 0, max: 500 },
    { name: "underVoltage", label: "admin.config.underVoltage", ...ranges.underVoltage },
    { name: "overVoltage", label: "admin.config.overVoltage", ...ranges.overVoltage },
    { name: "voltageUnbalance", label: "admin.config.voltageUnbalance", ...ranges.voltageUnbalance },
  ] as const;
}

function savedKey(answer: { deliveredToDevice: boolean; keptForFirstBox: boolean }): AdminMessageKey {
  if (answer.keptForFirstBox) return "admin.config.keptForFirstBox";
  return answer.deliveredToDevice ? "admin.config.updated" : "admin.config.notDelivered";
}

const VOLTAGE_FIELDS = new Set<string>(["underVoltage", "overVoltage", "voltageUnbalance"]);

const SETTING_LABELS: Record<ProtectionSetting, AdminMessageKey> = {
  dryRunThreshold: "admin.config.dryRunThreshold",
  overCurrentThreshold: "admin.config.overCurrentThreshold",
  underVoltage: "admin.config.underVoltage",
  overVoltage: "admin.config.overVoltage",
  voltageUnbalance: "admin.config.voltageUnbalance",
};

export default function UpdateConfig({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const toast = useToast();
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const user = loaderData.data;
  // With script the fetcher's answer, without it the page's own.
  const outcome = fetcher.data ?? actionData;
  const weaker = outcome && !outcome.ok && outcome.code === "weakerProtection" ? outcome : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per answer; `t` and the toast are new functions every render
  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== "idle") return;
    if (answer.ok) toast.show(t(savedKey(answer)), "success");
    else if (answer.code !== "weakerProtection") toast.show(t("admin.config.failed"), "error");
  }, [fetcher.data, fetcher.state]);

  if (!user) {
    return (
      <main className="page admin-page">
        <h1>{t("admin.config.title")}</h1>
        <LoadFailure message={loaderData.error ?? "admin.config.fetchFailed"} />
        <Link to="/admin/users" className="button">
          {t("admin.common.back")}
        </Link>
      </main>
    );
  }

  return (
    <main className="page admin-page">
      <h1>{t("admin.config.title")}</h1>
      {actionData?.ok && !fetcher.data && (
        <p className="message success" role="status" data-testid="config-result">
          {t(savedKey(actionData))}
        </p>
      )}
      {outcome && !outcome.ok && outcome.code !== "weakerProtection" && (
        <p className="message error" role="alert" data-testid="config-result">
          {t("admin.config.failed")}
        </p>
      )}
      {weaker && (
        <section className="message warning" role="alert" data-testid="config-weaker">
          <p>
            <strong>{t("admin.config.weakerTitle")}</strong>
          </p>
          <ul>
            {weaker.weakened.map(({ setting, from, to }) => (
              <li key={setting}>
                {t(SETTING_LABELS[setting])}: {formatNumber(from, language)} → {formatNumber(to, language)}
              </li>
            ))}
          </ul>
          <p>{t("admin.config.weakerQuestion")}</p>
          <fetcher.Form method="post" className="button-row">
            <input type="hidden" name="confirmWeakerProtection" value="true" />
            {Object.entries(weaker.values).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <button type="submit" className="button danger" disabled={busy}>
              {busy ? t("admin.config.busy") : t("admin.config.weakerSave")}
            </button>
            <Link to={`/admin/users/${user.id}/update-config`} className="button" reloadDocument>
              {t("admin.common.cancel")}
            </Link>
          </fetcher.Form>
        </section>
      )}
      <fetcher.Form method="post" className="card stack" data-testid="config-form">
        <Field label={t("admin.config.mobileNo")}>
          <input name="mobileNo" value={user.mobileNo} readOnly />
        </Field>
        {!user.hasBox && (
          <p className="muted" data-testid="config-no-box">
            {t("admin.config.noBoxYet")}
          </p>
        )}
        {fieldsFor(user.kind)
          .filter((input) => user.hasBox || !VOLTAGE_FIELDS.has(input.name))
          .map((input) => (
            <label key={input.name} className="field">
              <span>{t(input.label)}</span>
              <input
                name={input.name}
                type="number"
                inputMode="decimal"
                step={0.1}
                min={input.min}
                max={input.max}
                required
                defaultValue={user[input.name]}
              />
              {VOLTAGE_FIELDS.has(input.name) && (
                <small className="muted">{t("admin.config.range", { min: input.min, max: input.max })}</small>
              )}
            </label>
          ))}
        <div className="button-row">
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t("admin.config.busy") : t("admin.config.submit")}
          </button>
          <Link to={`/admin/users/${user.id}`} className="button">
            {t("admin.common.back")}
          </Link>
        </div>
      </fetcher.Form>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.config.fetchError" />;
}
