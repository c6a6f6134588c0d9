// Verified provider webhooks in D1 (`telephony_events`), each event once: the unique replay key
// makes a second delivery (a provider's retry, or an attacker's replay of a captured request) a
// no-op in the same statement that records the first, so two deliveries at once record one.
import { lte } from "drizzle-orm";
import type { TelephonyEvent } from "../../common/telephony-events.ts";
import type { Db } from "./client.ts";
import { telephonyEvents } from "./schema.ts";

/** How long an event's replay key is kept (worker/scheduled.ts deletes older rows). */
export const TELEPHONY_EVENT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Records `event` under `replayKey`; false when that key was recorded before (nothing is written). */
export async function recordTelephonyEvent(
  db: Db,
  event: TelephonyEvent,
  replayKey: string,
  now = Date.now(),
): Promise<boolean> {
  const rows = await db
    .insert(telephonyEvents)
    .values({ provider: event.provider, replayKey, type: event.type, event: JSON.stringify(event), receivedAt: now })
    .onConflictDoNothing()
    .returning({ id: telephonyEvents.id });
  return rows.length === 1;
}

/** Deletes events (and so their replay keys) older than the TTL. */
export async function purgeOldTelephonyEvents(db: Db, now = Date.now()): Promise<number> {
  const rows = await db
    .delete(telephonyEvents)
    .where(lte(telephonyEvents.receivedAt, now - TELEPHONY_EVENT_TTL_MS))
    .returning({ id: telephonyEvents.id });
  return rows.length;
}
