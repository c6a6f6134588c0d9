// Web Push for a farmer's alerts: the DeviceHub (and the alerts API's test button) hand over an
// alert as a code; this reads the browsers subscribed to it in D1, words it in each one's
// language from the app's dictionaries, encrypts it for that browser (RFC 8291, aes128gcm) and
// signs the request with our VAPID key (RFC 8292) through @block65/webcrypto-web-push (Web
// Crypto, no Node APIs; docs/decisions/015-web-push-library.md), sends it to the browser's push
// service and forgets the subscriptions the push service gave up. In a folder of its own because
// both the Worker and the DeviceHub send alerts: with the D1 layer (worker/db/) it is the only
// part of the Worker a Durable Object may import.
//
// Never in the way of the pump: callers do not await it (ctx.waitUntil), each request gives up
// after PUSH_TIMEOUT_MS, and every failure is logged and swallowed.
import { buildPushPayload } from "@block65/webcrypto-web-push";
import { formatNumber, formatSince } from "../../app/format.ts";
import type { MessageKey } from "../../app/i18n/catalogue.ts";
import { translate } from "../../app/i18n/dictionaries.ts";
import type { Language } from "../../app/i18n/language.ts";
import { type Alert, alertTag, type PushPayload } from "../../common/alerts.ts";
import { formatClock } from "../../common/schedule-time.ts";
import { getDb } from "../db/client.ts";
import {
  deleteSubscriptionByEndpoint,
  findSubscription,
  markSubscriptionSent,
  subscriptionsFor,
} from "../db/push-subscriptions.ts";
import type { PushSubscriptionRow } from "../db/schema.ts";

export const PUSH_TIMEOUT_MS = 10_000;

export type PushEnv = Pick<Env, "DB" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT">;

/** What became of one message: the push service's status (0: no answer), and whether the row went. */
export type PushDelivery = { endpoint: string; status: number; removed: boolean };

type Send = (url: string, init: RequestInit) => Promise<Response>;

/** How long a push service should keep an alert for a phone that is off, and how urgent it is. */
const DELIVERY: Record<Alert["kind"], { ttlSeconds: number; urgency: "high" | "normal" }> = {
  dryRun: { ttlSeconds: 12 * 3600, urgency: "high" },
  overCurrent: { ttlSeconds: 12 * 3600, urgency: "high" },
  phase: { ttlSeconds: 12 * 3600, urgency: "high" },
  power: { ttlSeconds: 12 * 3600, urgency: "high" },
  offlineWhileOn: { ttlSeconds: 12 * 3600, urgency: "high" },
  runningWithoutCommand: { ttlSeconds: 12 * 3600, urgency: "high" },
  schedule: { ttlSeconds: 6 * 3600, urgency: "normal" },
  test: { ttlSeconds: 300, urgency: "normal" },
};

/** The notification's title and text for `alert` in `language`: codes in, sentences out. */
export function alertText(alert: Alert, language: Language, now: number): { title: string; body: string } {
  const t = (key: MessageKey, values?: Record<string, string | number>) => translate(language, key, values);
  const amps = (current: number | null) => (current === null ? "" : ` (${formatNumber(current, language)} A)`);
  switch (alert.kind) {
    case "dryRun":
      return { title: t("push.dryRun.title"), body: t("push.dryRun.body", { current: amps(alert.current) }) };
    case "overCurrent":
      return { title: t("push.overCurrent.title"), body: t("push.overCurrent.body", { current: amps(alert.current) }) };
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
    case "offlineWhileOn":
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
        time: formatClock(alert.minuteOfDay),
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

export function pushPayload(alert: Alert, language: Language, now: number): PushPayload {
  return {
    kind: alert.kind,
    alert,
    tag: alertTag(alert.kind),
    lang: language,
    ...alertText(alert, language, now),
    url: alert.kind === "schedule" ? "/motor-schedule" : alert.kind === "test" ? "/alerts" : "/motor-control",
    at: now,
  };
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
  now: number,
  send: Send,
): Promise<PushDelivery> {
  const vapid = vapidOf(env);
  if (!vapid) return { endpoint: row.endpoint, status: 0, removed: false };
  const db = getDb(env.DB);
  const { ttlSeconds, urgency } = DELIVERY[alert.kind];
  try {
    const request = await buildPushPayload(
      // Topic: a push service holding an undelivered alert of this kind replaces it (RFC 8030 §5.4).
      {
        data: pushPayload(alert, row.language, now),
        options: { ttl: ttlSeconds, urgency, topic: alertTag(alert.kind) },
      },
      { endpoint: row.endpoint, expirationTime: null, keys: { p256dh: row.p256dh, auth: row.auth } },
      vapid,
    );
    const response = await send(row.endpoint, { ...request, signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) });
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

/**
 * Sends `alert` to every browser of `userId` that wants its kind (a test alert: only to
 * `endpoint`, the browser that asked). Resolves when every push service answered or timed out.
 */
export async function sendAlert(
  env: PushEnv,
  userId: number,
  alert: Alert,
  options: { endpoint?: string; now?: number; send?: Send } = {},
): Promise<PushDelivery[]> {
  const now = options.now ?? Date.now();
  const send = options.send ?? ((url, init) => fetch(url, init));
  try {
    const db = getDb(env.DB);
    let rows: PushSubscriptionRow[];
    if (alert.kind === "test") {
      const row = options.endpoint ? await findSubscription(db, userId, options.endpoint) : undefined;
      rows = row ? [row] : [];
    } else {
      rows = await subscriptionsFor(db, userId, alert.kind);
    }
    return await Promise.all(rows.map((row) => deliver(env, row, alert, now, send)));
  } catch (error) {
    console.error(`Alert ${alert.kind} for user ${userId} not sent`, error);
    return [];
  }
}
