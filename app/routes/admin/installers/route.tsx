// /admin/installers (docs/admin-area.md, "Installers"): make a verified account an installer, see
// each with their region, the boxes in their stock and their installs, give them boxes or take
// unused ones back, set their region, and tag boxes waiting for a farmer with a region
// (docs/decisions/035-installer-regions.md). Plain forms with an `intent`, posted to this route's
// action, so all of it works without JavaScript; the same services as /api/admin/installers*.
import { data, Form, useNavigation } from "react-router";
import { MOBILE_NO_PATTERN } from "../../../../common/constants.ts";
import { formatNumber } from "../../../../common/i18n/format.ts";
import { installerList } from "../../../../worker/services/admin-installers.ts";
import { adminContext, loadOrMessage } from "../../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../../components/admin/admin-error.tsx";
import { Fact } from "../../../components/admin/fact.tsx";
import { Field } from "../../../components/field.tsx";
import { isSameOriginRequest, readForm } from "../../../form.server.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { envOf } from "../../../session.server.ts";
import type { Route } from "./+types/route";
import { installersAction, type Outcome } from "./actions.server.ts";
import { OutcomeMessage } from "./outcome-message.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Installers · Sinchai Admin" }];

export async function loader({ context }: Route.LoaderArgs) {
  const loaded = await loadOrMessage(() => installerList(envOf(context)), "admin.installers.loadFailed");
  return data(loaded, { status: loaded.error ? 500 : 200 });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) {
    return data<Outcome>(
      { ok: false, intent: null, userId: null, error: "admin.installers.error.failed" },
      { status: 403 },
    );
  }
  return installersAction(envOf(context), request, context.get(adminContext), await readForm(request));
}

export default function AdminInstallers({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const busy = useNavigation().state === "submitting";
  const installers = loaderData.data;
  const n = (value: number) => formatNumber(value, language);
  return (
    <main className="page admin-page wide">
      <h1>{t("admin.installers.title")}</h1>
      <p className="muted">{t("admin.installers.intro")}</p>
      {actionData && <OutcomeMessage outcome={actionData} />}

      <Form method="post" className="card stack" data-testid="make-installer-form">
        <h2>{t("admin.installers.make.title")}</h2>
        <input type="hidden" name="intent" value="makeInstaller" />
        <Field label={t("admin.installers.make.mobileNo")}>
          <input name="mobileNo" inputMode="numeric" pattern={MOBILE_NO_PATTERN.source} required autoComplete="off" />
        </Field>
        <Field label={t("admin.installers.make.name")}>
          <input name="name" maxLength={60} required />
        </Field>
        <button type="submit" className="button primary" disabled={busy}>
          {t("admin.installers.make.submit")}
        </button>
      </Form>

      <h2>{t("admin.installers.list")}</h2>
      {installers === null ? (
        <LoadFailure message={loaderData.error ?? "admin.installers.loadFailed"} />
      ) : installers.length === 0 ? (
        <p className="muted">{t("admin.installers.empty")}</p>
      ) : (
        installers.map((installer) => (
          <section key={installer.userId} className="card stack" data-testid={`installer-${installer.userId}`}>
            <h3>
              {installer.name} · {installer.mobileNo}
            </h3>
            <dl className="facts">
              <Fact label={t("admin.installers.region")} testId="installer-region">
                {installer.region ?? t("admin.installers.noRegion")}
              </Fact>
              <Fact label={t("admin.installers.stockCount")} testId="installer-stock-count">
                {n(installer.stockCount)}
              </Fact>
              <Fact label={t("admin.installers.regionCount")} testId="installer-region-count">
                {n(installer.regionCount)}
              </Fact>
              <Fact label={t("admin.installers.installs")} testId="installer-installs">
                {n(installer.installs)}
              </Fact>
              <Fact label={t("admin.installers.stock")} testId="installer-stock" translate="no" wide>
                {installer.stock.length > 0 ? installer.stock.join(", ") : "—"}
              </Fact>
            </dl>
            <Form method="post" className="stack">
              <input type="hidden" name="userId" value={installer.userId} />
              <Field label={t("admin.installers.regionField")}>
                <input name="region" maxLength={40} defaultValue={installer.region ?? ""} />
              </Field>
              <button type="submit" name="intent" value="setRegion" className="button" disabled={busy}>
                {t("admin.installers.saveRegion")}
              </button>
            </Form>
            <Form method="post" className="stack">
              <input type="hidden" name="userId" value={installer.userId} />
              <Field label={t("admin.installers.boxIds")}>
                <textarea name="deviceIds" rows={2} required autoCapitalize="characters" spellCheck={false} />
              </Field>
              <div className="button-row">
                <button type="submit" name="intent" value="giveStock" className="button primary" disabled={busy}>
                  {t("admin.installers.give")}
                </button>
                <button type="submit" name="intent" value="takeBackStock" className="button" disabled={busy}>
                  {t("admin.installers.takeBack")}
                </button>
              </div>
            </Form>
          </section>
        ))
      )}

      <Form method="post" className="card stack" data-testid="tag-boxes-form">
        <h2>{t("admin.installers.tag.title")}</h2>
        <p className="muted">{t("admin.installers.tag.intro")}</p>
        <input type="hidden" name="intent" value="tagBoxes" />
        <Field label={t("admin.installers.boxIds")}>
          <textarea name="deviceIds" rows={3} required autoCapitalize="characters" spellCheck={false} />
        </Field>
        <Field label={t("admin.installers.regionField")}>
          <input name="region" maxLength={40} />
        </Field>
        <button type="submit" className="button primary" disabled={busy}>
          {t("admin.installers.tag.submit")}
        </button>
      </Form>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.installers.loadFailed" />;
}
