import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { MOTOR_COOLDOWN_MS } from "../../common/constants.ts";
import type { RelayState } from "../../common/device-protocol.ts";
import type { HubSnapshot } from "../../durable-objects/device-hub.ts";
import { getDb } from "../../worker/db/client.ts";
import { findDeviceByOwner } from "../../worker/db/devices.ts";
import { deviceHub } from "../../worker/device-hubs.ts";
import { localeOf, useLanguage, useT, type MessageKey } from "../i18n/i18n.ts";
import { useDeviceRealtime } from "../realtime/use-device-realtime.ts";
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
};

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  const device = await findDeviceByOwner(getDb(env.DB), user.id);
  const snapshot = device ? await deviceHub(env, device.id).getSnapshot() : NO_DEVICE_SNAPSHOT;
  return { mobileNo: user.mobileNo, hasDevice: device !== undefined, snapshot };
}

/** HTTP status of a failed command → what to tell the farmer. */
const COMMAND_ERROR_KEYS: Partial<Record<number, MessageKey>> = {
  404: "motor.noDevice",
  409: "motor.busy",
  429: "motor.waitCooldown",
  503: "motor.deviceOffline",
  504: "motor.timeout",
};

type CommandResponse = { success?: boolean; message?: string; status?: RelayState };

export default function MotorControl({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const navigate = useNavigate();
  const { mobileNo, hasDevice } = loaderData;
  const [live, setLive] = useDeviceRealtime(hasDevice ? mobileNo : null, loaderData.snapshot);
  const [busy, setBusy] = useState(false);
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [message, setMessage] = useState<{ text: string; tone: "error" | "info" } | null>(null);

  const cooldownSeconds = Math.max(0, Math.ceil((cooldownUntil - now) / 1000));
  useEffect(() => {
    if (cooldownUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [cooldownUntil]);

  const online = live.deviceStatus === "online";
  const motorOn = live.motorStatus === "on";
  const numberFormat = new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: 2 });

  async function toggleMotor() {
    if (cooldownSeconds > 0) {
      setMessage({ text: t("motor.waitCooldown"), tone: "error" });
      return;
    }
    const action: RelayState = motorOn ? "off" : "on";
    setBusy(true);
    setMessage({ text: t("motor.sending"), tone: "info" });
    try {
      const response = await fetch("/api/devices/motor", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action }),
      });
      const body = (await response.json().catch(() => ({}))) as CommandResponse;
      if (response.status === 401) {
        navigate("/?session=expired");
        return;
      }
      if (response.ok && body.success && body.status) {
        setLive((current) => ({ ...current, motorStatus: body.status! }));
        setCooldownUntil(Date.now() + MOTOR_COOLDOWN_MS);
        setNow(Date.now());
        setMessage(null);
        return;
      }
      // A failed toggle resets the countdown (SPEC §4); the server still enforces its own.
      setCooldownUntil(0);
      const key = COMMAND_ERROR_KEYS[response.status];
      setMessage({ text: key ? t(key) : (language === "en" && body.message) || t("motor.failed"), tone: "error" });
    } catch {
      setCooldownUntil(0);
      setMessage({ text: t("motor.failed"), tone: "error" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="page">
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
        <>
          <section className="card toggle-card">
            <button
              type="button"
              className={`motor-toggle ${motorOn ? "on" : "off"}`}
              onClick={toggleMotor}
              disabled={!online || busy}
              aria-pressed={motorOn}
              aria-label={motorOn ? t("motor.turnOff") : t("motor.turnOn")}
              data-testid="motor-toggle"
            >
              {motorOn ? t("motor.on") : t("motor.off")}
            </button>
            <p className="motor-state" data-testid="motor-status">
              {t("motor.status", { status: motorOn ? t("motor.on") : t("motor.off") })}
            </p>
            {!online && <p className="message info">{t("motor.offlineHint")}</p>}
            {cooldownSeconds > 0 && (
              <p className="message info" data-testid="cooldown">
                {t("motor.cooldown", { seconds: cooldownSeconds })}
              </p>
            )}
            {message && (
              <p className={`message ${message.tone}`} role={message.tone === "error" ? "alert" : "status"}>
                {message.text}
              </p>
            )}
          </section>

          <section className="card">
            <h2>{t("power.title")}</h2>
            <dl className="readings">
              <div>
                <dt>{t("power.current")}</dt>
                <dd data-testid="current">{numberFormat.format(live.powerData.current)} A</dd>
              </div>
              <div>
                <dt>{t("power.wattage")}</dt>
                <dd data-testid="wattage">{numberFormat.format(live.powerData.wattage)} W</dd>
              </div>
            </dl>
          </section>

          <section className="card">
            <h2>{t("logs.recent")}</h2>
            {live.lastLogs.length === 0 ? (
              <p className="muted">{t("logs.empty")}</p>
            ) : (
              <ul className="log-list">
                {live.lastLogs.map((log) => (
                  <li key={log.id} className={`log ${log.action}`}>
                    <span>{log.logMessage}</span>
                    <time dateTime={log.timestamp}>
                      {new Date(log.timestamp).toLocaleString(localeOf(language), {
                        timeZone: "Asia/Kolkata",
                        dateStyle: "medium",
                        timeStyle: "short",
                      })}
                    </time>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}
