// Payment records past their windows move from D1 to R2 (worker/retention/payments-archive.ts):
// recharges paid through the checkout and the gateway's webhooks, then the retention run as of
// later days. Exactly the rows past their windows go, a period still needed stays however old,
// R2 holds every row before D1 lets go, a run cut short or run twice at once loses and doubles
// nothing, and what remains still serves the coverage, the admin's pages and the reconciliation.
import { env } from "cloudflare:workers";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { adminPaymentListResponseSchema } from "../../../common/api-responses/payments.ts";
import { getDb } from "../../../worker/db/client.ts";
import { activateDevice, markRechargePaid } from "../../../worker/db/plans.ts";
import { insertRechargeRequest } from "../../../worker/db/recharges.ts";
import {
  paymentEvents,
  payments,
  planPeriods,
  planReminders,
  rechargeRequests,
  retentionCursors,
} from "../../../worker/db/schema.ts";
import { reconcilePayments } from "../../../worker/payments/reconcile.ts";
import {
  archiveOldPaymentRecords,
  ENDED_PLAN_PERIODS_IN_D1_DAYS,
  PAYMENT_EVENTS_IN_D1_DAYS,
  PAYMENTS_IN_D1_DAYS,
  sweepPlanPeriods,
} from "../../../worker/retention/payments-archive.ts";
import { runRetention } from "../../../worker/retention/retention.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { getJson } from "../helpers/http.ts";
import { payRecharge } from "../helpers/payments.ts";

freshStorageForThisFile();

const DAY = 24 * 60 * 60_000;
const db = getDb(env.DB);

/** Every archived line of every object under `prefix`: [id, object key]. */
async function archived(prefix: string): Promise<Map<number, string[]>> {
  const ids = new Map<number, string[]>();
  const listed = await env.ARCHIVE.list({ prefix });
  for (const object of listed.objects) {
    const text = await (await env.ARCHIVE.get(object.key))!.text();
    for (const line of text.split("\n").filter(Boolean)) {
      const { id } = JSON.parse(line) as { id: number };
      ids.set(id, [...(ids.get(id) ?? []), object.key]);
    }
  }
  return ids;
}

async function archivedRow(prefix: string, id: number): Promise<Record<string, unknown> | undefined> {
  const listed = await env.ARCHIVE.list({ prefix });
  for (const object of listed.objects) {
    const text = await (await env.ARCHIVE.get(object.key))!.text();
    for (const line of text.split("\n").filter(Boolean)) {
      const row = JSON.parse(line) as Record<string, unknown>;
      if (row.id === id) return row;
    }
  }
  return undefined;
}

async function periodsOf(deviceId: string) {
  return db.select().from(planPeriods).where(eq(planPeriods.deviceId, deviceId)).orderBy(asc(planPeriods.endsAt));
}

async function coverageOf(deviceId: string): Promise<number | null> {
  const [row] = await db
    .select({ endsAt: sql<number | null>`MAX(${planPeriods.endsAt})` })
    .from(planPeriods)
    .where(eq(planPeriods.deviceId, deviceId));
  return row?.endsAt ?? null;
}

async function eventIdsOf(paymentIds: number[]): Promise<number[]> {
  const rows = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(inArray(paymentEvents.paymentRowId, paymentIds));
  return rows.map((row) => row.id);
}

