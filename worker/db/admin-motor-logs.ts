// Which boxes a page of the admin's motor log reads: one farmer's, or one box. The log itself is
// in each box's hub (worker/hubs/motor-log-pages.ts); D1 only says which boxes there are.
import { asc, eq, sql } from "drizzle-orm";
import type { AdminMotorLogFilter } from "../../common/admin-schemas.ts";
import type { Db } from "./client.ts";
import { devices, users } from "./schema.ts";

/** A box as the admin's log names it: its id, and its owner's name for it. */
export type LoggedBox = { id: string; name: string | null };

/**
 * The boxes `filter` names: every box the account with that number owns (its first box first),
 * or the one box. Undefined when there is no such account or box; an account without a box has
 * none.
 */
export async function boxesOfLogFilter(db: Db, filter: AdminMotorLogFilter): Promise<LoggedBox[] | undefined> {
  const box = { id: devices.id, name: devices.name };
  if ("deviceId" in filter) {
    const rows = await db.select(box).from(devices).where(eq(devices.id, filter.deviceId)).limit(1);
    return rows.length ? rows : undefined;
  }
  // One round trip: the account (to tell "no such farmer" from "no boxes") and its boxes.
  const rows = await db
    .select({ userId: users.id, box })
    .from(users)
    .leftJoin(devices, eq(devices.ownerUserId, users.id))
    .where(eq(users.mobileNo, filter.mobileNo))
    .orderBy(asc(sql`coalesce(${devices.linkedAt}, ${devices.createdAt})`), asc(devices.id));
  if (rows.length === 0) return undefined;
  return rows.flatMap((row) => (row.box ? [row.box] : []));
}
