// /installer: the installer's page (docs/user-area.md, "The installer's visit"), in the field on
// a phone. Scan a box's sticker (the camera through BarcodeDetector where the browser has it) or
// type its id and claim code, type the farmer's number, then the code the farmer got by SMS: the
// box is linked. Below, the installer's stock and the boxes they installed, each with its online
// state, its commissioning (the dry-run check too) and, until then, the hand-over. Plain forms with an `intent`, posted to this route's
// action, so all of it works without JavaScript; the same services as /api/installer/*.
import type { ReactNode } from "react";
import { Link, useNavigation, useSearchParams } from "react-router";
import { MOBILE_NO_PATTERN } from "../../../common/constants.ts";
import { DEVICE_ID_PATTERN } from "../../../common/credentials.ts";
import { formatDateTime } from "../../../common/i18n/format.ts";
import { DryRunCheckLine } from "../../components/dry-run-check-line.tsx";
import { LanguageSwitch } from "../../components/language-switch.tsx";
import { LogoutControl } from "../../components/logout-control.tsx";
import { field, isSameOriginRequest, readForm } from "../../form.server.ts";
import { type MessageKey, useLanguage, useT } from "../../i18n/i18n.ts";
import { envOf, requireUser, waitUntilOf } from "../../session.server.ts";
import type { Route } from "./+types/route";
import { claim, commission, confirm, dryRunCheck, handOver, refused, supply, testRun } from "./actions.server.ts";
import { ClaimForm } from "./claim-form.tsx";
import { BoxActionForm, CommissioningSteps } from "./commissioning-steps.tsx";
import { ConfirmCodeForm } from "./confirm-code-form.tsx";
import { loadInstallerPage } from "./loader.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Installer · Sinchai" }];

export async function loader(args: Route.LoaderArgs) {
  return loadInstallerPage(args);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) return refused({ key: "error.crossSite" }, 403);
  const user = await requireUser(request, context);
  const env = envOf(context);
  const form = await readForm(request);
  switch (field(form, "intent")) {
    case "claim":
      return claim(env, request, user, form, waitUntilOf(context));
    case "confirm":
      return confirm(env, request, user, form);
    case "supply":
      return supply(env, user, form);
    case "testRun":
      return testRun(env, user, form);
    case "commission":
      return commission(env, user, form);
    case "dryRunCheck":
      return dryRunCheck(env, user, form);
    case "handOver":
      return handOver(env, user, form);
    default:
      return refused({ key: "installer.error.failed" }, 400);
  }
}

