// Alerts by SMS and call (docs/telephony.md, "Alerts by SMS and call"; decision 026): a pump's
// alert of a phone kind (common/alert-channels.ts) goes to each of its alert recipients by the
// channel they chose for that kind (a call and an SMS at once for theft), to a verified number only, in their language, naming the
// pump. A call comes first for those who chose it; the SMS follows when nobody answers it, it
// cannot be placed, or the day's calls are used up (call-webhooks.ts sends the one after an
// unanswered call). Every SMS and call is claimed in the pump's hub once per event, account and
// channel (durable-objects/device-hub/alert-deliveries-table.ts), then against the account's
// daily cap across its pumps in D1 (db/phone-alert-counts.ts), before the provider is asked;
// what it costs is added to the account's month in D1 as it happens.
//
// Never in the way of the pump: the hub does not await it (ctx.waitUntil), and every failure
// is logged and swallowed, as Web Push's are.
import {
  CALL_AND_SMS_KINDS,
  type DeliveryKind,
  type PhoneAlertKind,
  type PhoneAlertValues,
  phoneAlertKindOf,
} from "../../common/alert-channels.ts";
import type { PumpAlert } from "../../common/alerts.ts";
import type {
  AlertDeliveryBook,
  CountedAlertChange,
  AlertDeliveryClaim as DeliveryClaim,
} from "../../common/hub-contract.ts";
import { istMinuteOfDay } from "../../common/schedule-time.ts";
import { type PhoneLanguage, type PhoneRecipient, phoneRecipientsOf } from "../db/alert-settings.ts";
import { type Db, getDb } from "../db/client.ts";
import { claimDailyAlert, countMonth, type MonthCounts } from "../db/phone-alert-counts.ts";
import { messageTime } from "../services/message-time.ts";
import { type TelephonyEnv, telephonyProvider } from "../telephony/config.ts";
import type { SmsRequest, TelephonyProvider } from "../telephony/provider.ts";
import { SMS_TEMPLATES, type SmsTemplateCode } from "../telephony/sms-templates.ts";

export type PhoneAlertEnv = TelephonyEnv & Pick<Env, "DB">;

/** Each delivery kind's SMS (worker/telephony/sms-templates.ts). */
const SMS_OF: Record<DeliveryKind, SmsTemplateCode> = {
  dryRun: "alertDryRun",
  phaseFault: "alertPhaseFault",
  voltageTrip: "alertVoltageTrip",
  offlineWhileOn: "alertOfflineWhileOn",
  powerBack: "alertPowerBack",
  scheduleMissed: "alertScheduleMissed",
  tamper: "alertTamper",
  cableCut: "alertCableCut",
  backOnline: "alertBackOnline",
};

/** The SMS of a phone kind, filled: the pump's name, and the time for the kinds whose text has one. */
function smsRequest(kind: DeliveryKind, to: string, language: PhoneLanguage, values: PhoneAlertValues): SmsRequest {
  const template = SMS_OF[kind];
  const needsTime = (SMS_TEMPLATES[template].variables as readonly string[]).includes("time");
  const filled = needsTime ? { pumpName: values.pumpName, time: values.time ?? "" } : { pumpName: values.pumpName };
  return { to, template, language, values: filled } as SmsRequest;
}

/** What became of an alert for one person, for logs and tests. */
export type PhoneDelivery = {
  userId: number;
  channel: "sms" | "call";
  outcome: "sent" | "capped" | "repeat" | "failed";
};

/** The minute of the day (IST) an alert is about, for the kinds whose text gives a time, or none. */
function minuteOf(alert: PumpAlert, now: number): number | undefined {
  if (alert.kind === "offlineWhileOn") return istMinuteOfDay(alert.lastSeenAt ?? now);
  if (alert.kind === "schedule") return alert.minuteOfDay;
  return undefined;
}

let warned = false;

/** The environment's provider, or null (said once in the log) when it is not configured. */
export function providerOf(env: TelephonyEnv): TelephonyProvider | null {
  const configured = telephonyProvider(env);
  if (configured.ok) return configured.provider;
  if (!warned) console.warn(`Alerts by SMS and call are off: ${configured.problem}`);
  warned = true;
  return null;
}

/**
 * What sending needs: D1 (recipients, the daily caps, the month's counts), the provider, the
 * pump's hub's deliveries (`book`: the code runs in the hub) and its box's id.
 */
