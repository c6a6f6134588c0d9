// The SQL of a change of who may use a box that operators also make straight against D1: the
// Worker binds these statements and sends them as one D1 batch (worker/services/pump-relink.ts);
// `npm run device -- assign` writes the very same statements out with their values
// (scripts/lib/operator-sql.ts). One list, so relinking a box is one change whoever makes it.
// Every such change leaves its box's hub a notice in the same batch (worker/services/hub-notices.ts).

import { keptSettingsStatements } from "./first-box-sql.ts";
import type { SqlStatement } from "./sql-statement.ts";

/** What a notice statement answers, one row per box: the version of its notice now pending. */
export type HubNoticeRow = { deviceId: string; version: number };

/**
 * The tail of every statement that leaves notices: a box that already has one pending gets a
 * newer version, so a delivery under way deletes only the notice it delivered.
 */
export const HUB_NOTICE_UPSERT =
  "ON CONFLICT (device_id) DO UPDATE SET asked_at = excluded.asked_at, version = hub_notices.version + 1 " +
  "RETURNING device_id AS deviceId, version";

/**
 * Who a box is linked to: an account's id, nobody (null), or the account that has number
 * `accountOf` when the batch runs, for an account made earlier in the same batch (an installer's
 * claim for a farmer without one, worker/installers/claims.ts).
 */
export type RelinkOwner = number | null | { accountOf: string };

/**
 * Links box `deviceId` to `owner`. The people the previous owner let use it, and those they
 * invited, go with the change: they were that owner's people; so do starting by missed call and
 * the SMS PIN, that owner's choices, and the installation of an installer who has not handed it over: they
 * installed it for that owner (a claim writes its own installation, for the new owner, first).
 * The same owner again changes nothing (and keeps `linked_at`, which decides the account's first
 * box). The last statement answers the box's id, or nothing when there is no such box.
 *
 * A box that becomes the account's first takes the settings an admin kept for the account
 * (common/first-box-sql.ts); the hub's notice has it send them to the box. An account made in
 * the same batch has none kept.
 *
 * Ordered so that any first part alone is safe, should the statements ever run one by one: the
 * notice, then the members go, then the installation ends, then the kept settings, then the
 * owner changes.
 */
export function relinkStatements(change: { deviceId: string; owner: RelinkOwner; now: number }): SqlStatement[] {
  const { deviceId, owner, now } = change;
  const byNumber = owner !== null && typeof owner === "object";
  // ?2 is the owner's id, or the number whose account is the owner.
  const OWNER = byNumber ? "(SELECT id FROM users WHERE mobile_no = ?2)" : "?2";
  const ownerParam = byNumber ? owner.accountOf : owner;
  return [
    {
      sql: `INSERT INTO hub_notices (device_id, asked_at) SELECT id, ?2 FROM devices WHERE id = ?1 ${HUB_NOTICE_UPSERT}`,
      params: [deviceId, now],
    },
    {
      sql: `DELETE FROM device_members WHERE device_id = ?1 AND (SELECT owner_user_id FROM devices WHERE id = ?1) IS NOT ${OWNER}`,
      params: [deviceId, ownerParam],
    },
    {
      sql:
        "UPDATE installations SET handed_over_at = ?3 " +
        `WHERE device_id = ?1 AND handed_over_at IS NULL AND farmer_user_id IS NOT ${OWNER}`,
      params: [deviceId, ownerParam, now],
    },
    ...(owner === null || byNumber ? [] : keptSettingsStatements({ deviceId, ownerUserId: owner, now })),
    {
      sql:
        `UPDATE devices SET linked_at = CASE WHEN owner_user_id IS ${OWNER} THEN linked_at WHEN ${OWNER} IS NULL THEN NULL ELSE ?3 END, ` +
        // Starting by missed call and the SMS PIN were the old owner's: a new owner sets their own.
        `start_by_missed_call = CASE WHEN owner_user_id IS ${OWNER} THEN start_by_missed_call ELSE 0 END, ` +
        `sms_pin = CASE WHEN owner_user_id IS ${OWNER} THEN sms_pin ELSE NULL END, ` +
        `owner_user_id = ${OWNER} WHERE id = ?1 RETURNING id`,
      params: [deviceId, ownerParam, now],
    },
  ];
}
