import { and, desc, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { rechargeRequests, type RechargeRequestRow } from "./schema.ts";

export async function insertRechargeRequest(
  db: Db,
  values: Omit<RechargeRequestRow, "id" | "status" | "decidedAt" | "decidedByUserId">,
): Promise<RechargeRequestRow> {
  const rows = await db.insert(rechargeRequests).values(values).returning();
  return rows[0]!;
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
  const rows = await db.delete(rechargeRequests).where(eq(rechargeRequests.id, id)).returning({ id: rechargeRequests.id });
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