export default function Installer({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const busy = useNavigation().state === "submitting";
  const [search] = useSearchParams();
  const { overview } = loaderData;
  // The action's redirect put them there already checked: a pattern is enough for the page,
  // which keeps zod's classic build (the server's schemas) out of its JavaScript.
  const pendingBox = search.get("box") ?? "";
  const pendingFarmer = search.get("farmer") ?? "";
  const pending = DEVICE_ID_PATTERN.test(pendingBox) && MOBILE_NO_PATTERN.test(pendingFarmer);
  const linked = search.get("linked");
  // A refusal about the box the page already says is linked (its confirmation, sent again on a
  // slow line) would contradict that success: the success is what happened, and it alone shows.
  const aboutLinked = linked !== null && actionData && "deviceId" in actionData && actionData.deviceId === linked;
  const error = actionData && "error" in actionData && !aboutLinked ? actionData.error : undefined;
  const commissioning = actionData && "commissioning" in actionData ? actionData.commissioning : undefined;
  // The box being commissioned: chosen from the list (`?commission=`), or the one the last step was about.
  const commissioned =
    commissioning?.deviceId ??
    (actionData && "deviceId" in actionData ? actionData.deviceId : undefined) ??
    search.get("commission") ??
    linked;
  const inHand = overview?.installed.find((box) => box.deviceId === commissioned && box.handedOverAt === null);
  return (
    <main className="page narrow installer-page">
      <header className="installer-header">
        <h1>{t("installer.title")}</h1>
        <LanguageSwitch />
        <LogoutControl />
      </header>
      {!overview ? (
        <p className="card message info" data-testid="not-installer">
          {t("installer.notInstaller")}
        </p>
      ) : (
        <>
          <p className="muted" data-testid="installer-name">
            {t("installer.hello", { name: overview.name })}
          </p>
          {error && (
            <p className="message error" role="alert" data-testid="installer-error">
              {t(error.key, error.values)}
            </p>
          )}
          {linked && (
            <p className="message success" role="status" data-testid="installer-linked">
              {t("installer.linked", { deviceId: linked })}
            </p>
          )}
          {search.get("handedOver") && (
            <p className="message success" role="status" data-testid="installer-handed-over">
              {t("installer.handedOver")}
            </p>
          )}
          {inHand && (
            <CommissioningSteps
              deviceId={inHand.deviceId}
              state={commissioning}
              commissioned={inHand.report !== null}
              busy={busy}
            />
          )}
          <section className="card stack" aria-labelledby="claim-title">
            <h2 id="claim-title">{t("installer.claimTitle")}</h2>
            {pending ? (
              <ConfirmCodeForm deviceId={pendingBox} farmerMobileNo={pendingFarmer} busy={busy} />
            ) : (
              <ClaimForm busy={busy} />
            )}
          </section>
          <BoxList
            id="installed"
            title="installer.installed"
            empty="installer.installedEmpty"
            boxes={overview.installed}
          >
            {(box) => (
              <li key={box.deviceId} data-testid={`installed-${box.deviceId}`} className="stack">
                <strong>{box.deviceId}</strong>
                <span>
                  {box.online !== null && <>{box.online ? t("installer.online") : t("installer.offline")} · </>}
                  {t("installer.installedOn", { time: formatDateTime(box.installedAt, language) })}
                </span>
                {box.report && (
                  <span data-testid="commission-report">
                    {t("commission.report", {
                      name: box.report.by.name,
                      time: formatDateTime(box.report.at, language),
                      measured: box.report.measured.runningCurrent,
                      current: box.report.set.defaultCurrent,
                    })}{" "}
                    <DryRunCheckLine check={box.report.dryRunCheck ?? null} />
                  </span>
                )}
                {box.handedOverAt === null && (
                  <Link to={`/installer?commission=${box.deviceId}`} data-testid={`commission-${box.deviceId}`}>
                    {t("commission.open")}
                  </Link>
                )}
                {box.handedOverAt === null ? (
                  <BoxActionForm
                    deviceId={box.deviceId}
                    intent="handOver"
                    busy={busy}
                    label="installer.handOver"
                    testId="hand-over"
                    help="installer.handOverHelp"
                  />
                ) : (
                  <span className="muted">
                    {t("installer.handedOverOn", { time: formatDateTime(box.handedOverAt, language) })}
                  </span>
                )}
              </li>
            )}
          </BoxList>
          <BoxList id="stock" title="installer.stock" empty="installer.stockEmpty" boxes={overview.stock}>
            {(box) => (
              <li key={box.deviceId}>
                {box.deviceId}
                {box.via === "region" && <span className="muted"> · {t("installer.fromRegion")}</span>}
              </li>
            )}
          </BoxList>
        </>
      )}
    </main>
  );
}

/** A card of the installer's boxes, one kind (installed, or in stock), or the words saying there are none. */
function BoxList<Box extends { deviceId: string }>({
  id,
  title,
  empty,
  boxes,
  children,
}: {
  id: "installed" | "stock";
  title: MessageKey;
  empty: MessageKey;
  boxes: Box[];
  children: (box: Box) => ReactNode;
}) {
  const t = useT();
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t(title)}</h2>
      {boxes.length === 0 ? (
        <p className="muted">{t(empty)}</p>
      ) : (
        <ul className="installer-boxes" data-testid={`${id}-list`}>
          {boxes.map((box) => children(box))}
        </ul>
      )}
    </section>
  );
}
