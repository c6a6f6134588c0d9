// Payment records past their windows go from D1 to R2 (docs/payments.md, "How long D1 keeps
// payments"): each recharge writes a payment, its gateway events, a plan period and renewal
// reminders (a cash or bank recharge a request), and without this D1 would grow with time,
// not with the fleet. Each table's rows go to NDJSON objects per table, IST month and block of
// ids (`payment-events/<YYYY-MM>/<first id of the block>.ndjson`): a row's object follows from
// the row alone (its month and its id never change), so however the ticks cut the work, a row
// is in one object once; and an object stays small (a month of a large fleet's webhook bodies
// would be hundreds of megabytes, rewritten on every tick). Nothing is deleted from D1 before
// R2 holds it (archive-objects.ts); every step is safe to repeat and to cut short.
import { and, asc, eq, gt, inArray, lt } from "drizzle-orm";
import { z } from "../../common/zod.ts";
import type { Db } from "../db/client.ts";
import {
  type PaymentRow,
  type PlanPeriodRow,
  paymentEvents,
  payments,
  planPeriods,
  planReminders,
  type RechargeRequestRow,
  rechargeRequests,
  retentionCursors,
} from "../db/schema.ts";
import { istMonth } from "../services/telephony-usage.ts";
import { archiveRows } from "./archive-objects.ts";
import { deleteArchivedRows } from "./delete-archived.ts";

const DAY = 24 * 60 * 60_000;

/**
 * A gateway event stays this long after it arrived. The reconciliation reads a settled day the
 * morning after it (a gateway settles a capture days later), a replay or a late retry of an
 * event comes within days, and the admin's trail of a payment is looked at while it is new:
 * five weeks covers them. The bodies are the bulk of a recharge's bytes.
 */
export const PAYMENT_EVENTS_IN_D1_DAYS = 35;

/**
 * A payment stays this long after its checkout. A refund is made at the gateway's dashboard,
 * normally within six months of the capture (Razorpay refunds an older payment only instantly,
 * if its bank takes it), and its webhook and its line in a settlement report days later must
 * find the payment here to be matched; six months and a month of margin. The admin's page shows
 * the newest 500 (minutes of a large fleet's recharges), the farmer's the newest 20, a return
 * from the gateway's page one of minutes ago: none needs longer.
 */
export const PAYMENTS_IN_D1_DAYS = 200;

/**
 * A cash or bank request an admin decided stays as long as an online payment, so the admin's
 * recharges page shows both over the same months; a pending one stays until it is decided.
 */
const RECHARGE_REQUESTS_IN_D1_DAYS = PAYMENTS_IN_D1_DAYS;

/**
 * A plan period that ended this long ago goes, unless it is the last of its box that has ended.
 * What reads periods needs only the ones not ended and the last ended: a box's coverage is the
 * greatest end of its periods (the plan card, a new period's start, the renewal reminders, the
 * admin's boxes), and a box with none at all would be given a new free year on its next hello.
 */
export const ENDED_PLAN_PERIODS_IN_D1_DAYS = 35;

/**
 * A renewal reminder only guards that each reminder of one end of a box's coverage goes once,
 * and none goes for an end that has passed: once its end is this far behind, it is deleted (not
 * archived: the SMS itself is in the telephony provider's records).
 */
export const PLAN_REMINDERS_IN_D1_DAYS = 35;

/** At most this many rows of each table leave D1 in a tick (and one R2 object a block of them). */
export const PAYMENT_ARCHIVE_ROWS_PER_RUN = 200;
/** Boxes' periods read in a tick of the sweep through them (about two or three a box). */
export const PLAN_PERIOD_ROWS_PER_RUN = 500;

/** The archive's tables, and how many ids an object's block holds (an object of a few MB at most). */
const IDS_PER_OBJECT = {
  "payment-events": 1000,
  payments: 5000,
  "plan-periods": 5000,
  "recharge-requests": 5000,
} as const;

type ArchivedTable = keyof typeof IDS_PER_OBJECT;

export function paymentArchiveKey(table: ArchivedTable, month: string, id: number): string {
  const first = Math.floor(id / IDS_PER_OBJECT[table]) * IDS_PER_OBJECT[table];
  return `${table}/${month}/${String(first).padStart(12, "0")}.ndjson`;
}

export type PaymentEventRow = typeof paymentEvents.$inferSelect;