async function inD1<T extends typeof payments | typeof planPeriods | typeof rechargeRequests | typeof paymentEvents>(
  table: T,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.select({ id: table.id }).from(table).where(inArray(table.id, ids));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

/** Runs the payment records' retention as of `at` until a run moves nothing. */
async function drain(at: number): Promise<void> {
  for (let run = 0; run < 20; run++) {
    const done = await archiveOldPaymentRecords(db, env.ARCHIVE, at);
    if (Object.values(done).every((count) => count === 0)) return;
  }
  throw new Error("The archive did not settle");
}

/** A box with its free year started `activatedAt`, and `plans` paid online one after another. */
async function paidBox(activatedAt: number, plans: ("1month" | "1year")[]) {
  const farmer = await farmerWithDevice();
  await activateDevice(db, farmer.device.deviceId, activatedAt);
  const paid = [];
  for (const plan of plans) paid.push(await payRecharge(farmer.token, plan));
  return { ...farmer, paid };
}

describe("payment records in D1 and in the archive", () => {
  it("moves exactly the rows past their windows, keeps every period a box still needs, and its coverage", async () => {
    const now = Date.now();
    const box = await paidBox(now, ["1month", "1month"]);
    const deviceId = box.device.deviceId;
    const paymentIds = box.paid.map((row) => row.id);
    const eventIds = await eventIdsOf(paymentIds);
    expect(eventIds).toHaveLength(6);
    const periods = await periodsOf(deviceId);
    expect(periods.map((period) => period.plan)).toEqual(["free", "1month", "1month"]);
    const coverage = await coverageOf(deviceId);
    // A box that lapsed long ago: its only period stays however old.
    const lapsed = await farmerWithDevice();
    await activateDevice(db, lapsed.device.deviceId, now - 5 * 365 * DAY);
    // A cash request an admin marked paid (it bought a period), and one still pending.
    const cash = await farmerWithDevice();
    const decided = (await insertRechargeRequest(db, {
      userId: cash.user.id,
      deviceId: cash.device.deviceId,
      mobileNo: cash.user.mobileNo,
      plan: "1month",
      amount: 399,
      paymentMethod: "cash",
      requestedAt: now,
    }))!;
    expect(await markRechargePaid(db, decided, cash.user.id, now)).toBe(true);
    const waiting = await farmerWithDevice();
    const pending = (await insertRechargeRequest(db, {
      userId: waiting.user.id,
      deviceId: waiting.device.deviceId,
      mobileNo: waiting.user.mobileNo,
      plan: "1year",
      amount: 1111,
      paymentMethod: "bank",
      requestedAt: now,
    }))!;
    // The free year's two reminders.
    const freeEnd = periods[0]!.endsAt;
    await db.insert(planReminders).values([
      { deviceId, endsAt: freeEnd, kind: "7d", sentAt: freeEnd - 7 * DAY },
      { deviceId, endsAt: freeEnd, kind: "1d", sentAt: freeEnd - DAY },
    ]);

    // Not yet: nothing is past any window.
    await drain(now + (PAYMENT_EVENTS_IN_D1_DAYS - 1) * DAY);
    expect(await inD1(paymentEvents, eventIds)).toEqual(eventIds);

    // The events' window passed: the bodies go, the payments stay.
    await drain(now + (PAYMENT_EVENTS_IN_D1_DAYS + 1) * DAY);
    expect(await inD1(paymentEvents, eventIds)).toEqual([]);
    expect(await inD1(payments, paymentIds)).toEqual(paymentIds);
    const events = await archived("payment-events/");
    for (const id of eventIds) expect(events.get(id)).toHaveLength(1);

    // The payments' window passed: they go, with the period each bought; the periods stay (none ended).
    const afterPayments = now + (PAYMENTS_IN_D1_DAYS + 1) * DAY;
    await drain(afterPayments);
    expect(await inD1(payments, paymentIds)).toEqual([]);
    expect(await inD1(rechargeRequests, [decided.id, pending.id])).toEqual([pending.id]);
    for (const [index, id] of paymentIds.entries()) {
      expect(await archivedRow("payments/", id)).toMatchObject({
        id,
        status: "paid",
        planPeriodId: periods[index + 1]!.id,
      });
    }
    expect(await archivedRow("recharge-requests/", decided.id)).toMatchObject({
      status: "paid",
      paymentMethod: "cash",
    });
    expect((await periodsOf(deviceId)).map((period) => period.id)).toEqual(periods.map((period) => period.id));
    expect(await coverageOf(deviceId)).toBe(coverage);

    // Every period ended long ago: the older ones go, the last ended stays; the reminders go.
    const later = periods[2]!.endsAt + (ENDED_PLAN_PERIODS_IN_D1_DAYS + 1) * DAY;
    await drain(later);
    expect((await periodsOf(deviceId)).map((period) => period.id)).toEqual([periods[2]!.id]);
    expect(await coverageOf(deviceId)).toBe(coverage);
    const archivedPeriods = await archived("plan-periods/");
    expect(archivedPeriods.get(periods[0]!.id)).toHaveLength(1);
    expect(archivedPeriods.get(periods[1]!.id)).toHaveLength(1);
    expect(archivedPeriods.has(periods[2]!.id)).toBe(false);
    expect(await db.select().from(planReminders).where(eq(planReminders.deviceId, deviceId))).toEqual([]);
    expect((await periodsOf(lapsed.device.deviceId)).map((period) => period.plan)).toEqual(["free"]);
    // A box whose periods were archived is not given a second free year on its next hello.
    await activateDevice(db, deviceId, later);
    expect(await coverageOf(deviceId)).toBe(coverage);
  });

  it("keeps every row in D1 until R2 holds it; a run killed in between, run again, loses and doubles nothing", async () => {
    const now = Date.now();
    const box = await paidBox(now, ["1year"]);
    const paymentId = box.paid[0]!.id;
    const eventIds = await eventIdsOf([paymentId]);
    const at = now + (PAYMENTS_IN_D1_DAYS + 1) * DAY;

    // R2 refuses every write: nothing leaves D1.
    const refusing = new Proxy(env.ARCHIVE, {
      get(target, name) {
        if (name === "put") return async () => null;
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await archiveOldPaymentRecords(db, refusing, at);
    expect(await inD1(payments, [paymentId])).toEqual([paymentId]);
    expect(await inD1(paymentEvents, eventIds)).toEqual(eventIds);

    // The Worker dies after R2 took the rows and before D1 deleted them.
    const dying = new Proxy(env.ARCHIVE, {
      get(target, name) {
        if (name === "put") {
          return async (...args: Parameters<R2Bucket["put"]>) => {
            await target.put(...args);
            throw new Error("killed");
          };
        }
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await expect(archiveOldPaymentRecords(db, dying, at)).rejects.toThrow("killed");
    expect(await inD1(payments, [paymentId])).toEqual([paymentId]);
    expect((await archived("payment-events/")).get(eventIds[0]!)).toHaveLength(1);

    await drain(at);
    expect(await inD1(payments, [paymentId])).toEqual([]);
    expect(await inD1(paymentEvents, eventIds)).toEqual([]);
    expect((await archived("payments/")).get(paymentId)).toHaveLength(1);
    const events = await archived("payment-events/");
    for (const id of eventIds) expect(events.get(id)).toHaveLength(1);
  });

  it("two runs at once move every row once", async () => {
    const now = Date.now();
    const boxes = await Promise.all([paidBox(now, ["1month"]), paidBox(now, ["1month"]), paidBox(now, ["1month"])]);
    const paymentIds = boxes.map((box) => box.paid[0]!.id);
    const eventIds = await eventIdsOf(paymentIds);
    const periodIds = (await Promise.all(boxes.map((box) => periodsOf(box.device.deviceId))))
      .flatMap((rows) => rows.slice(0, -1))
      .map((row) => row.id);
    const at = now + 500 * DAY;

    await Promise.all([
      archiveOldPaymentRecords(db, env.ARCHIVE, at),
      archiveOldPaymentRecords(db, env.ARCHIVE, at),
      sweepPlanPeriods(db, env.ARCHIVE, at),
    ]);
    await drain(at);
    expect(await inD1(payments, paymentIds)).toEqual([]);
    expect(await inD1(paymentEvents, eventIds)).toEqual([]);
    expect(await inD1(planPeriods, periodIds)).toEqual([]);
    for (const id of paymentIds) expect((await archived("payments/")).get(id)).toHaveLength(1);
    for (const id of eventIds) expect((await archived("payment-events/")).get(id)).toHaveLength(1);
    for (const id of periodIds) expect((await archived("plan-periods/")).get(id)).toHaveLength(1);
    for (const box of boxes) expect(await periodsOf(box.device.deviceId)).toHaveLength(1);
  });

  it("sweeps the boxes a few at a time and starts a new round at the end", async () => {
    const now = Date.now();
    const boxes = [await paidBox(now, ["1month"]), await paidBox(now, ["1month"])];
    const at = now + 500 * DAY;
    await db.delete(retentionCursors);
    // Two periods a step: one box's at a time.
    const first = await sweepPlanPeriods(db, env.ARCHIVE, at, 2);
    expect(first.periods).toBeLessThanOrEqual(1);
    await drain(at);
    for (const box of boxes) expect(await periodsOf(box.device.deviceId)).toHaveLength(1);
    const [cursor] = await db.select().from(retentionCursors);
    expect(cursor?.position).toBe("");
  });

  it("leaves the admin's recharges pages, the reconciliation, the farmer's plan and a new recharge working", async () => {
    const now = Date.now();
    const box = await paidBox(now, ["1month"]);
    const before = await coverageOf(box.device.deviceId);
    // Everything past every window, as the cron runs it.
    const at = now + 500 * DAY;
    for (let run = 0; run < 10; run++) await runRetention(env, at);
    expect(await inD1(payments, [box.paid[0]!.id])).toEqual([]);
    expect(await coverageOf(box.device.deviceId)).toBe(before);

    const admin = await adminToken();
    const ledger = await readJson(await getJson("/api/admin/payments", admin), adminPaymentListResponseSchema);
    expect(ledger.data.map((payment) => payment.id)).not.toContain(box.paid[0]!.id);
    expect((await getJson("/api/admin/recharge-requests", admin)).status).toBe(200);
    expect((await getJson(`/api/admin/payments/${box.paid[0]!.id}`, admin)).status).toBe(404);
    expect((await getJson("/api/payments", box.token)).status).toBe(200);
    expect((await getJson("/api/recharge/plan", box.token)).status).toBe(200);
    const recon = await reconcilePayments(env, Date.now() + 5 * DAY, Date.now());
    expect(recon).not.toBeNull();

    // A new recharge starts where the kept periods end.
    const renewed = await payRecharge(box.token, "1month");
    const [period] = await db.select().from(planPeriods).where(eq(planPeriods.paymentId, renewed.id));
    expect(period!.startsAt).toBe(Math.max(before!, period!.createdAt));
  });
});
