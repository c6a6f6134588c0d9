// /admin/users/{userId}/update-config (SPEC §2, §5): the three numbers, step 0.1, required,
// and the voltage limits beside them (docs/decisions/019).
// Saved through PUT /api/admin/update-motor-config, which records the history and tells the box.
import type { FormEvent } from "react";
import { data, Link } from "react-router";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import { motorConfigResponseSchema } from "../../../common/api-responses/devices.ts";
import { VOLTAGE_LIMIT_RANGES } from "../../../common/protection.ts";
import { findAdminUserView } from "../../../worker/db/admin-users.ts";
import { getDb } from "../../../worker/db/client.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { useBusyRequest } from "../../components/admin/use-busy-request.ts";
import { Field } from "../../components/field.tsx";
import { useToast } from "../../components/toast.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/update-config";

export const meta: Route.MetaFunction = () => [{ title: "Update Motor Config · Sinchai Admin" }];

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = getDb(envOf(context).DB);
  const id = userIdSchema.safeParse(params.userId);
  const loaded = await loadOrMessage(async () => {
    const user = id.success ? await findAdminUserView(db, { id: id.data }) : undefined;
    if (!user) return null;
    const { mobileNo, defaultCurrent, dryRunThreshold, overCurrentThreshold } = user;
    const { underVoltage, overVoltage, voltageUnbalance } = user;
    return {
      id: user.id,
      mobileNo,
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

/** The fields: names as the API expects them, limits as the server enforces them. */
const FIELDS = [
  { name: "defaultCurrent", label: "admin.config.defaultCurrent", min: 0.1, max: 100 },
  { name: "dryRunThreshold", label: "admin.config.dryRunThreshold", min: 0, max: 95 },
  { name: "overCurrentThreshold", label: "admin.config.overCurrentThreshold", min: 0, max: 500 },
  { name: "underVoltage", label: "admin.config.underVoltage", ...VOLTAGE_LIMIT_RANGES.underVoltage },
  { name: "overVoltage", label: "admin.config.overVoltage", ...VOLTAGE_LIMIT_RANGES.overVoltage },
  { name: "voltageUnbalance", label: "admin.config.voltageUnbalance", ...VOLTAGE_LIMIT_RANGES.voltageUnbalance },
] as const;

export default function UpdateConfig({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const api = useAdminApi();
  const toast = useToast();
  const { busy, run } = useBusyRequest();
  const user = loaderData.data;

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

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!user) return;
    const form = new FormData(event.currentTarget);
    await run(
      () =>
        api("/api/admin/update-motor-config", motorConfigResponseSchema, {
          method: "PUT",
          // Sent as typed; the server parses the numbers with the shared schema.
          json: {
            mobileNo: user.mobileNo,
            defaultCurrent: form.get("defaultCurrent"),
            dryRunThreshold: form.get("dryRunThreshold"),
            overCurrentThreshold: form.get("overCurrentThreshold"),
            underVoltage: form.get("underVoltage"),
            overVoltage: form.get("overVoltage"),
            voltageUnbalance: form.get("voltageUnbalance"),
          },
        }),
      { refused: "admin.config.failed", failed: "admin.config.failed" },
      (answer) =>
        toast.show(
          t(answer.body?.deliveredToDevice === false ? "admin.config.notDelivered" : "admin.config.updated"),
          "success",
        ),
    );
  }

  return (
    <main className="page admin-page">
      <h1>{t("admin.config.title")}</h1>
      <form className="card stack" onSubmit={submit} data-testid="config-form">
        <Field label={t("admin.config.mobileNo")}>
          <input name="mobileNo" value={user.mobileNo} readOnly />
        </Field>
        {FIELDS.map((field) => (
          <label key={field.name} className="field">
            <span>{t(field.label)}</span>
            <input
              name={field.name}
              type="number"
              inputMode="decimal"
              step={0.1}
              min={field.min}
              max={field.max}
              required
              defaultValue={user[field.name]}
            />
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
      </form>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.config.fetchError" />;
}
