// Alerts by SMS and call (docs/telephony.md, "Alerts by SMS and call"; decision 026): a pump's
// alert of a phone kind (common/alert-channels.ts) goes to each of its alert recipients by the
// channel they chose for that kind (a call and an SMS at once for theft), to a verified number only, in their language, naming the
// pump. A call comes first for those who chose it; the SMS follows when nobody answers it, it
// cannot be placed, or the day's calls are used up (call-webhooks.ts sends the one after an
// unanswered call). Every SMS and call is claimed in D1 once per event, account and channel,
// within the account's daily cap, before the provider is asked (db/alert-deliveries.ts).
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
import { istMinuteOfDay } from "../../common/schedule-time.ts";
import {
  claimDelivery,
  type DeliveryClaim,
  type PhoneLanguage,
  type PhoneRecipient,
  phoneRecipientsOf,
  reachedBy,
  recordDeliverySent,
} from "../db/alert-deliveries.ts";
import { type Db, getDb } from "../db/client.ts";
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

type Sending = { db: Db; provider: TelephonyProvider; now: number };

/** Claims and sends the alert's SMS to one person; what became of it. */
export async function sendAlertSms(
  { db, provider, now }: Sending,
  claim: Omit<DeliveryClaim, "channel">,
  to: string,
): Promise<PhoneDelivery> {
  const base = { userId: claim.userId, channel: "sms" as const };
  const claimed = await claimDelivery(db, { ...claim, channel: "sms" }, now);
  if (!claimed) return { ...base, outcome: "repeat" };
  if (claimed.status === "capped") return { ...base, outcome: "capped" };
  try {
    const sent = await provider.sendSms(smsRequest(claim.kind, to, claim.language, claim.values));
    await recordDeliverySent(db, claimed.id, {
      provider: sent.provider,
      providerId: sent.messageId,
      status: sent.status,
      segments: sent.segments,
    });
    return { ...base, outcome: "sent" };
  } catch (error) {
    console.error(`Alert SMS ${claimed.id} not sent`, error);
    await recordDeliverySent(db, claimed.id, { status: "refused" });
    return { ...base, outcome: "failed" };
  }
}

/** Claims and places the alert's call to one person; the SMS instead when it cannot be placed or is over the cap. */
async function callFor(
  sending: Sending,
  claim: Omit<DeliveryClaim, "channel" | "reason" | "kind"> & { kind: PhoneAlertKind },
  to: string,
): Promise<PhoneDelivery[]> {
  const { db, provider, now } = sending;
  const base = { userId: claim.userId, channel: "call" as const };
  const claimed = await claimDelivery(db, { ...claim, channel: "call", reason: "chosen" }, now);
  if (!claimed) return [{ ...base, outcome: "repeat" }];
  const instead = () => sendAlertSms(sending, { ...claim, reason: "callFallback" }, to);
  if (claimed.status === "capped") return [{ ...base, outcome: "capped" }, await instead()];
  try {
    const placed = await provider.placeCall({
      to,
      language: claim.language,
      kind: claim.kind,
      pumpName: claim.values.pumpName,
      // What the keypress webhook brings back: which claim this call is, and when it was placed.
      reference: { code: `alert:${claimed.id}`, placedAt: now },
    });
    await recordDeliverySent(db, claimed.id, {
      provider: placed.provider,
      providerId: placed.callId,
      status: placed.status,
      segments: null,
    });
    return [{ ...base, outcome: "sent" }];
  } catch (error) {
    console.error(`Alert call ${claimed.id} not placed`, error);
    await recordDeliverySent(db, claimed.id, { status: "refused" });
    return [{ ...base, outcome: "failed" }, await instead()];
  }
}

/** One person's SMS or call, by the channel they chose for the kind (nothing for "app"). */
function toPerson(
  sending: Sending,
  recipient: PhoneRecipient,
  event: { eventId: string; deviceId: string; kind: PhoneAlertKind; minuteOfDay: number | undefined },
): Promise<PhoneDelivery[]> {
  const { minuteOfDay, ...rest } = event;
  const language = recipient.settings.language;
  const claim = {
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
    const sms = sendAlertSms(sending, { ...claim, reason: "chosen" }, recipient.mobileNo);
    return Promise.all([callFor(sending, claim, recipient.mobileNo), sms]).then(([call, one]) => [...call, one]);
  }
  if (channel === "call") return callFor(sending, claim, recipient.mobileNo);
  if (channel === "sms")
    return sendAlertSms(sending, { ...claim, reason: "chosen" }, recipient.mobileNo).then((one) => [one]);
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
  now = Date.now(),
): Promise<PhoneDelivery[]> {
  if (alert.kind === "offlineWhileOn" && alert.backOf !== undefined)
    return sendBackOnline(env, deviceId, alert.backOf, eventId, now);
  const kind = phoneAlertKindOf(alert);
  if (kind === null) return [];
  const provider = providerOf(env);
  if (!provider) return [];
  try {
    const db = getDb(env.DB);
    const sending = { db, provider, now };
    const minuteOfDay = minuteOf(alert, now);
    const recipients = await phoneRecipientsOf(db, deviceId);
    // Only a number its holder proved with a code gets SMS and calls (docs/telephony.md).
    const verified = recipients.filter((recipient) => recipient.verified);
    const deliveries = await Promise.all(
      verified.map((recipient) => toPerson(sending, recipient, { eventId, deviceId, kind, minuteOfDay })),
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
  deviceId: string,
  offlineEventId: string,
  eventId: string,
  now: number,
): Promise<PhoneDelivery[]> {
  const provider = providerOf(env);
  if (!provider) return [];
  try {
    const db = getDb(env.DB);
    const reached = new Set(await reachedBy(db, offlineEventId));
    if (reached.size === 0) return [];
    const recipients = (await phoneRecipientsOf(db, deviceId)).filter(
      (recipient) => recipient.verified && reached.has(recipient.userId),
    );
    return await Promise.all(
      recipients.map((recipient) =>
        sendAlertSms(
          { db, provider, now },
          {
            eventId,
            userId: recipient.userId,
            deviceId,
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
