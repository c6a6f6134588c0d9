// Every SMS and call this pump's alerts made, or would have made past an account's daily cap
// (`alert_deliveries` in the hub's SQLite, docs/telephony.md "Alerts by SMS and call"). What is
// per pump is decided here, in one synchronous statement each, so nothing else runs between a
// check and its write: one delivery per event, account and channel, and no second SMS or call to
// the same account about this pump and kind within ALERT_REPEAT_WINDOW_MS. The account's daily
// cap spans its pumps and is claimed in D1 (worker/db/phone-alert-counts.ts). Each change that
// the month's costs count (sent, capped, a call's duration) happens once here and says so, so
// the caller adds it to D1's month once, however often an alarm or a webhook runs it.
import {
  ALERT_REPEAT_WINDOW_MS,
  type AlertDeliveryStatus,
  type DeliveryKind,
  type PhoneAlertValues,
} from "../../common/alert-channels.ts";
import type {
  AlertDelivery,
  AlertDeliveryBook,
  AlertDeliveryClaim,
  CountedAlertChange,
  PhoneLanguage,
} from "../../common/hub-contract.ts";
import type { TelephonyProviderName } from "../../common/telephony-events.ts";

/** How long a pump keeps what its alerts did: a year of them, beside the same month a year before. */
export const HUB_ALERT_DELIVERIES_KEPT_MS = 400 * 24 * 60 * 60_000;

/** At most this many rows past their time are deleted at each claim: a claim stays small. */
const PURGED_PER_CLAIM = 20;

type Row = {
  id: number;
  event_id: string;
  user_id: number;
  kind: string;
  channel: string;
  reason: string;
  language: string;
  values: string;
  status: string;
  provider: string | null;
  provider_id: string | null;
  segments: number | null;
  duration_seconds: number | null;
  outcome: string | null;
  created_at: number;
  updated_at: number;
};

function deliveryOf(row: Row): AlertDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    userId: row.user_id,
    kind: row.kind as DeliveryKind,
    channel: row.channel as AlertDelivery["channel"],
    reason: row.reason as AlertDelivery["reason"],
    language: row.language as PhoneLanguage,
    values: JSON.parse(row.values) as PhoneAlertValues,
    status: row.status as AlertDeliveryStatus,
    provider: row.provider as TelephonyProviderName | null,
    providerId: row.provider_id,
    segments: row.segments,
    durationSeconds: row.duration_seconds,
    outcome: row.outcome,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A delivery that did not reach anyone: the next event of the kind may try again within the window. */
const NOT_REACHED = "'capped', 'refused', 'noAnswer', 'busy', 'failed', 'canceled'";

