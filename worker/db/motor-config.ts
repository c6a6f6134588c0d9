import { desc, eq } from "drizzle-orm";
import type { MotorConfig } from "../../common/api-schemas.ts";
import type { Db } from "./client.ts";
import { motorConfigHistory, users } from "./schema.ts";

/** Saves a user's motor config and its history entry together: both or neither. */
export async function saveMotorConfigRows(
  db: Db,
  values: { userId: number; config: MotorConfig; changedByUserId: number; changeNote: string; now: number },
): Promise<void> {
  await db.batch([
    db.update(users).set(values.config).where(eq(users.id, values.userId)),
    db.insert(motorConfigHistory).values({
      userId: values.userId,
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
