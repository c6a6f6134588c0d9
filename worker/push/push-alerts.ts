// Web Push for alerts: the DeviceHub (and the alerts API's test button) hand over an alert as a
// code; this reads the browsers that get it from D1 (the pump's owner's and operators', of live
// sessions only), words it in each one's language from the app's dictionaries with the pump's
// name, encrypts it for that browser (RFC 8291, aes128gcm) and signs the request with our VAPID
// key (RFC 8292) through @block65/webcrypto-web-push (Web Crypto, no Node APIs;
// docs/decisions/015-web-push-library.md), sends it to the browser's push service and forgets
// the subscriptions the push service gave up. In a folder of its own because both the Worker
// and the DeviceHub send alerts: with the D1 layer (worker/db/) it is the only part of the
// Worker a Durable Object may import.
//
// Never in the way of the pump: callers do not await it (ctx.waitUntil), each request gives up
// after PUSH_TIMEOUT_MS, and every failure is logged and swallowed. Never a way into anything
// else: only the push services' own hosts are asked (push-endpoint.ts), and a redirect is a
// failure, never followed.
import { buildPushPayload } from "@block65/webcrypto-web-push";
import { type Alert, alertTag, type PumpAlert, type PushPayload } from "../../common/alerts.ts";
import type { MessageKey } from "../../common/i18n/catalogue.ts";
import { translate } from "../../common/i18n/dictionaries.ts";
import { formatNumber, formatSince, formatVoltages } from "../../common/i18n/format.ts";
import type { Language } from "../../common/i18n/language.ts";
import { getDb } from "../db/client.ts";
import {
  deleteSubscriptionByEndpoint,
  findLiveSubscription,
  markSubscriptionSent,
  subscriptionsForPump,
} from "../db/push-subscriptions.ts";
import type { PushSubscriptionRow } from "../db/schema.ts";
import { messageTime } from "../services/message-time.ts";
import { isAllowedPushEndpoint } from "./push-endpoint.ts";

/** A push service answers in well under a second; this bounds what a dead one costs a request. */
export const PUSH_TIMEOUT_MS = 5_000;

export type PushEnv = Pick<Env, "DB" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT"> & {
  /** The tests' own push services (push-endpoint.ts); set by the test harness only. */
  PUSH_TEST_HOSTS?: string;
};

/** The pump an alert is about, as its title names it. */
export type AlertPump = { deviceId: string; name: string | null };

/** What became of one message: the push service's status (0: no answer), and whether the row went. */
export type PushDelivery = { endpoint: string; status: number; removed: boolean };

type Send = (url: string, init: RequestInit) => Promise<Response>;

/** How long a push service should keep an alert for a phone that is off, and how urgent it is. */
const DELIVERY: Record<Alert["kind"], { ttlSeconds: number; urgency: "high" | "normal" }> = {
  dryRun: { ttlSeconds: 12 * 3600, urgency: "high" },
  overCurrent: { ttlSeconds: 12 * 3600, urgency: "high" },
  voltage: { ttlSeconds: 12 * 3600, urgency: "high" },
  phase: { ttlSeconds: 12 * 3600, urgency: "high" },
  power: { ttlSeconds: 12 * 3600, urgency: "high" },
  offlineWhileOn: { ttlSeconds: 12 * 3600, urgency: "high" },
  runningWithoutCommand: { ttlSeconds: 12 * 3600, urgency: "high" },
  schedule: { ttlSeconds: 6 * 3600, urgency: "normal" },
  theft: { ttlSeconds: 12 * 3600, urgency: "high" },
  test: { ttlSeconds: 300, urgency: "normal" },
};

/** The notification's title and text for `alert` in `language`, naming `pump`: codes in, sentences out. */
function alertText(alert: Alert, language: Language, now: number, pump: AlertPump | null) {
  const words = kindText(alert, language, now);
  if (!pump) return words;
  const name = pump.name ?? translate(language, "pumps.unnamed", { id: pump.deviceId });
  return { ...words, title: translate(language, "push.pumpTitle", { pump: name, title: words.title }) };
}