const archivedEventSchema = z.object({
  id: z.number().int().positive(),
  provider: z.string(),
  eventId: z.string(),
  type: z.string(),
  paymentRowId: z.number().int().nullable(),
  gatewayPaymentId: z.string().nullable(),
  outcome: z.string(),
  body: z.string(),
  receivedAt: z.number().int(),
}) satisfies z.ZodType<PaymentEventRow>;

const PLAN = z.enum(["1month", "3month", "6month", "1year"]);

/**
 * A payment as archived: its row, and the plan period it bought if D1 still had it. That
 * period's `payment_id` is set to null as the payment leaves, in the same D1 batch (in D1 the
 * column's foreign key has no ON DELETE action: migration 0025 added it with ALTER TABLE, which
 * dropped the schema's SET NULL). The period itself and the box's coverage do not change, and
 * the archive keeps the link.
 */
export type ArchivedPayment = PaymentRow & { planPeriodId: number | null };

const archivedPaymentSchema = z.object({
  id: z.number().int().positive(),
  userId: z.number().int().nullable(),
  deviceId: z.string(),
  mobileNo: z.string(),
  plan: PLAN,
  language: z.enum(["hi", "en"]),
  amountPaise: z.number().int(),
  taxablePaise: z.number().int(),
  cgstPaise: z.number().int(),
  sgstPaise: z.number().int(),
  provider: z.enum(["razorpay"]),
  status: z.enum(["created", "paid", "failed", "held", "refunded"]),
  gatewayLinkId: z.string(),
  gatewayOrderId: z.string().nullable(),
  gatewayPaymentId: z.string().nullable(),
  payUrl: z.string(),
  capturedPaise: z.number().int().nullable(),
  refundedPaise: z.number().int(),
  flag: z.string().nullable(),
  createdAt: z.number().int(),
  paidAt: z.number().int().nullable(),
  updatedAt: z.number().int(),
  planPeriodId: z.number().int().nullable(),
}) satisfies z.ZodType<ArchivedPayment>;

/** A decided cash or bank request as archived, with the period it bought (as a payment's). */
export type ArchivedRechargeRequest = RechargeRequestRow & { planPeriodId: number | null };

const archivedRequestSchema = z.object({
  id: z.number().int().positive(),
  userId: z.number().int().nullable(),
  deviceId: z.string().nullable(),
  mobileNo: z.string(),
  plan: PLAN,
  amount: z.number().int(),
  paymentMethod: z.enum(["upi", "bank", "cash"]),
  status: z.enum(["pending", "paid", "failed"]),
  requestedAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
  decidedByUserId: z.number().int().nullable(),
  planPeriodId: z.number().int().nullable(),
}) satisfies z.ZodType<ArchivedRechargeRequest>;

const archivedPeriodSchema = z.object({
  id: z.number().int().positive(),
  deviceId: z.string(),
  plan: z.enum(["free", "1month", "3month", "6month", "1year"]),
  amount: z.number().int(),
  startsAt: z.number().int(),
  endsAt: z.number().int(),
  rechargeRequestId: z.number().int().nullable(),
  paymentId: z.number().int().nullable(),
  createdAt: z.number().int(),
}) satisfies z.ZodType<PlanPeriodRow>;

/** D1 binds at most 100 values a statement. */
const IDS_PER_QUERY = 90;

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += IDS_PER_QUERY)
    out.push(values.slice(start, start + IDS_PER_QUERY));
  return out;
}

/**
 * Copies `rows` into their objects (by `table`, the IST month of `at` and the id's block);
 * answers the ids now in R2. An object another run wrote in between keeps its rows in D1 for
 * the next tick.
 */