export type Sending = {
  db: Db;
  provider: TelephonyProvider;
  now: number;
  deviceId: string;
  book: AlertDeliveryBook;
};

/** What a provider brings back with every webhook about one of our deliveries: its hub (the box's id) and its id there. */
export function deliveryReference(deviceId: string, id: number): string {
  return `alert:${deviceId}:${id}`;
}

/** The hub and delivery a reference names, or null for one that is not of that shape. */
export function deliveryOfReference(code: string | undefined): { deviceId: string; id: number } | null {
  const match = /^alert:(SNC-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}):([0-9]{1,15})$/.exec(code ?? "");
  return match ? { deviceId: match[1]!, id: Number(match[2]) } : null;
}

/** Adds a change the hub recorded once to the account's month; a failure loses that count only, logged. */
export async function countOnce(db: Db, change: CountedAlertChange | null, counts: MonthCounts): Promise<void> {
  if (!change) return;
  try {
    await countMonth(db, change.userId, change.createdAt, counts);
  } catch (error) {
    console.error(`The month's phone alert counts of account ${change.userId} not updated`, error);
  }
}

/**
 * Claims one SMS or call in the hub, then one of the account's day's SMS or calls in D1: the
 * delivery's id and whether it may go (false: over the cap, kept as `capped`); null for a repeat.
 */
async function claim(sending: Sending, claimed: DeliveryClaim): Promise<{ id: number; underCap: boolean } | null> {
  const { db, book, now } = sending;
  const row = book.claim(claimed, now);
  if (!row) return null;
  let underCap: boolean;
  try {
    underCap = await claimDailyAlert(db, claimed.userId, claimed.channel, now);
  } catch (error) {
    book.refused(row.id, now);
    throw error;
  }
  if (!underCap) await countOnce(db, book.capped(row.id, now), { capped: 1 });
  return { id: row.id, underCap };
}

/** Claims and sends the alert's SMS to one person; what became of it. */
export async function sendAlertSms(
  sending: Sending,
  request: Omit<DeliveryClaim, "channel">,
  to: string,
): Promise<PhoneDelivery> {
  const { db, provider, now, book, deviceId } = sending;
  const base = { userId: request.userId, channel: "sms" as const };
  const claimed = await claim(sending, { ...request, channel: "sms" });
  if (!claimed) return { ...base, outcome: "repeat" };
  if (!claimed.underCap) return { ...base, outcome: "capped" };
  try {
    const sent = await provider.sendSms({
      ...smsRequest(request.kind, to, request.language, request.values),
      // Its status callbacks find this hub and this delivery by it.
      reference: { code: deliveryReference(deviceId, claimed.id), placedAt: now },
    });
    const change = book.sent(
      claimed.id,
      { provider: sent.provider, providerId: sent.messageId, status: sent.status, segments: sent.segments },
      Date.now(),
    );
    await countOnce(db, change, { sms: 1, smsParts: sent.segments });
    return { ...base, outcome: "sent" };
  } catch (error) {
    console.error(`Alert SMS ${claimed.id} of ${deviceId} not sent`, error);
    book.refused(claimed.id, Date.now());
    return { ...base, outcome: "failed" };
  }
}

/** Claims and places the alert's call to one person; the SMS instead when it cannot be placed or is over the cap. */
async function callFor(
  sending: Sending,
  request: Omit<DeliveryClaim, "channel" | "reason" | "kind"> & { kind: PhoneAlertKind },
  to: string,
): Promise<PhoneDelivery[]> {
  const { db, provider, now, book, deviceId } = sending;
  const base = { userId: request.userId, channel: "call" as const };
  const claimed = await claim(sending, { ...request, channel: "call", reason: "chosen" });
  if (!claimed) return [{ ...base, outcome: "repeat" }];
  const instead = () => sendAlertSms(sending, { ...request, reason: "callFallback" }, to);
  if (!claimed.underCap) return [{ ...base, outcome: "capped" }, await instead()];
  try {
    const placed = await provider.placeCall({
      to,
      language: request.language,
      kind: request.kind,
      pumpName: request.values.pumpName,
      // What every webhook of the call brings back: which hub and delivery it is, and when it was placed.
      reference: { code: deliveryReference(deviceId, claimed.id), placedAt: now },
    });
    const change = book.sent(
      claimed.id,
      { provider: placed.provider, providerId: placed.callId, status: placed.status, segments: null },
      Date.now(),
    );
    await countOnce(db, change, { calls: 1 });
    return [{ ...base, outcome: "sent" }];
  } catch (error) {
    console.error(`Alert call ${claimed.id} of ${deviceId} not placed`, error);
    book.refused(claimed.id, Date.now());
    return [{ ...base, outcome: "failed" }, await instead()];
  }
}