function kindText(alert: Alert, language: Language, now: number): { title: string; body: string } {
  const t = (key: MessageKey, values?: Record<string, string | number>) => translate(language, key, values);
  const amps = (current: number | null) => (current === null ? "" : ` (${formatNumber(current, language)} A)`);
  switch (alert.kind) {
    case "dryRun":
      return { title: t("push.dryRun.title"), body: t("push.dryRun.body", { current: amps(alert.current) }) };
    case "overCurrent":
      return { title: t("push.overCurrent.title"), body: t("push.overCurrent.body", { current: amps(alert.current) }) };
    case "voltage":
      return {
        title: t(`push.${alert.breach}.title`),
        body: t("push.voltage.body", {
          voltages: alert.voltages?.length ? ` (${formatVoltages(alert.voltages, language)})` : "",
        }),
      };
    case "phase":
      return alert.state === "fault"
        ? {
            title: t("push.phaseFault.title"),
            body: t("push.phaseFault.body", { detail: alert.detail ? ` (${alert.detail})` : "" }),
          }
        : { title: t("push.phaseOk.title"), body: t("push.phaseOk.body") };
    case "power":
      return alert.state === "lost"
        ? { title: t("push.powerLost.title"), body: t("push.powerLost.body") }
        : { title: t("push.powerBack.title"), body: t("push.powerBack.body") };
    case "theft":
      return { title: t(`push.${alert.cause}.title`), body: t(`push.${alert.cause}.body`) };
    case "offlineWhileOn":
      if (alert.backOf !== undefined) return { title: t("push.backOnline.title"), body: t("push.backOnline.body") };
      return {
        title: t("push.offlineWhileOn.title"),
        body: t("push.offlineWhileOn.body", { time: formatSince(alert.lastSeenAt ?? now, language, now) }),
      };
    case "runningWithoutCommand":
      return {
        title: t("push.runningWithoutCommand.title"),
        body: t("push.runningWithoutCommand.body", { current: formatNumber(alert.current, language) }),
      };
    case "schedule": {
      const values = {
        action: alert.action === "on" ? t("motor.on") : t("motor.off"),
        time: messageTime(alert.minuteOfDay, language),
      };
      if (alert.outcome === "done")
        return { title: t("push.scheduleDone.title"), body: t("push.scheduleDone.body", values) };
      if (alert.outcome === "missed") {
        const reason =
          alert.reason === "offline"
            ? t("push.reason.offline")
            : alert.reason === "noSupply"
              ? t("push.reason.noSupply")
              : t("push.reason.late");
        return { title: t("push.scheduleMissed.title"), body: t("push.scheduleMissed.body", { ...values, reason }) };
      }
      return { title: t("push.scheduleFailed.title"), body: t("push.scheduleFailed.body", values) };
    }
    case "test":
      return { title: t("push.test.title"), body: t("push.test.body") };
    default: {
      const unreachable: never = alert;
      return unreachable;
    }
  }
}

/** What the browser gets: the code, its words, the pump's tag and the page of that pump a tap opens. */
export function pushPayload(alert: Alert, language: Language, now: number, pump: AlertPump | null): PushPayload {
  const page = alert.kind === "schedule" ? "/motor-schedule" : alert.kind === "test" ? "/alerts" : "/motor-control";
  return {
    kind: alert.kind,
    alert,
    deviceId: pump?.deviceId ?? null,
    tag: alertTag(alert.kind, pump?.deviceId ?? null),
    lang: language,
    ...alertText(alert, language, now, pump),
    url: pump ? `${page}?pump=${encodeURIComponent(pump.deviceId)}` : page,
    at: now,
  };
}

/**
 * The RFC 8030 Topic (at most 32 URL-safe characters): a push service holding an undelivered
 * message of the same pump and kind replaces it. A digest of the tag, so the push service, which
 * sees this header in the clear, learns no box id.
 */
async function topicOf(tag: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(tag)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .slice(0, 32);
}

let warnedAboutKeys = false;

