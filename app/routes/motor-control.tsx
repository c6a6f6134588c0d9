import { type FormEvent, useEffect, useRef, useState } from "react";
import { data, Form, Link, useActionData, useFetcher, useRevalidator, useSearchParams } from "react-router";
import { motorStatusResponseSchema } from "../../common/api-responses/devices.ts";
import { relayStateSchema } from "../../common/device-enums.ts";
import type { MotorCommandResult } from "../../common/hub-contract.ts";
import { relativeAge } from "../../common/i18n/format.ts";
import { roleMay } from "../../common/pump-roles.ts";
import type { PumpState } from "../../common/pump-state.ts";
import { usageSpanOf } from "../../common/pump-usage.ts";
import type { HealthData } from "../../common/realtime-protocol.ts";
import { getDb } from "../../worker/db/client.ts";
import { findDeviceById, motorConfigOf } from "../../worker/db/devices.ts";
import { deviceHub } from "../../worker/hubs/device-hubs.ts";
import { switchPump } from "../../worker/services/motor-commands.ts";
import { callApi } from "../api-client.ts";
import { HealthLine } from "../components/health-line.tsx";
import { ClockIcon } from "../components/icons.tsx";
import { LogItem } from "../components/log-item.tsx";
import { SwitchButtons } from "../components/motor-switch.tsx";
import { PowerCard } from "../components/power-card.tsx";
import {
  FaultBanners,
  PumpStatusLine,
  RunLine,
  secondsUntilOn,
  statusWord,
  useHubClock,
} from "../components/pump-state-view.tsx";
import { useToast } from "../components/toast.tsx";
import { UsageCard } from "../components/usage-chart.tsx";
import { CONTACT } from "../contact.ts";
import { isSameOriginRequest, readForm } from "../form.server.ts";
import { healthCacheKey, readCachedHealth, saveCachedHealth } from "../health-cache.ts";
import { type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { readLastState, saveLastState, usePhoneClock, usePhoneOnline } from "../offline/last-state.ts";
import { PULL_TO_REFRESH_THRESHOLD_PX, usePullToRefresh } from "../pull-to-refresh.ts";
import { pumpContext, pumpInForm } from "../pump-choice.server.ts";
import { noDeviceSnapshot } from "../realtime/no-device-snapshot.ts";
import { statusAnswerStillTrue } from "../realtime/status-answer.ts";
import { type SocketAnswer, useDeviceRealtime } from "../realtime/use-device-realtime.ts";
import { useLiveEffects } from "../realtime/use-live-effects.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/motor-control";

/** How often a page without a box asks whether one has been linked. */
const NO_DEVICE_RECHECK_MS = 5_000;

export const meta: Route.MetaFunction = () => [{ title: "Motor Control · Sinchai" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  const db = getDb(env.DB);
  const { pumps, chosen } = context.get(pumpContext);
  // Read again: the choice was resolved before this request's action (a settings change) ran.
  const device = chosen ? await findDeviceById(db, chosen.device.id) : undefined;
  const role = chosen?.role ?? "owner";
  const usageSpan = usageSpanOf(request.url);
  const [snapshot, usage] = await Promise.all([
    device ? deviceHub(env, device.id).getSnapshot() : noDeviceSnapshot(Date.now()),
    // Server-rendered with the page (and again when it revalidates), never over the socket.
    device ? deviceHub(env, device.id).usage(usageSpan) : null,
  ]);
  return {
    mobileNo: user.mobileNo,
    numberVerified: user.numberVerified,
    hasDevice: device !== undefined,
    deviceId: device?.id ?? null,
    pumpName: device?.name ?? null,
    role,
    // What this farmer may do here, decided on the server (the page ships no role table).
    may: {
      switch: roleMay(role, "switch"),
      // The settings and the box's details are on /pump-settings, the owner's page.
      configure: roleMay(role, "configure"),
      invite: roleMay(role, "invite"),
    },
    sharedBy:
      chosen && chosen.role !== "owner"
        ? (pumps.find((pump) => pump.device.id === device?.id)?.ownerMobileNo ?? null)
        : null,
    cacheKey: healthCacheKey(user.mobileNo, device?.id ?? null, pumps[0]?.device.id ?? null),
    snapshot,
    motorConfig: motorConfigOf(device),
    usage,
    usageSpan,
  };
}

/**
 * What became of a tap: the hub's answer (through the form's action or the open socket), or the
 * page's own refusal. `answerLost`: the socket dropped before the hub's answer reached the
 * page; `invalidRequest`: the hub could not read the request. Either way the pump state says
 * what is known.
 */
type CommandOutcome =
  | MotorCommandResult
  | { ok: false; code: "invalid" | "crossSite" | "noDevice" | "answerLost" | "invalidRequest" };

type ActionResult = { command: CommandOutcome };

/**
 * The switch is a plain form first: a tap before the page's script has arrived (or without
 * script at all) posts here, and the page comes back with the hub's answer. The same server
 * code as POST /api/devices/motor. (The motor's settings are posted to /pump-settings.)
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) {
    return data<ActionResult>({ command: { ok: false, code: "crossSite" } }, { status: 403 });
  }
  const form = await readForm(request);
  const user = context.get(userContext);
  const env = envOf(context);
  const command = relayStateSchema.safeParse(form.get("command"));
  if (!command.success) return data<ActionResult>({ command: { ok: false, code: "invalid" } }, { status: 400 });
  // The pump the page showed when the farmer tapped, not whatever another tab chose since.
  const access = await pumpInForm(env, user, form, "switch");
  if (!access.ok) return data<ActionResult>({ command: access }, { status: 403 });
  // Whatever the answer, it is the hub's: ok only once the box has confirmed the relay.
  const result: CommandOutcome = await switchPump(env, user, access.pump, command.data);
  return data<ActionResult>({ command: result });
}

/** What to tell the farmer about a command that did not succeed. */
const FAILURE_KEYS: Record<Exclude<CommandOutcome, { ok: true }>["code"], MessageKey> = {
  noDevice: "motor.noDevice",
  offline: "motor.deviceOffline",
  cooldown: "motor.waitCooldown",
  busy: "motor.busy",
  timeout: "motor.timeout",
  linkLost: "motor.linkLost",
  rejected: "motor.rejected",
  otaBusy: "motor.busy",
  otaRejected: "motor.rejected",
  notAllowed: "pumps.viewerNote",
  phaseFault: "motor.phaseFaultHint",
  noSupply: "motor.noSupply",
  underVoltage: "motor.underVoltage",
  overVoltage: "motor.overVoltage",
  voltageUnbalance: "motor.voltageUnbalance",
  invalid: "motor.failed",
  crossSite: "motor.failed",
  invalidRequest: "motor.failed",
  answerLost: "motor.answerLost",
};

/** The hub's answer on the socket, as the form's action would have given it (a code this page does not know yet reads as a failure). */
function outcomeOf(answer: SocketAnswer): CommandOutcome {
  if (answer.ok) return answer;
  const code = Object.hasOwn(FAILURE_KEYS, answer.code) ? (answer.code as keyof typeof FAILURE_KEYS) : "invalidRequest";
  return { ...answer, code } as CommandOutcome;
}

/** A command's message explains the state it was given in; when that state moves on, it goes. */
function stateKey(pump: PumpState): string {
  return `${pump.status}|${pump.statusSource}|${pump.statusSince}|${pump.deviceStatus}`;
}

/**
 * What the address says the farmer just did (server-rendered, so it shows without JavaScript):
 * registered (and signed in), verified the number with a code, set a new password with one.
 */
const ARRIVALS = [
  ["welcome", "register.success"],
  ["verified", "verify.done"],
  ["passwordReset", "forgot.done"],
] as const;

export default function MotorControl({ loaderData }: Route.ComponentProps) {
  const [search] = useSearchParams();
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const { mobileNo, hasDevice, deviceId, cacheKey, role } = loaderData;
  const canSwitch = loaderData.may.switch;
  const pulled = usePullToRefresh();
  const revalidator = useRevalidator();

  // What the page does about a realtime message besides showing its state (../realtime/live-device.ts).
  const onEffect = useLiveEffects();

  const [live, setLive, ask] = useDeviceRealtime(deviceId, loaderData.snapshot, onEffect);
  const pump = live.pump;
  // No network (the phone says so, or the socket cannot even open): the page shows the last
  // state it knows, with its age on the phone's clock, and sends nothing.
  const phoneOnline = usePhoneOnline();
  const noConnection = hasDevice && (!phoneOnline || live.failedAttempts >= 3);
  const phoneNow = usePhoneClock(noConnection ? 10_000 : 60_000);
  const [savedKnownAt, setSavedKnownAt] = useState<number | null>(null);
  const knownAt = live.liveUntil ?? savedKnownAt ?? loaderData.snapshot.pump.at;
  const fetcher = useFetcher<typeof action>();
  const posted = useActionData<typeof action>();
  const now = useHubClock(pump, 250);
  // The answer to the last command, with the state it was given in (see stateKey).
  const [answer, setAnswer] = useState<{ outcome: CommandOutcome; key: string } | null>(() =>
    posted?.command ? { outcome: posted.command, key: stateKey(loaderData.snapshot.pump) } : null,
  );
  // A tap sent on the open socket, until its answer; then the answer, until its effect below words it.
  const [asking, setAsking] = useState(false);
  const [socketAnswer, setSocketAnswer] = useState<CommandOutcome | null>(null);
  const [cachedHealth, setCachedHealth] = useState<HealthData | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new answer is news; the state it was given in is read as it is at that moment
  useEffect(() => {
    if (fetcher.data?.command) setAnswer({ outcome: fetcher.data.command, key: stateKey(pump) });
    // Only a new answer is news; the state it was given in is read as it is at that moment.
  }, [fetcher.data]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: as for the form's answer above
  useEffect(() => {
    if (socketAnswer) setAnswer({ outcome: socketAnswer, key: stateKey(pump) });
  }, [socketAnswer]);

  /**
   * With the socket open a tap travels on it and the form is not posted; without one (not yet
   * open, dropped, or no script at all) the form posts as it always did.
   */
  function switchOnSocket(event: FormEvent<HTMLFormElement>) {
    const action = relayStateSchema.safeParse((event.nativeEvent as SubmitEvent).submitter?.getAttribute("value"));
    if (!action.success) return;
    const answered = ask({ type: "switchMotor", action: action.data });
    if (!answered) return;
    event.preventDefault();
    setAsking(true);
    void answered.then((answer) => {
      setAsking(false);
      setSocketAnswer(outcomeOf(answer));
    });
  }

  // What the hub last said is kept on the phone for a day without network (app/offline).
  // biome-ignore lint/correctness/useExhaustiveDependencies: saved once per message from the hub (liveUntil moves with each), not per render
  useEffect(() => {
    if (!hasDevice || live.liveUntil === null) return;
    void saveLastState({
      pumpKey: cacheKey,
      knownAt: live.liveUntil,
      pump: live.pump,
      powerData: live.powerData,
      lastLogs: live.lastLogs,
    });
  }, [hasDevice, cacheKey, live.liveUntil]);

  // Offline, a page kept by the service worker may be older than the last state this phone saw.
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once when the connection is lost, not again as the page re-renders offline
  useEffect(() => {
    if (!noConnection || live.liveUntil !== null) return;
    let cancelled = false;
    void readLastState(cacheKey).then((saved) => {
      if (cancelled || !saved || saved.pump.at <= live.pump.at) return;
      setSavedKnownAt(saved.knownAt);
      setLive((current) => ({ ...current, pump: saved.pump, powerData: saved.powerData, lastLogs: saved.lastLogs }));
    });
    return () => {
      cancelled = true;
    };
  }, [noConnection]);

  // A pump relinked to another account leaves this page: the loader then shows no device.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the end of the watch matters; the revalidator is new every render
  useEffect(() => {
    if (live.ended === "deviceUnlinked") revalidator.revalidate();
  }, [live.ended]);

  // Without a box there is no hub to hear from: the page asks again now and then, so the
  // box an admin links while the farmer waits shows up without a reload.
  useEffect(() => {
    if (hasDevice) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, NO_DEVICE_RECHECK_MS);
    return () => clearInterval(timer);
  }, [hasDevice, revalidator]);

  // Whatever health the page has, this browser remembers for a bad day (SPEC §3 health cache).
  useEffect(() => {
    if (hasDevice && live.health) saveCachedHealth(cacheKey, live.health);
  }, [hasDevice, cacheKey, live.health]);

  const online = pump.deviceStatus === "online";
  const ended = live.ended;
  const sending = fetcher.state !== "idle" || asking;
  // What the page knows when the answer to its opening request arrives, however late.
  const known = useRef({ pump, commandInFlight: sending });
  useEffect(() => {
    known.current = { pump, commandInFlight: sending };
  });

  // SPEC §8: the page asks for the motor's details when it opens and says what it found, when
  // the hub can vouch for it (offline or unconfirmed, the status line says what is known) and
  // nothing the page learned since (the farmer's own confirmed tap) says otherwise.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the page opens (SPEC §8)
  useEffect(() => {
    if (!hasDevice) return;
    let cancelled = false;
    void callApi(`/api/pumps/${deviceId}/status`, motorStatusResponseSchema).then((result) => {
      if (cancelled || result.status === 401) return;
      if (!result.ok) {
        toast.show(t("status.failed"), "error");
        setCachedHealth(readCachedHealth(cacheKey));
        return;
      }
      const { status, healthLogs } = result.data;
      if (statusAnswerStillTrue(result.data, known.current.pump, known.current.commandInFlight)) {
        toast.show(t("status.current", { status: status === "on" ? t("motor.on") : t("motor.off") }), "success");
      }
      setCachedHealth(null);
      // A report the socket brought meanwhile is newer than the one in this answer.
      if (healthLogs)
        setLive((current) => ({
          ...current,
          health:
            current.health?.reportedAt && (healthLogs.reportedAt ?? "") < current.health.reportedAt
              ? current.health
              : healthLogs,
        }));
    });
    return () => {
      cancelled = true;
    };
    // Once per page visit, whatever the language or toasts do later.
  }, []);

  const pendingOn = pump.pendingCommand?.state === "sent" && pump.pendingCommand.action === "on";
  const onBlockedFor = secondsUntilOn(pump, now);
  const faults = new Set(pump.faults.map((fault) => fault.kind));
  const canSend = online && ended === null && !sending && !noConnection;
  // Stopping is never held back, not even by this page's own tap still waiting for its answer
  // (an ON the box may have carried out, on a line that lost the answer): OFF goes again.
  const canTurnOff = online && ended === null && !noConnection;
  // The cooldown, a phase fault and missing mains hold back an ON, never an OFF.
  const canTurnOn = canSend && !pendingOn && onBlockedFor === 0 && !faults.has("phaseFault") && !faults.has("noSupply");
  const failure = answer && !answer.outcome.ok && answer.key === stateKey(pump) ? answer.outcome : null;

  return (
    <main className="page">
      {pulled > 0 && (
        <p className="pull-indicator" aria-hidden="true" style={{ height: Math.min(pulled, 200) / 2 }}>
          {pulled > PULL_TO_REFRESH_THRESHOLD_PX ? t("pull.release") : t("pull.pull")}
        </p>
      )}
      <h1>{t("motor.title")}</h1>
      {loaderData.sharedBy && (
        <p className="muted" data-testid="shared-by">
          {t("pumps.sharedBy", { mobileNo: loaderData.sharedBy })} · {t("pumps.role", { role })}
        </p>
      )}
      {ARRIVALS.map(
        ([param, key]) =>
          search.get(param) === "1" && (
            <p key={param} className="message success" role="status" data-testid={param}>
              {t(key)}
            </p>
          ),
      )}
      {!loaderData.numberVerified && (
        // One line: what is missing and the one tap that sends the code (docs/decisions/027).
        <Form method="post" action="/verify-number" className="verify-notice" data-testid="verify-notice">
          <input type="hidden" name="intent" value="send" />
          <span>{t("verify.notice")}</span>
          <button type="submit" className="link-button">
            {t("code.send")}
          </button>
        </Form>
      )}
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

      {ended && (
        <div className="message warning" role="alert" data-testid="live-ended" data-reason={ended}>
          <p>{t(`pump.ended.${ended}`)}</p>
          {ended !== "deviceUnlinked" && (
            <a href="/login" className="button small">
              {t("pump.logInAgain")}
            </a>
          )}
        </div>
      )}

      {!hasDevice ? (
        <NoDevicePanel mobileNo={mobileNo} />
      ) : (
        // data-live: whether the realtime socket is up (tests wait for it before causing events).
        <div className="dashboard" data-live={live.connected ? "connected" : ended ? "ended" : "connecting"}>
          <section className="card toggle-card" aria-labelledby="toggle-title">
            <h2 id="toggle-title" className="visually-hidden">
              {t("motor.switchTitle")}
            </h2>
            <FaultBanners faults={pump.faults} now={now} />
            {noConnection && (
              // data-offline-view: a page the service worker kept shows itself again (app.css).
              <div className="message warning" role="status" data-testid="offline-banner" data-offline-view>
                <p>{t("offline.banner", { age: relativeAge(knownAt, language, Math.max(phoneNow, knownAt)) })}</p>
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
                <RunLine pump={pump} now={now} />
              </>
            )}
            {canSwitch ? (
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

/** A farmer whose box is not linked yet learns what to do next, and whom to call. */
function NoDevicePanel({ mobileNo }: { mobileNo: string }) {
  const t = useT();
  const whatsapp = `${CONTACT.whatsapp}?text=${encodeURIComponent(t("noDevice.whatsappText", { mobileNo }))}`;
  return (
    <section className="card no-device" data-testid="no-device" aria-labelledby="no-device-title">
      <h2 id="no-device-title">{t("noDevice.title")}</h2>
      <p>{t("motor.noDevice")}</p>
      <ol>
        <li>{t("noDevice.stepId")}</li>
        <li>{t("noDevice.stepContact")}</li>
        <li>{t("noDevice.stepWait")}</li>
      </ol>
      <div className="switch-pair">
        <a className="button primary" href={`tel:${CONTACT.tel}`} data-testid="no-device-call">
          {t("noDevice.call", { phone: CONTACT.phone })}
        </a>
        <a
          className="button"
          href={whatsapp}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="no-device-whatsapp"
        >
          {t("noDevice.whatsapp")}
        </a>
      </div>
    </section>
  );
}