async function archiveToObjects<Row extends { id: number }>(
  bucket: R2Bucket,
  table: ArchivedTable,
  rows: Row[],
  at: (row: Row) => number,
  schema: z.ZodType<Row>,
): Promise<number[]> {
  const byKey = new Map<string, Row[]>();
  for (const row of rows) {
    const key = paymentArchiveKey(table, istMonth(at(row)), row.id);
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  const archived: number[] = [];
  for (const [key, group] of byKey) {
    if (await archiveRows(bucket, key, group, schema)) archived.push(...group.map((row) => row.id));
  }
  return archived;
}

/**
 * Gateway events older than their window, oldest first. Events are written in time order, so
 * the primary key finds them; most minutes one row read says nothing is due.
 */
export async function archiveOldPaymentEvents(
  db: Db,
  bucket: R2Bucket,
  now: number,
  limit = PAYMENT_ARCHIVE_ROWS_PER_RUN,
): Promise<number> {
  const cutoff = now - PAYMENT_EVENTS_IN_D1_DAYS * DAY;
  const [first] = await db
    .select({ receivedAt: paymentEvents.receivedAt })
    .from(paymentEvents)
    .orderBy(asc(paymentEvents.id))
    .limit(1);
  if (!first || first.receivedAt >= cutoff) return 0;
  const oldest = await db.select().from(paymentEvents).orderBy(asc(paymentEvents.id)).limit(limit);
  const due = oldest.filter((row) => row.receivedAt < cutoff);
  const archived = await archiveToObjects(bucket, "payment-events", due, (row) => row.receivedAt, archivedEventSchema);
  await deleteArchivedRows(db, paymentEvents, archived);
  return archived.length;
}

/**
 * Payments older than their window, oldest first (written in time order, as the events). Any of
 * their events still in D1 (a late refund's) go with them, to R2 first, so no event loses its
 * payment: the events leave D1 before the payments do.
 */
export async function archiveOldPayments(
  db: Db,
  bucket: R2Bucket,
  now: number,
  limit = PAYMENT_ARCHIVE_ROWS_PER_RUN,
): Promise<{ payments: number; events: number }> {
  const cutoff = now - PAYMENTS_IN_D1_DAYS * DAY;
  const [first] = await db.select({ createdAt: payments.createdAt }).from(payments).orderBy(asc(payments.id)).limit(1);
  if (!first || first.createdAt >= cutoff) return { payments: 0, events: 0 };
  const oldest = await db.select().from(payments).orderBy(asc(payments.id)).limit(limit);
  const due = oldest.filter((row) => row.createdAt < cutoff);
  const dueIds = due.map((row) => row.id);
  const events: PaymentEventRow[] = [];
  const periodOf = new Map<number, number>();
  for (const ids of chunks(dueIds)) {
    events.push(...(await db.select().from(paymentEvents).where(inArray(paymentEvents.paymentRowId, ids))));
    const periods = await db
      .select({ id: planPeriods.id, paymentId: planPeriods.paymentId })
      .from(planPeriods)
      .where(inArray(planPeriods.paymentId, ids));
    for (const period of periods) if (period.paymentId !== null) periodOf.set(period.paymentId, period.id);
  }
  const eventsArchived = await archiveToObjects(
    bucket,
    "payment-events",
    events,
    (row) => row.receivedAt,
    archivedEventSchema,
  );
  // A payment leaves only with every one of its events in R2.
  const archivedEvents = new Set(eventsArchived);
  const waiting = new Set(events.filter((row) => !archivedEvents.has(row.id)).map((row) => row.paymentRowId));
  const ready = due
    .filter((row) => !waiting.has(row.id))
    .map((row) => ({ ...row, planPeriodId: periodOf.get(row.id) ?? null }));
  const archived = await archiveToObjects(bucket, "payments", ready, (row) => row.createdAt, archivedPaymentSchema);
  await deleteArchivedRows(db, paymentEvents, eventsArchived);
  await deletePayments(db, archived);
  return { payments: archived.length, events: eventsArchived.length };
}

/** Deletes archived payments, freeing the periods that name them first, in one D1 batch. */
async function deletePayments(db: Db, ids: number[]): Promise<void> {
  const statements = chunks(ids).flatMap((some) => [
    db.update(planPeriods).set({ paymentId: null }).where(inArray(planPeriods.paymentId, some)),
    db.delete(payments).where(inArray(payments.id, some)),
  ]);
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/**
 * Decided cash and bank requests past their window (through recharge_requests_status_idx); a
 * pending one stays however old.
 */
export async function archiveOldRechargeRequests(
  db: Db,
  bucket: R2Bucket,
  now: number,
  limit = PAYMENT_ARCHIVE_ROWS_PER_RUN,
): Promise<number> {
  const cutoff = now - RECHARGE_REQUESTS_IN_D1_DAYS * DAY;
  const due = await db
    .select()
    .from(rechargeRequests)
    .where(
      and(
        inArray(rechargeRequests.status, ["paid", "failed"]),
        lt(rechargeRequests.requestedAt, cutoff),
        lt(rechargeRequests.decidedAt, cutoff),
      ),
    )
    .orderBy(asc(rechargeRequests.id))
    .limit(limit);
  if (due.length === 0) return 0;
  const periodOf = new Map<number, number>();
  for (const ids of chunks(due.map((row) => row.id))) {
    const periods = await db
      .select({ id: planPeriods.id, requestId: planPeriods.rechargeRequestId })
      .from(planPeriods)
      .where(inArray(planPeriods.rechargeRequestId, ids));
    for (const period of periods) if (period.requestId !== null) periodOf.set(period.requestId, period.id);
  }
  const rows = due.map((row) => ({ ...row, planPeriodId: periodOf.get(row.id) ?? null }));
  const archived = await archiveToObjects(
    bucket,
    "recharge-requests",
    rows,
    (row) => row.requestedAt,
    archivedRequestSchema,
  );
  await deleteArchivedRows(db, rechargeRequests, archived);
  return archived.length;
}

const PERIOD_SWEEP = "plan-periods";

/**
 * The periods of `rows` (one box's, by end then id) that may leave: ended before the cutoff,
 * with a later period of the box that has ended too. So every period not ended stays, the last
 * ended one stays however old, and the box's greatest end (its coverage) never moves.
 */
export function periodsPastWindow(rows: PlanPeriodRow[], now: number): PlanPeriodRow[] {
  const cutoff = now - ENDED_PLAN_PERIODS_IN_D1_DAYS * DAY;
  return rows.filter(
    (period, index) => period.endsAt < cutoff && rows.slice(index + 1).some((later) => later.endsAt <= now),
  );
}

/**
 * One step of a sweep through the boxes in id order (its place kept in retention_cursors,
 * moved on only once the step's rows are out): their periods past the window archived, their
 * reminders of ends long past deleted. A box's last ended period stays forever, so a scan by end
 * would read every lapsed box's one each minute; the sweep reads each period once a round
 * (1,000,000 boxes, about 2.5 periods each, 500 a minute: a round in about 3.5 days).
 */
export async function sweepPlanPeriods(
  db: Db,
  bucket: R2Bucket,
  now: number,
  limit = PLAN_PERIOD_ROWS_PER_RUN,
): Promise<{ periods: number; reminders: number }> {
  const [cursor] = await db
    .select({ position: retentionCursors.position })
    .from(retentionCursors)
    .where(eq(retentionCursors.name, PERIOD_SWEEP));
  const after = cursor?.position ?? "";
  const rows = await db
    .select()
    .from(planPeriods)
    .where(gt(planPeriods.deviceId, after))
    .orderBy(asc(planPeriods.deviceId), asc(planPeriods.endsAt), asc(planPeriods.id))
    .limit(limit);
  const byDevice = new Map<string, PlanPeriodRow[]>();
  for (const row of rows) byDevice.set(row.deviceId, [...(byDevice.get(row.deviceId) ?? []), row]);
  const due = [...byDevice.values()].flatMap((periods) => periodsPastWindow(periods, now));
  const archived = await archiveToObjects(bucket, "plan-periods", due, (row) => row.endsAt, archivedPeriodSchema);
  await deleteArchivedRows(db, planPeriods, archived);
  let reminders = 0;
  for (const deviceIds of chunks([...byDevice.keys()])) {
    const deleted = await db
      .delete(planReminders)
      .where(
        and(
          inArray(planReminders.deviceId, deviceIds),
          lt(planReminders.endsAt, now - PLAN_REMINDERS_IN_D1_DAYS * DAY),
        ),
      )
      .returning({ id: planReminders.id });
    reminders += deleted.length;
  }
  // A step whose objects another run was writing is done again; the end of the boxes starts a new round.
  if (archived.length === due.length) {
    const position = rows.length < limit ? "" : rows.at(-1)!.deviceId;
    await db
      .insert(retentionCursors)
      .values({ name: PERIOD_SWEEP, position })
      .onConflictDoUpdate({ target: retentionCursors.name, set: { position } });
  }
  return { periods: archived.length, reminders };
}

export type PaymentArchiveRun = {
  paymentEvents: number;
  payments: number;
  rechargeRequests: number;
  planPeriods: number;
  planReminders: number;
};

/** One tick of the payment records' retention (from runRetention). */
export async function archiveOldPaymentRecords(db: Db, bucket: R2Bucket, now: number): Promise<PaymentArchiveRun> {
  // Periods first: one that leaves with its payment in the same tick keeps its payment_id.
  const periods = await sweepPlanPeriods(db, bucket, now);
  const events = await archiveOldPaymentEvents(db, bucket, now);
  const paid = await archiveOldPayments(db, bucket, now);
  const requests = await archiveOldRechargeRequests(db, bucket, now);
  return {
    paymentEvents: events + paid.events,
    payments: paid.payments,
    rechargeRequests: requests,
    planPeriods: periods.periods,
    planReminders: periods.reminders,
  };
}
