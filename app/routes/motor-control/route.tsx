// /motor-control, the farmer's dashboard: the chosen pump live (its switch, a form posted to this
// route's action and carried on the socket once the script runs), or what to do without a box.
import { Form, Link, useActionData } from "react-router";
import { formatNumber, relativeAge } from "../../../common/i18n/format.ts";
import { HealthLine } from "../../components/health-line.tsx";
import { ClockIcon } from "../../components/icons.tsx";
import { LogItem } from "../../components/log-item.tsx";
import { SwitchButtons } from "../../components/motor-switch.tsx";
import { PowerCard } from "../../components/power-card.tsx";
import {
  FaultBanners,
  PumpStatusLine,
  RunLine,
  secondsUntilOn,
  statusWord,
  useHubClock,
} from "../../components/pump-state-view.tsx";
import { UsageCard } from "../../components/usage-chart.tsx";
import { field, isSameOriginRequest, readForm } from "../../form.server.ts";
import { useLanguage, useT } from "../../i18n/i18n.ts";
import { useDeviceRealtime } from "../../realtime/use-device-realtime.ts";
import { useLiveEffects } from "../../realtime/use-live-effects.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";
import { type AskAgainAnswer, askAgain, dismissTripBanner, refusedCommand, switchMotor } from "./actions.server.ts";
import { ArrivalNotices } from "./arrival-notices.tsx";
import { FAILURE_KEYS } from "./command-outcome.ts";
import { LiveEnded } from "./live-ended.tsx";
import { loadDashboard } from "./loader.server.ts";
import { NoDevicePanel } from "./no-device-panel.tsx";
import { PullIndicator } from "./pull-indicator.tsx";
import { useLinkRecheck } from "./use-link-recheck.ts";
import { useMotorSwitch } from "./use-motor-switch.ts";
import { useOfflinePump } from "./use-offline-pump.ts";
import { useOpeningStatus } from "./use-opening-status.ts";

export const meta: Route.MetaFunction = () => [{ title: "Motor Control · Sinchai" }];

export async function loader(args: Route.LoaderArgs) {
  return loadDashboard(args);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) return refusedCommand("crossSite", 403);
  const form = await readForm(request);
  // The switch's form names no intent: it posts `command`, ON or OFF, and the pump it showed.
  switch (field(form, "intent")) {
    case "":
      return switchMotor(envOf(context), context.get(userContext), form);
    case "askAgain":
      return askAgain(envOf(context), context.get(userContext), form, request);
    case "dismissTrip":
      return dismissTripBanner(envOf(context), context.get(userContext), form);
    default:
      return refusedCommand("invalid", 400);
  }
}