export class AlertDeliveriesTable implements AlertDeliveryBook {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /**
   * Claims one SMS or call as `sending`: null when this event already has one for this account
   * and channel (an event sent twice), or one reached them about this pump and kind within
   * ALERT_REPEAT_WINDOW_MS (a call nobody answered did not: the next event calls again).
   */
  claim(claim: AlertDeliveryClaim, now: number): { id: number } | null {
    const { eventId, userId, kind, channel, reason, language, values } = claim;
    this.#sql.exec(
      `DELETE FROM alert_deliveries WHERE id IN (
         SELECT id FROM alert_deliveries WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
      now - HUB_ALERT_DELIVERIES_KEPT_MS,
      PURGED_PER_CLAIM,
    );
    const rows = this.#sql
      .exec<{ id: number }>(
        `INSERT INTO alert_deliveries (event_id, user_id, kind, channel, reason, language, "values", status, created_at, updated_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, 'sending', ?, ?
         WHERE NOT EXISTS (
           SELECT 1 FROM alert_deliveries
           WHERE user_id = ? AND kind = ? AND channel = ? AND created_at > ? AND status NOT IN (${NOT_REACHED})
         )
         ON CONFLICT DO NOTHING
         RETURNING id`,
        eventId,
        userId,
        kind,
        channel,
        reason,
        language,
        JSON.stringify(values),
        now,
        now,
        userId,
        kind,
        channel,
        now - ALERT_REPEAT_WINDOW_MS,
      )
      .toArray();
    return rows[0] ?? null;
  }

  /** The claim was over the account's daily cap: kept as `capped`, the log of what was not sent. Once. */
  capped(id: number, now: number): CountedAlertChange | null {
    return this.#fromSending(id, "status = 'capped'", [], now);
  }

  /** The provider took the claimed SMS or call: its id and first status. Once. */
  sent(
    id: number,
    sent: { provider: TelephonyProviderName; providerId: string; status: AlertDeliveryStatus; segments: number | null },
    now: number,
  ): CountedAlertChange | null {
    return this.#fromSending(
      id,
      "status = ?, provider = ?, provider_id = ?, segments = ?",
      [sent.status, sent.provider, sent.providerId, sent.segments],
      now,
    );
  }

  /** The provider refused it, or could not be asked. */
  refused(id: number, now: number): void {
    this.#fromSending(id, "status = 'refused'", [], now);
  }

  #fromSending(id: number, set: string, values: (string | number | null)[], now: number): CountedAlertChange | null {
    const rows = this.#sql
      .exec<{ user_id: number; created_at: number }>(
        `UPDATE alert_deliveries SET ${set}, updated_at = ? WHERE id = ? AND status = 'sending' RETURNING user_id, created_at`,
        ...values,
        now,
        id,
      )
      .toArray();
    const row = rows[0];
    return row ? { userId: row.user_id, createdAt: row.created_at } : null;
  }

  find(id: number): AlertDelivery | null {
    const row = this.#sql.exec<Row>("SELECT * FROM alert_deliveries WHERE id = ?", id).toArray()[0];
    return row ? deliveryOf(row) : null;
  }

  /**
   * The delivery a provider's webhook is about: the one our reference names (`id`), if the
   * provider's id for it is the one it gave us when it took it. Null for any other.
   */
  ours(id: number, channel: "sms" | "call", provider: TelephonyProviderName, providerId: string): AlertDelivery | null {
    const delivery = this.find(id);
    if (!delivery || delivery.channel !== channel) return null;
    return delivery.provider === provider && delivery.providerId === providerId ? delivery : null;
  }

  /**
   * The provider's later word on a delivery: its status and, for a call that ended, how long it
   * lasted. The duration is kept once (the first final status that has one): what it returns
   * is the one time the month's costs count it.
   */
  status(
    id: number,
    status: AlertDeliveryStatus,
    durationSeconds: number | null,
    now: number,
  ): (CountedAlertChange & { durationSeconds: number }) | null {
    this.#sql.exec("UPDATE alert_deliveries SET status = ?, updated_at = ? WHERE id = ?", status, now, id);
    if (durationSeconds === null) return null;
    const rows = this.#sql
      .exec<{ user_id: number; created_at: number }>(
        `UPDATE alert_deliveries SET duration_seconds = ? WHERE id = ? AND duration_seconds IS NULL
         RETURNING user_id, created_at`,
        durationSeconds,
        id,
      )
      .toArray();
    const row = rows[0];
    return row ? { userId: row.user_id, createdAt: row.created_at, durationSeconds } : null;
  }

  /** What the key did on a call, once; false when an outcome was already recorded. */
  outcome(id: number, outcome: string, now: number): boolean {
    return (
      this.#sql
        .exec(
          "UPDATE alert_deliveries SET outcome = ?, updated_at = ? WHERE id = ? AND outcome IS NULL RETURNING id",
          outcome,
          now,
          id,
        )
        .toArray().length > 0
    );
  }

  /** The accounts an alert's SMS or call went to (not one over the cap, nor one the provider refused). */
  reachedBy(eventId: string): number[] {
    return this.#sql
      .exec<{ user_id: number }>(
        `SELECT DISTINCT user_id FROM alert_deliveries WHERE event_id = ? AND status NOT IN ('capped', 'refused')`,
        eventId,
      )
      .toArray()
      .map((row) => row.user_id);
  }

  /** Every delivery, oldest first (tests and the fleet's benchmark read them through the hub). */
  all(): AlertDelivery[] {
    return this.#sql.exec<Row>("SELECT * FROM alert_deliveries ORDER BY id").toArray().map(deliveryOf);
  }
}