/** One person's SMS or call, by the channel they chose for the kind (nothing for "app"). */
function toPerson(
  sending: Sending,
  recipient: PhoneRecipient,
  event: { eventId: string; kind: PhoneAlertKind; minuteOfDay: number | undefined },
): Promise<PhoneDelivery[]> {
  const { minuteOfDay, ...rest } = event;
  const language = recipient.settings.language;
  const request = {
    ...rest,
    userId: recipient.userId,
    language,
    values: {
      pumpName: recipient.pumpName,
      ...(minuteOfDay === undefined ? {} : { time: messageTime(minuteOfDay, language) }),
    },
  };
  const channel = recipient.settings.channels[event.kind];
  if (channel === "call" && CALL_AND_SMS_KINDS.includes(event.kind)) {
    // The SMS at once beside the call; the one an unanswered call would send is then a repeat.
    const sms = sendAlertSms(sending, { ...request, reason: "chosen" }, recipient.mobileNo);
    return Promise.all([callFor(sending, request, recipient.mobileNo), sms]).then(([call, one]) => [...call, one]);
  }
  if (channel === "call") return callFor(sending, request, recipient.mobileNo);
  if (channel === "sms")
    return sendAlertSms(sending, { ...request, reason: "chosen" }, recipient.mobileNo).then((one) => [one]);
  return Promise.resolve([]);
}

/**
 * Sends box `deviceId`'s `alert` (raised once as `eventId`) by SMS and call to every recipient
 * who chose a phone channel for its kind and whose number is verified. Resolves when every
 * provider answered.
 */
export async function sendPhoneAlert(
  env: PhoneAlertEnv,
  deviceId: string,
  alert: PumpAlert,
  eventId: string,
  book: AlertDeliveryBook,
  now = Date.now(),
): Promise<PhoneDelivery[]> {
  if (alert.kind === "offlineWhileOn" && alert.backOf !== undefined)
    return sendBackOnline(env, { deviceId, book }, alert.backOf, eventId, now);
  const kind = phoneAlertKindOf(alert);
  if (kind === null) return [];
  const provider = providerOf(env);
  if (!provider) return [];
  try {
    const db = getDb(env.DB);
    const sending = { db, provider, now, deviceId, book };
    const minuteOfDay = minuteOf(alert, now);
    const recipients = await phoneRecipientsOf(db, deviceId);
    // Only a number its holder proved with a code gets SMS and calls (docs/telephony.md).
    const verified = recipients.filter((recipient) => recipient.verified);
    const deliveries = await Promise.all(
      verified.map((recipient) => toPerson(sending, recipient, { eventId, kind, minuteOfDay })),
    );
    return deliveries.flat();
  } catch (error) {
    console.error(`Phone alert ${kind} of ${deviceId} not sent`, error);
    return [];
  }
}

/**
 * The box of an "offline while ON" alert (`offlineEventId`) is back: "back online" by SMS to each
 * account that alert's SMS or call reached, whichever channel it was, if it still gets the pump's
 * alerts at a verified number. An SMS, never a call: nothing needs doing.
 */
async function sendBackOnline(
  env: PhoneAlertEnv,
  { deviceId, book }: Pick<Sending, "deviceId" | "book">,
  offlineEventId: string,
  eventId: string,
  now: number,
): Promise<PhoneDelivery[]> {
  const provider = providerOf(env);
  if (!provider) return [];
  try {
    const db = getDb(env.DB);
    const reached = new Set(book.reachedBy(offlineEventId));
    if (reached.size === 0) return [];
    const recipients = (await phoneRecipientsOf(db, deviceId)).filter(
      (recipient) => recipient.verified && reached.has(recipient.userId),
    );
    return await Promise.all(
      recipients.map((recipient) =>
        sendAlertSms(
          { db, provider, now, deviceId, book },
          {
            eventId,
            userId: recipient.userId,
            kind: "backOnline",
            reason: "chosen",
            language: recipient.settings.language,
            values: { pumpName: recipient.pumpName },
          },
          recipient.mobileNo,
        ),
      ),
    );
  } catch (error) {
    console.error(`Back-online SMS of ${deviceId} not sent`, error);
    return [];
  }
}
