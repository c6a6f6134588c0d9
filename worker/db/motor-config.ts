import { desc, eq } from "drizzle-orm";
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { Db } from "./client.ts";
import { devices, firstBoxSettings, motorConfigHistory } from "./schema.ts";

/** SPEC §3's three numbers, the settings an account without a box can have. */
export type KeptSettings = Pick<MotorConfig, "defaultCurrent" | "dryRunThreshold" | "overCurrentThreshold">;

/** Saves a box's motor config and its history entry (on its owner's account) together: both or neither. */
export async function saveMotorConfigRows(
  db: Db,
  values: {
    deviceId: string;
    ownerUserId: number;
    config: MotorConfig;
    changedByUserId: number;
    changeNote: string;
    now: number;
  },
): Promise<void> {
  await db.batch([
    db.update(devices).set(values.config).where(eq(devices.id, values.deviceId)),
    db.insert(motorConfigHistory).values({
      userId: values.ownerUserId,
      deviceId: values.deviceId,
      ...values.config,
      changeNote: values.changeNote,
      changedByUserId: values.changedByUserId,
      createdAt: values.now,
    }),
  ]);
}

export function listMotorConfigHistory(db: Db, userId: number, limit = 50) {
  return db
    .select()
    .from(motorConfigHistory)
    .where(eq(motorConfigHistory.userId, userId))
    .orderBy(desc(motorConfigHistory.createdAt), desc(motorConfigHistory.id))
    .limit(limit);
}

/** The settings kept for the first box of account `userId` (it has none yet), if an admin set any. */
export async function findKeptSettings(db: Db, userId: number): Promise<KeptSettings | undefined> {
  const [row] = await db
    .select({
      defaultCurrent: firstBoxSettings.defaultCurrent,
      dryRunThreshold: firstBoxSettings.dryRunThreshold,
      overCurrentThreshold: firstBoxSettings.overCurrentThreshold,
    })
    .from(firstBoxSettings)
    .where(eq(firstBoxSettings.userId, userId));
  return row;
}

/**
 * Keeps `settings` for the first box of account `userId`, with a history entry, in one batch,
 * both only while the account still has no box. False when a box came first: then the settings
 * are that box's to change.
 */
export async function saveKeptSettings(
  db: Db,
  values: { userId: number; settings: KeptSettings; changedByUserId: number; changeNote: string; now: number },
): Promise<boolean> {
  const d1 = db.$client;
  const { userId, settings, changedByUserId, changeNote, now } = values;
  const boxless = "NOT EXISTS (SELECT 1 FROM devices WHERE owner_user_id = ?1)";
  const numbers = [settings.defaultCurrent, settings.dryRunThreshold, settings.overCurrentThreshold];
  const [kept] = await d1.batch([
    d1
      .prepare(
        "INSERT INTO first_box_settings (user_id, default_current, dry_run_threshold, over_current_threshold, changed_by_user_id, updated_at) " +
          `SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE ${boxless} ` +
          "ON CONFLICT (user_id) DO UPDATE SET default_current = excluded.default_current, " +
          "dry_run_threshold = excluded.dry_run_threshold, over_current_threshold = excluded.over_current_threshold, " +
          "changed_by_user_id = excluded.changed_by_user_id, updated_at = excluded.updated_at",
      )
      .bind(userId, ...numbers, changedByUserId, now),
    d1
      .prepare(
        "INSERT INTO motor_config_history (user_id, device_id, default_current, dry_run_threshold, over_current_threshold, " +
          `change_note, changed_by_user_id, created_at) SELECT ?1, NULL, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${boxless}`,
      )
      .bind(userId, ...numbers, changeNote, changedByUserId, now),
  ]);
  return (kept?.meta.changes ?? 0) > 0;
}
