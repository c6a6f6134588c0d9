// Connectivity plans in D1: the free first year from activation, then one period per paid
// recharge (docs/decisions/006-plan-periods.md).
import { desc, eq } from "drizzle-orm";
import { addMonths, FREE_PLAN_MONTHS, PLANS, type Plan } from "../../common/plans.ts";
import type { Db } from "./client.ts";
import { type PlanPeriodRow, planPeriods, type RechargeRequestRow } from "./schema.ts";

/** Marks the first hello of a box: starts its free year. Safe to run on every hello. */
export async function activateDevice(db: Db, deviceId: string, now: number): Promise<void> {
  // Raw statements: D1 runs a batch as one transaction, and these are conditional writes.
  const d1 = db.$client;
  await d1.batch([
    d1.prepare("UPDATE devices SET activated_at = ? WHERE id = ? AND activated_at IS NULL").bind(now, deviceId),
    d1
      .prepare(
        `INSERT INTO plan_periods (device_id, plan, amount, starts_at, ends_at, created_at)
         SELECT ?1, 'free', 0, ?2, ?3, ?2 WHERE NOT EXISTS (SELECT 1 FROM plan_periods WHERE device_id = ?1)`,
      )
      .bind(deviceId, now, addMonths(now, FREE_PLAN_MONTHS)),
  ]);
}

export function listPlanPeriods(db: Db, deviceId: string): Promise<PlanPeriodRow[]> {
  return db.select().from(planPeriods).where(eq(planPeriods.deviceId, deviceId)).orderBy(planPeriods.startsAt);
}

export type PlanCard = {
  plan: PlanPeriodRow["plan"];
  amount: number;
  activatedAt: string;
  /** When connectivity ends, counting renewals already paid for. */
  expiresAt: string;
  status: "active" | "expired";
  /** When the period running now ends (the next one, if paid for, starts then). */
  currentEndsAt: string;
  /**
   * Renewals paid for that start after the current period: without them the card would call
   * a farmer who has just paid for a year "free first year" until the free year ran out.
   */
  upcoming: { plan: PlanPeriodRow["plan"]; amount: number; startsAt: string; endsAt: string }[];
};

/** The card of SPEC §2 /recharge, from the periods: the one running now, else the last one. */
export function planCard(periods: PlanPeriodRow[], now: number): PlanCard | null {
  if (periods.length === 0) return null;
  const current = periods.find((period) => period.startsAt <= now && now < period.endsAt) ?? periods.at(-1)!;
  const coveredUntil = Math.max(...periods.map((period) => period.endsAt));
  return {
    plan: current.plan,
    amount: current.amount,
    activatedAt: new Date(current.startsAt).toISOString(),
    expiresAt: new Date(coveredUntil).toISOString(),
    status: now < coveredUntil ? "active" : "expired",
    currentEndsAt: new Date(current.endsAt).toISOString(),
    upcoming: periods
      .filter((period) => period.startsAt > now && period !== current)
      .map((period) => ({
        plan: period.plan,
        amount: period.amount,
        startsAt: new Date(period.startsAt).toISOString(),
        endsAt: new Date(period.endsAt).toISOString(),
      })),
  };
}

/**
 * Marks a pending request paid and adds its period, in one D1 batch (a transaction): both or
 * neither. The new period starts when the device's coverage ends, or now if it has lapsed.
 * Returns false when the request was no longer pending.
 */
export async function markRechargePaid(
  db: Db,
  request: RechargeRequestRow,
  decidedByUserId: number,
  now: number,
): Promise<boolean> {
  if (!request.deviceId) throw new Error(`recharge request ${request.id} has no device`);
  const [latest] = await db
    .select({ endsAt: planPeriods.endsAt })
    .from(planPeriods)
    .where(eq(planPeriods.deviceId, request.deviceId))
    .orderBy(desc(planPeriods.endsAt))
    .limit(1);
  const startsAt = Math.max(now, latest?.endsAt ?? now);
  const endsAt = addMonths(startsAt, PLANS[request.plan as Plan].months);
  const d1 = db.$client;
  const [updated] = await d1.batch([
    d1
      .prepare(
        "UPDATE recharge_requests SET status = 'paid', decided_at = ?2, decided_by_user_id = ?3 WHERE id = ?1 AND status = 'pending'",
      )
      .bind(request.id, now, decidedByUserId),
    // Inserted only if the update above took; the unique recharge_request_id makes sure a
    // request extends a plan exactly once.
    d1
      .prepare(
        `INSERT INTO plan_periods (device_id, plan, amount, starts_at, ends_at, recharge_request_id, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE changes() = 1`,
      )
      .bind(request.deviceId, request.plan, request.amount, startsAt, endsAt, request.id, now),
  ]);
  return (updated?.meta.changes ?? 0) > 0;
}
