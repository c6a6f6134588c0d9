// The SQL that gives an account a box, where the Worker and `npm run device` both make that
// change: provisioning a box (POST /api/admin/devices, `npm run device -- provision`) and
// linking one from stock (common/access-change-sql.ts). The Worker binds these statements and
// sends them as one D1 batch; the CLI writes the very same statements out with their values
// (scripts/lib/operator-sql.ts). An account that had no box may have settings an admin kept for
// it (`first_box_settings`): the box that becomes its first gets them, in the same batch.
import type { DeviceKind } from "./device-enums.ts";
import type { SqlStatement } from "./sql-statement.ts";

/**
 * Box `deviceId` takes the settings kept for account `ownerUserId`, if it is the account's only
 * box, with a history entry naming it; the kept row goes whenever the account has a box. Safe to
 * run before or after the box's owner changes, and twice: the first run deletes what it applied.
 */
export function keptSettingsStatements(change: { deviceId: string; ownerUserId: number; now: number }): SqlStatement[] {
  const { deviceId, ownerUserId, now } = change;
  // ?1 the box, ?2 the account: no other box of the account, so this one is (or becomes) its first.
  const onlyBox = "NOT EXISTS (SELECT 1 FROM devices other WHERE other.owner_user_id = ?2 AND other.id <> ?1)";
  return [
    {
      sql:
        "INSERT INTO motor_config_history (user_id, device_id, default_current, dry_run_threshold, over_current_threshold, " +
        "under_voltage, over_voltage, voltage_unbalance, change_note, changed_by_user_id, created_at) " +
        "SELECT kept.user_id, box.id, kept.default_current, kept.dry_run_threshold, kept.over_current_threshold, " +
        "box.under_voltage, box.over_voltage, box.voltage_unbalance, 'Kept for the first box, applied to ' || box.id, " +
        `kept.changed_by_user_id, ?3 FROM first_box_settings kept JOIN devices box ON box.id = ?1 WHERE kept.user_id = ?2 AND ${onlyBox}`,
      params: [deviceId, ownerUserId, now],
    },
    {
      sql:
        "UPDATE devices SET " +
        "default_current = (SELECT default_current FROM first_box_settings WHERE user_id = ?2), " +
        "dry_run_threshold = (SELECT dry_run_threshold FROM first_box_settings WHERE user_id = ?2), " +
        "over_current_threshold = (SELECT over_current_threshold FROM first_box_settings WHERE user_id = ?2) " +
        `WHERE id = ?1 AND EXISTS (SELECT 1 FROM first_box_settings WHERE user_id = ?2) AND ${onlyBox}`,
      params: [deviceId, ownerUserId],
    },
    {
      sql: "DELETE FROM first_box_settings WHERE user_id = ?2 AND EXISTS (SELECT 1 FROM devices WHERE id = ?1)",
      params: [deviceId, ownerUserId],
    },
  ];
}

/** A new box as provisioning writes it. */
export type ProvisionedBox = {
  deviceId: string;
  ownerUserId: number | null;
  kind: DeviceKind;
  keyHash: string;
  now: number;
  /** The region of a box waiting for its farmer (docs/decisions/035-installer-regions.md), in `regionSchema`'s form. */
  region?: string | null;
};

/**
 * Makes box `deviceId` (SPEC §3's defaults, its kind's voltage limits) for account `ownerUserId`
 * (null: in stock), which may own others; a first box takes the settings kept for the account.
 */
export function provisionStatements(box: ProvisionedBox): SqlStatement[] {
  const { deviceId, ownerUserId, kind, keyHash, now } = box;
  return [
    {
      sql: "INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at, region) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      params: [deviceId, ownerUserId, kind, keyHash, now, box.region ?? null],
    },
    ...(ownerUserId === null ? [] : keptSettingsStatements({ deviceId, ownerUserId, now })),
  ];
}
