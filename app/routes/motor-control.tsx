import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { z } from "../../common/zod.ts";
import { DEFAULT_MOTOR_CONFIG, MOTOR_COOLDOWN_MS } from "../../common/constants.ts";
import { relayStateSchema, type RelayState } from "../../common/device-protocol.ts";
import { healthDataSchema, type HealthData } from "../../common/realtime-protocol.ts";
import type { HubSnapshot } from "../../durable-objects/device-hub.ts";
import { getDb } from "../../worker/db/client.ts";
import { findDeviceByOwner } from "../../worker/db/devices.ts";
import { findUserById } from "../../worker/db/users.ts";
import { deviceHub } from "../../worker/device-hubs.ts";
import { playAlertSound } from "../alert-sound.ts";
import { callApi } from "../api-client.ts";
import { FirmwareCard } from "../components/firmware-card.tsx";
import { HealthGrid } from "../components/health-grid.tsx";
import { ClockIcon } from "../components/icons.tsx";
import { LogItem } from "../components/log-item.tsx";
import { MotorConfigCard } from "../components/motor-config-card.tsx";
import { useToast } from "../components/toast.tsx";
import { formatNumber } from "../format.ts";
import { useLanguage, useT, type MessageKey } from "../i18n/i18n.ts";
import { PULL_TO_REFRESH_THRESHOLD_PX, usePullToRefresh } from "../pull-to-refresh.ts";
import { useDeviceRealtime, type RealtimeEvent } from "../realtime/use-device-realtime.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/motor-control";

export const meta: Route.MetaFunction = () => [{ title: "Motor Control · Sinchai" }];

const NO_DEVICE_SNAPSHOT: HubSnapshot = {
  motorStatus: "off",
  deviceStatus: "offline",
  powerData: { current: 0, wattage: 0 },
  lastLogs: [],
  phaseFault: false,
  health: null,
  debug: false,
};

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  const db = getDb(env.DB);
  const [device, account] = await Promise.all([findDeviceByOwner(db, user.id), findUserById(db, user.id)]);
  const snapshot = device ? await deviceHub(env, device.id).getSnapshot() : NO_DEVICE_SNAPSHOT;
  return {
    mobileNo: user.mobileNo,
    hasDevice: device !== undefined,
    snapshot,
    motorConfig: {
      defaultCurrent: account?.defaultCurrent ?? DEFAULT_MOTOR_CONFIG.defaultCurrent,
      dryRunThreshold: account?.dryRunThreshold ?? DEFAULT_MOTOR_CONFIG.dryRunThreshold,
      overCurrentThreshold: account?.overCurrentThreshold ?? DEFAULT_MOTOR_CONFIG.overCurrentThreshold,
    },
  };
}

/** HTTP status of a failed command → what to tell the farmer. */
const COMMAND_ERROR_KEYS: Partial<Record<number, MessageKey>> = {
  404: "motor.noDevice",
  429: "motor.waitCooldown",
  503: "motor.deviceOffline",
  504: "motor.timeout",
};

/** A 409 has several reasons; the hub's own words (see durable-objects/device-hub.ts) name them. */
const REFUSAL_KEYS: [RegExp, MessageKey][] = [
  [/^Phase fault/, "motor.phaseFaultHint"],
  [/^There is no mains power/, "motor.noSupply"],
  [/^Another command is in progress/, "motor.busy"],
];

function commandErrorKey(status: number, message: string | null): MessageKey | null {
  if (status === 409 && message) return REFUSAL_KEYS.find(([pattern]) => pattern.test(message))?.[1] ?? null;
  return COMMAND_ERROR_KEYS[status] ?? null;
}

const commandSchema = z.object({ success: z.literal(true), status: relayStateSchema });
const statusSchema = z.object({ success: z.literal(true), status: relayStateSchema, healthLogs: healthDataSchema.nullable() });
const healthSchema = z.object({ success: z.literal(true), healthData: healthDataSchema });

/** SPEC §3: the last health data this browser saw, for when the server cannot be reached. */
const healthCacheKey = (mobileNo: string) => `healthData_${mobileNo}`;