export default function MotorControl({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const { mobileNo, hasDevice, deviceId, cacheKey, role } = loaderData;

  // What the page does about a realtime message besides showing its state (../../realtime/live-device.ts).
  const onEffect = useLiveEffects();
  const realtime = useDeviceRealtime(deviceId, loaderData.snapshot, onEffect);
  const [live, , ask] = realtime;
  const pump = live.pump;
  const [noConnection, phoneNow, knownAt] = useOfflinePump(hasDevice, cacheKey, realtime, loaderData.snapshot.pump.at);
  const now = useHubClock(pump, 250);
  const [fetcher, switchOnSocket, sending, failure] = useMotorSwitch(pump, loaderData.snapshot.pump, ask);
  useLinkRecheck(hasDevice, live.ended);
  const cachedHealth = useOpeningStatus(deviceId, cacheKey, realtime, sending);

  const online = pump.deviceStatus === "online";
  const ended = live.ended;
  const pendingOn = pump.pendingCommand?.state === "sent" && pump.pendingCommand.action === "on";
  const onBlockedFor = secondsUntilOn(pump, now);
  const faults = new Set(pump.faults.map((fault) => fault.kind));
  const canSend = online && ended === null && !sending && !noConnection;
  // Stopping is never held back, not even by this page's own tap still waiting for its answer
  // (an ON the box may have carried out, on a line that lost the answer): OFF goes again.
  const canTurnOff = online && ended === null && !noConnection;
  // The cooldown, a phase fault and missing mains hold back an ON, never an OFF.
  const canTurnOn = canSend && !pendingOn && onBlockedFor === 0 && !faults.has("phaseFault") && !faults.has("noSupply");
  // The app cannot switch, or nobody can vouch for the relay: the phone's ways to stop are offered.
  const notSure = pump.status === "unknown";
  const cannotSwitch = noConnection || !online || notSure;
  const asked = useActionData<AskAgainAnswer>()?.askAgain;

  return (
    <main className="page">
      <PullIndicator />
      <h1>{t("motor.title")}</h1>
      {loaderData.sharedBy && (
        <p className="muted" data-testid="shared-by">
          {t("pumps.sharedBy", { mobileNo: loaderData.sharedBy })} · {t("pumps.role", { role })}
        </p>
      )}
      <ArrivalNotices numberVerified={loaderData.numberVerified} />
      <section className="card status-row">
        <div>
          <span className="muted">{t("motor.mobileNo")}</span>
          <strong data-testid="mobile-no">{mobileNo}</strong>
        </div>
        <div>
          <span className="muted">{t("motor.device")}</span>
          {noConnection ? (
            // Without a network the page cannot know whether the box is online.
            <span className="badge" data-testid="device-status" data-state="no-connection">
              {t("offline.noConnection")}
            </span>
          ) : hasDevice ? (
            <span className={`badge ${online ? "ok" : "bad"}`} data-testid="device-status">
              {online ? t("motor.online") : t("motor.offline")}
            </span>
          ) : (
            <span className="badge" data-testid="device-status">
              {t("motor.notLinked")}
            </span>
          )}
        </div>
      </section>

      {ended && <LiveEnded ended={ended} />}

      {!hasDevice ? (
        <NoDevicePanel mobileNo={mobileNo} />
      ) : (
        // data-live: whether the realtime socket is up (tests wait for it before causing events).
        <div className="dashboard" data-live={live.connected ? "connected" : ended ? "ended" : "connecting"}>
          <section className="card toggle-card" aria-labelledby="toggle-title">
            <h2 id="toggle-title" className="visually-hidden">
              {t("motor.switchTitle")}
            </h2>
            <FaultBanners faults={pump.faults} now={now} dismissible={loaderData.may.switch ? deviceId : null} />
            {noConnection && (
              // data-offline-view: a page the service worker kept shows itself again (app.css).
              <div className="message warning" role="status" data-testid="offline-banner" data-offline-view>
                <p>
                  {t("offline.banner", {
                    age: relativeAge(knownAt, language, Math.max(phoneNow, knownAt)),
                  })}
                </p>
                <p>{t("offline.commands")}</p>
              </div>
            )}
            {/* First what the motor does, in words; then what each button will do. */}
            {noConnection ? (
              <p
                className="message warning"
                data-testid="motor-status"
                data-state="no-connection"
                data-was={pump.status}
              >
                {t("offline.statusWas", { status: statusWord(pump.status, t) })}
              </p>
            ) : (
              <>
                <PumpStatusLine pump={pump} now={now} />
                <RunLine pump={pump} now={now} viewerId={loaderData.viewerId} />
              </>
            )}
            {loaderData.may.switch && notSure && online && !noConnection && ended === null && (
              // A plain form: the hub's answer settles the state, which the socket then brings.
              <Form method="post" className="ask-again" data-testid="ask-again">
                <input type="hidden" name="pump" value={deviceId ?? ""} />
                <p className="muted" data-testid="current-hint">
                  {t(live.powerData.current >= loaderData.runningCurrent ? "askAgain.hintOn" : "askAgain.hintOff", {
                    amps: formatNumber(live.powerData.current, language),
                  })}
                </p>
                <button type="submit" name="intent" value="askAgain" className="button">
                  {t("askAgain.button")}
                </button>
              </Form>
            )}
            {asked && (
              <p className="message info" role="status" data-testid="ask-again-answer" data-answer={asked.code}>
                {asked.text}
              </p>
            )}
            {loaderData.phoneWays && loaderData.may.switch && cannotSwitch && (
              // Server-rendered links (app/phone-ways.server.ts): a call to the stop number, an SMS.
              <div
                className="message warning"
                data-testid="stop-by-phone"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own escaped HTML, kept out of the page's script
                dangerouslySetInnerHTML={{ __html: loaderData.phoneWays.stop }}
              />
            )}
            {loaderData.may.switch ? (
              <fetcher.Form method="post" className="motor-form" onSubmit={switchOnSocket}>
                <input type="hidden" name="pump" value={deviceId ?? ""} />
                <SwitchButtons
                  status={pump.status}
                  startPending={pendingOn}
                  canStart={canTurnOn}
                  canStop={canTurnOff}
                />
              </fetcher.Form>
            ) : (
              <p className="message info" data-testid="viewer-note">
                {t("pumps.viewerNote")}
              </p>
            )}
            {/* While a command is on its way, the wait before the next ON is not news. */}
            {online &&
              !ended &&
              !noConnection &&
              !sending &&
              !pendingOn &&
              onBlockedFor > 0 &&
              pump.status !== "on" && (
                <p className="message info" data-testid="cooldown" aria-live="polite">
                  {t("motor.cooldown", { seconds: onBlockedFor })}
                </p>
              )}
            {sending && (
              <p className="message info" role="status">
                {t("motor.sending")}
              </p>
            )}
            {failure && (
              <p className="message error" role="alert" data-testid="command-failure" data-code={failure.code}>
                {t(FAILURE_KEYS[failure.code])}
                {failure.code === "rejected" && failure.error ? ` (“${failure.error}”)` : ""}
              </p>
            )}
            <div className="card-links">
              <Link to="/motor-schedule" className="button small">
                <ClockIcon />
                {t("motor.scheduleLink")}
              </Link>
              <Link to="/alerts" className="button small">
                {t("alerts.link")}
              </Link>
              {loaderData.may.invite && (
                <Link to="/pump-people" className="button small" data-testid="people-link">
                  {t("nav.people")}
                </Link>
              )}
            </div>
          </section>

          <PowerCard
            powerData={live.powerData}
            pump={pump}
            now={now}
            live={online && !noConnection}
            limits={loaderData.motorConfig}
          />

          <HealthLine
            health={cachedHealth ?? live.health}
            cached={cachedHealth !== null}
            boxOnline={online}
            heard={!noConnection}
            lastHeardAt={noConnection ? knownAt : pump.lastSeenAt}
            now={noConnection ? Math.max(phoneNow, knownAt) : now}
            settingsLink={loaderData.may.configure}
          />

          {loaderData.phoneWays && loaderData.may.switch && (
            <section
              className="card"
              data-testid="phone-numbers"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own escaped HTML, kept out of the page's script
              dangerouslySetInnerHTML={{ __html: loaderData.phoneWays.list }}
            />
          )}

          <section className="card" aria-labelledby="logs-title">
            <h2 id="logs-title">{t("logs.recent")}</h2>
            {live.lastLogs.length === 0 ? (
              <p className="muted">{t("logs.empty")}</p>
            ) : (
              <ul className="log-list" data-testid="recent-logs">
                {live.lastLogs.map((log) => (
                  <LogItem key={log.id} log={log} language={language} />
                ))}
              </ul>
            )}
            <Link to="/logs">{t("logs.all")}</Link>
          </section>

          {loaderData.usage && deviceId && (
            <UsageCard usage={loaderData.usage} span={loaderData.usageSpan} deviceId={deviceId} />
          )}
        </div>
      )}
    </main>
  );
}
