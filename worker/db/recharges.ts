import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { type RechargeRequestRow, rechargeRequests } from "./schema.ts";

/**
 * A new pending request, or null when the device already has one waiting. One statement checks
 * and inserts, so parallel submissions cannot each see "none pending" and all be written (D1
 * runs one statement at a time, and a statement is atomic); the partial unique index
 * recharge_requests_one_pending_idx would refuse a second one anyway, quietly here.
 */
export async function insertRechargeRequest(
  db: Db,
  values: Omit<RechargeRequestRow, "id" | "status" | "decidedAt" | "decidedByUserId"> & { deviceId: string },
): Promise<RechargeRequestRow | null> {
  const inserted = await db.all<{ id: number }>(sql`
    INSERT INTO recharge_requests (user_id, device_id, mobile_no, plan, amount, payment_method, status, requested_at)
    SELECT ${values.userId}, ${values.deviceId}, ${values.mobileNo}, ${values.plan}, ${values.amount}, ${values.paymentMethod}, 'pending', ${values.requestedAt}
    WHERE NOT EXISTS (SELECT 1 FROM recharge_requests WHERE device_id = ${values.deviceId} AND status = 'pending')
    ON CONFLICT DO NOTHING
    RETURNING id`);
  const id = inserted[0]?.id;
  if (id === undefined) return null;
  return (await findRechargeRequest(db, id)) ?? null;
}

export function listRechargeRequestsOfUser(db: Db, userId: number) {
  return db
    .select()
    .from(rechargeRequests)
    .where(eq(rechargeRequests.userId, userId))
    .orderBy(desc(rechargeRequests.requestedAt), desc(rechargeRequests.id));
}

export function listRechargeRequests(db: Db) {
  return db.select().from(rechargeRequests).orderBy(desc(rechargeRequests.requestedAt), desc(rechargeRequests.id));
}

export function findRechargeRequest(db: Db, id: number) {
  return db.query.rechargeRequests.findFirst({ where: eq(rechargeRequests.id, id) });
}

/** Pending → failed; false when the request was no longer pending. */
export async function markRechargeFailed(db: Db, id: number, decidedByUserId: number, now: number): Promise<boolean> {
  const rows = await db
    .update(rechargeRequests)
    .set({ status: "failed", decidedAt: now, decidedByUserId })
    .where(and(eq(rechargeRequests.id, id), eq(rechargeRequests.status, "pending")))
    .returning({ id: rechargeRequests.id });
  return rows.length > 0;
}

export async function deleteRechargeRequest(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .delete(rechargeRequests)
    .where(eq(rechargeRequests.id, id))
    .returning({ id: rechargeRequests.id });
  return rows.length > 0;
}

/** The shape of SPEC §3: id, mobileNo, plan, amount, paymentMethod, status, requestedAt. */
export function toRechargeView(row: RechargeRequestRow) {
  return {
    id: row.id,
    mobileNo: row.mobileNo,
    plan: row.plan,
    amount: row.amount,
    paymentMethod: row.paymentMethod,
    status: row.status,
    requestedAt: new Date(row.requestedAt).toISOString(),
    decidedAt: row.decidedAt ? new Date(row.decidedAt).toISOString() : null,
  };
}