function vapidOf(env: PushEnv) {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) {
    if (!warnedAboutKeys)
      console.warn("Web Push is off: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set (README, Secrets).");
    warnedAboutKeys = true;
    return null;
  }
  return {
    subject: env.VAPID_SUBJECT || "mailto:support@sinchai.invalid",
    publicKey: env.VAPID_PUBLIC_KEY,
    privateKey: env.VAPID_PRIVATE_KEY,
  };
}

async function deliver(
  env: PushEnv,
  row: PushSubscriptionRow,
  alert: Alert,
  pump: AlertPump | null,
  now: number,
  send: Send,
): Promise<PushDelivery> {
  const db = getDb(env.DB);
  if (!isAllowedPushEndpoint(row.endpoint, env.PUSH_TEST_HOSTS)) {
    // Saved before addresses were checked: it can never be sent to, so it goes.
    console.warn(`Push subscription ${row.id} is not a push service's address: deleted unsent`);
    await deleteSubscriptionByEndpoint(db, row.endpoint);
    return { endpoint: row.endpoint, status: 0, removed: true };
  }
  const vapid = vapidOf(env);
  if (!vapid) return { endpoint: row.endpoint, status: 0, removed: false };
  const { ttlSeconds, urgency } = DELIVERY[alert.kind];
  try {
    const data = pushPayload(alert, row.language, now, pump);
    const request = await buildPushPayload(
      { data, options: { ttl: ttlSeconds, urgency, topic: await topicOf(data.tag) } },
      { endpoint: row.endpoint, expirationTime: null, keys: { p256dh: row.p256dh, auth: row.auth } },
      vapid,
    );
    // A push service answers itself: a redirect elsewhere is a failure, never followed.
    const response = await send(row.endpoint, {
      ...request,
      redirect: "manual",
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) {
      // The browser gave this address up: it will never deliver again.
      await deleteSubscriptionByEndpoint(db, row.endpoint);
      return { endpoint: row.endpoint, status: response.status, removed: true };
    }
    if (response.ok) await markSubscriptionSent(db, row.id, now);
    else console.warn(`Push to ${new URL(row.endpoint).host} refused: ${response.status}`);
    return { endpoint: row.endpoint, status: response.status, removed: false };
  } catch (error) {
    console.warn(`Push to ${new URL(row.endpoint).host} failed`, error);
    return { endpoint: row.endpoint, status: 0, removed: false };
  }
}

type SendOptions = { now?: number; send?: Send };

const fetchSend: Send = (url, init) => fetch(url, init);

/**
 * Sends box `deviceId`'s `alert` to every browser that wants its kind: its owner's and its
 * operators' (common/pump-roles.ts, "alerts"), of live sessions. Resolves when every push
 * service answered or timed out.
 */
export async function sendPumpAlert(
  env: PushEnv,
  deviceId: string,
  alert: PumpAlert,
  options: SendOptions = {},
): Promise<PushDelivery[]> {
  const now = options.now ?? Date.now();
  try {
    const rows = await subscriptionsForPump(getDb(env.DB), deviceId, alert.kind, now);
    return await Promise.all(
      rows.map(({ name, subscription }) =>
        deliver(env, subscription, alert, { deviceId, name }, now, options.send ?? fetchSend),
      ),
    );
  } catch (error) {
    console.error(`Alert ${alert.kind} of ${deviceId} not sent`, error);
    return [];
  }
}

/** The settings screen's test alert, to the one browser of `userId` that asked (a live session's). */
export async function sendTestAlert(
  env: PushEnv,
  userId: number,
  endpoint: string,
  options: SendOptions = {},
): Promise<PushDelivery[]> {
  const now = options.now ?? Date.now();
  try {
    const row = await findLiveSubscription(getDb(env.DB), userId, endpoint, now);
    return row ? [await deliver(env, row, { kind: "test" }, null, now, options.send ?? fetchSend)] : [];
  } catch (error) {
    console.error(`Test alert for user ${userId} not sent`, error);
    return [];
  }
}
