import { desc, eq } from "drizzle-orm";
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { Db } from "./client.ts";
import { devices, motorConfigHistory } from "./schema.ts";

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