function readCachedHealth(mobileNo: string): HealthData | null {
  try {
    const parsed = healthDataSchema.safeParse(JSON.parse(window.localStorage.getItem(healthCacheKey(mobileNo)) ?? "null"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export default function MotorControl({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const { mobileNo, hasDevice } = loaderData;
  const pulled = usePullToRefresh();

  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      switch (event.type) {
        case "dryRunDetected":
          toast.show(t("realtime.dryRun"), "error");
          playAlertSound("fault");
          return;
        case "overCurrentDetected":
          toast.show(t("realtime.overCurrent"), "error");
          playAlertSound("fault");
          return;
        case "phaseFaultDetected":
          toast.show(t("realtime.phaseFault"), "error");
          playAlertSound("fault");
          return;
        case "phaseOk":
          toast.show(t("realtime.phaseOk"), "success");
          playAlertSound("notice");
          return;
        case "powerLost":
          toast.show(t("realtime.powerLost"), "error");
          playAlertSound("fault");
          return;
        case "powerRestored":
          toast.show(t("realtime.powerRestored"), "info");
          playAlertSound("notice");
          return;
        case "deviceStatusUpdate":
          toast.show(
            event.deviceStatus === "online" ? t("realtime.online") : t("realtime.offline"),
            event.deviceStatus === "online" ? "success" : "error",
          );
          playAlertSound("notice");
          return;
        case "otaStatus":
          if (event.stage === "done") {
            toast.show(t("ota.done", { version: event.version }), "success", "ota-progress");
            playAlertSound("notice");
          } else if (event.stage === "failed") {
            toast.show(t("ota.progressFailed", { version: event.version, error: event.error ?? t("ota.unknownError") }), "error", "ota-progress");
            playAlertSound("fault");
          } else {
            const stage = t(`ota.stage.${event.stage}`);
            toast.show(event.progress === null ? stage : `${stage} ${formatNumber(event.progress, language)}%`, "info", "ota-progress");
          }
          return;
        case "debugLog":
          return; // admins only
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    },
    [toast, t, language],
  );

  const [live, setLive] = useDeviceRealtime(hasDevice ? mobileNo : null, loaderData.snapshot, onEvent);
  const [busy, setBusy] = useState(false);
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [message, setMessage] = useState<{ text: string; tone: "error" | "info" } | null>(null);
  const [cachedHealth, setCachedHealth] = useState<HealthData | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  const cooldownSeconds = Math.max(0, Math.ceil((cooldownUntil - now) / 1000));
  useEffect(() => {
    if (cooldownUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [cooldownUntil]);

  // Whatever health the page has, this browser remembers for a bad day (SPEC §3 health cache).
  useEffect(() => {
    if (hasDevice && live.health) window.localStorage.setItem(healthCacheKey(mobileNo), JSON.stringify(live.health));
  }, [hasDevice, mobileNo, live.health]);

  const fetchFailed = useCallback(() => {
    toast.show(t("status.failed"), "error");
    setCachedHealth(readCachedHealth(mobileNo));
  }, [toast, t, mobileNo]);

  // SPEC §8: the page asks for the motor's details when it opens and says what it found.
  useEffect(() => {
    if (!hasDevice) return;
    let cancelled = false;
    void callApi(`/api/devices/motor/status/${mobileNo}`, statusSchema).then((result) => {
      if (cancelled || result.status === 401) return;
      if (!result.ok) {
        fetchFailed();
        return;
      }
      const status = result.data.status === "on" ? t("motor.on") : t("motor.off");
      toast.show(t("status.current", { status }), "success");
      setCachedHealth(null);
      if (result.data.healthLogs) setLive((current) => ({ ...current, health: result.data.healthLogs }));
    });
    return () => {
      cancelled = true;
    };
    // Once per page visit, whatever the language or toasts do later.
  }, []);

  async function refreshHealth() {
    setRefreshing(true);
    const result = await callApi(`/api/devices/motor/health/${mobileNo}`, healthSchema, { method: "POST" });
    setRefreshing(false);
    if (result.ok) {
      setCachedHealth(null);
      setLive((current) => ({ ...current, health: result.data.healthData }));
      toast.show(t("health.updated"), "success");
    } else if (result.status !== 401) {
      fetchFailed();
    }
  }

  const online = live.deviceStatus === "online";
  const motorOn = live.motorStatus === "on";
  const phaseFault = live.phaseFault;

  async function toggleMotor() {
    if (cooldownSeconds > 0) {
      setMessage({ text: t("motor.waitCooldown"), tone: "error" });
      return;
    }
    const action: RelayState = motorOn ? "off" : "on";
    setBusy(true);
    setMessage({ text: t("motor.sending"), tone: "info" });
    const result = await callApi("/api/devices/motor", commandSchema, { method: "POST", body: { action } });
    setBusy(false);
    if (result.ok) {
      setLive((current) => ({ ...current, motorStatus: result.data.status }));
      setCooldownUntil(Date.now() + MOTOR_COOLDOWN_MS);
      setNow(Date.now());
      setMessage(null);
      return;
    }
    if (result.status === 401) {
      setMessage({ text: t("motor.missingToken"), tone: "error" });
      return;
    }
    // A failed toggle resets the countdown (SPEC §4); the server still enforces its own.
    setCooldownUntil(0);
    const key = commandErrorKey(result.status, result.message);
    // SPEC §8: the server's message, or "Failed to control motor." (Hindi readers get theirs).
    setMessage({
      text: key ? t(key) : (language === "en" && result.message) || t("motor.failed"),
      tone: "error",
    });
  }

  return (
    <main className="page">
      {pulled > 0 && (
        <p className="pull-indicator" aria-hidden="true" style={{ height: Math.min(pulled, 200) / 2 }}>
          {pulled > PULL_TO_REFRESH_THRESHOLD_PX ? t("pull.release") : t("pull.pull")}
        </p>
      )}
      <h1>{t("motor.title")}</h1>
      <section className="card status-row">
        <div>
          <span className="muted">{t("motor.mobileNo")}</span>
          <strong data-testid="mobile-no">{mobileNo}</strong>
        </div>
        <div>
          <span className="muted">{t("motor.device")}</span>
          <span className={`badge ${online ? "ok" : "bad"}`} data-testid="device-status">
            {online ? t("motor.online") : t("motor.offline")}
          </span>
        </div>
      </section>

      {!hasDevice ? (
        <p className="message info">{t("motor.noDevice")}</p>
      ) : (
        // data-live: whether the realtime socket is up (tests wait for it before causing events).
        <div className="dashboard" data-live={live.connected ? "connected" : "connecting"}>
          <section className="card toggle-card" aria-labelledby="toggle-title">
            <h2 id="toggle-title" className="visually-hidden">
              {t("motor.switchTitle")}
            </h2>
            <button
              type="button"
              className={`motor-toggle ${motorOn ? "on" : "off"}`}
              onClick={toggleMotor}
              disabled={!online || busy || phaseFault}
              aria-label={`${motorOn ? t("motor.on") : t("motor.off")}: ${motorOn ? t("motor.turnOff") : t("motor.turnOn")}`}
              data-testid="motor-toggle"
            >
              {motorOn ? t("motor.on") : t("motor.off")}
            </button>
            <p className="motor-state" data-testid="motor-status">
              {t("motor.status", { status: motorOn ? t("motor.on") : t("motor.off") })}
            </p>
            {!online && <p className="message info">{t("motor.offlineHint")}</p>}
            {online && phaseFault && (
              <p className="message error" data-testid="phase-fault">
                {t("motor.phaseFaultHint")}
              </p>
            )}
            {cooldownSeconds > 0 && (
              <p className="message info" data-testid="cooldown" aria-live="polite">
                {t("motor.cooldown", { seconds: cooldownSeconds })}
              </p>
            )}
            {message && (
              <p className={`message ${message.tone}`} role={message.tone === "error" ? "alert" : "status"}>
                {message.text}
              </p>
            )}
            <Link to="/motor-schedule" className="button small schedule-link">
              <ClockIcon />
              {t("motor.scheduleLink")}
            </Link>
          </section>

          <section className="card" aria-labelledby="power-title">
            <h2 id="power-title">{t("power.title")}</h2>
            <dl className="readings">
              <div>
                <dt>{t("power.current")}</dt>
                <dd data-testid="current">{formatNumber(live.powerData.current, language)} A</dd>
              </div>
              <div>
                <dt>{t("power.wattage")}</dt>
                <dd data-testid="wattage">{formatNumber(live.powerData.wattage, language)} W</dd>
              </div>
            </dl>
          </section>

          <HealthGrid health={cachedHealth ?? live.health} cached={cachedHealth !== null} refreshing={refreshing} onRefresh={refreshHealth} />

          <MotorConfigCard mobileNo={mobileNo} initial={loaderData.motorConfig} />

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

          <FirmwareCard mobileNo={mobileNo} />
        </div>
      )}
    </main>
  );
}
