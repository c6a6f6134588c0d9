// The cron trigger's retention: motor logs past their months in D1 move to R2 per box and month
// and read back through the logs API; the admin trail moves too; phone alerts' old day and month
// counts go (each SMS and call itself is kept in its pump's hub). The
// job is repeated and cut short as a Worker may be: nothing lost, nothing doubled.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { motorLogsResponseSchema } from "../../../common/api-responses/logs.ts";
import { istDay, istDayBefore } from "../../../common/pump-usage.ts";
import { getDb } from "../../../worker/db/client.ts";
import { firstMonthKept } from "../../../worker/db/phone-alert-counts.ts";
import { adminAudit, devices, motorLogs, phoneAlertDays, phoneAlertMonths } from "../../../worker/db/schema.ts";
import { adminAuditArchiveCutoff, adminAuditArchiveKey } from "../../../worker/retention/admin-audit-archive.ts";
import {
  archiveMotorLogGroup,
  archiveOldMotorLogs,
  motorLogArchiveCutoff,
  motorLogArchiveKey,
  nextMotorLogGroup,
} from "../../../worker/retention/motor-log-archive.ts";
import { runRetention } from "../../../worker/retention/retention.ts";
import { istMonth } from "../../../worker/services/telephony-usage.ts";
import worker from "../../worker-test-entry.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { getJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { logsAt } from "../helpers/motor-logs.ts";

freshStorageForThisFile();

const DAY = 24 * 60 * 60_000;
const db = getDb(env.DB);

async function idsInD1(deviceId: string): Promise<number[]> {
  const rows = await db
    .select({ id: motorLogs.id })
    .from(motorLogs)
    .where(eq(motorLogs.deviceId, deviceId))
    .orderBy(asc(motorLogs.id));
  return rows.map((row) => row.id);
}

/** What is not archived: in D1, or moved into the box's hub by the same tick. */
async function idsKept(deviceId: string): Promise<number[]> {
  const { rows } = await hubStub(deviceId).motorLogPage({ limit: 10_000 });
  return [...(await idsInD1(deviceId)), ...rows.map((row) => row.id)].sort((a, b) => a - b);
}

async function idsInArchive(key: string): Promise<number[]> {
  const object = await env.ARCHIVE.get(key);
  if (!object) return [];
  return (await object.text())
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: number }).id);
}

/** Every log of the farmer's box through the API, `limit` a page, following "older". */
async function everyLogThroughTheApi(path: string, token: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  let before: number | undefined;
  for (;;) {
    const response = await getJson(`${path}?limit=${limit}${before ? `&before=${before}` : ""}`, token);
    expect(response.status).toBe(200);
    const page = await readJson(response, motorLogsResponseSchema);
    ids.push(...page.map((log) => log.id));
    if (page.length < limit) return ids;
    before = page.at(-1)!.id;
  }
}

async function runCron(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("retention", () => {
  it("moves exactly the logs and audit entries past their windows, deletes the phone alerts' old day and month counts, and nothing else", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    const [aOlder, aOld, aJustBefore] = [cutoff - 45 * DAY, cutoff - 10 * DAY, cutoff - 1];
    const aArchived = await logsAt(a.device.deviceId, [aOlder, aOld, aJustBefore]);
    const aKept = await logsAt(a.device.deviceId, [cutoff, now - 60 * DAY, now]);
    const bArchived = await logsAt(b.device.deviceId, [cutoff - 100 * DAY]);
    const bKept = await logsAt(b.device.deviceId, [now - DAY]);

    const auditCutoff = adminAuditArchiveCutoff(now);
    const audit = (createdAt: number, target: string) => ({
      createdAt,
      adminUserId: 1,
      adminMobileNo: "9000000001",
      action: "PUT /api/admin/update-user-role",
      target,
      status: 200,
      details: "{}",
      clientIp: null,
      userAgent: null,
    });
    const [oldAudit, keptAudit] = await db
      .insert(adminAudit)
      .values([audit(auditCutoff - DAY, "retention:old"), audit(auditCutoff, "retention:kept")])
      .returning({ id: adminAudit.id });

    // The daily caps read today; yesterday stays for an alarm that runs late; the day before goes.
    const dayCount = (day: string) => ({ userId: a.user.id, channel: "sms" as const, day, sent: 3 });
    await db
      .insert(phoneAlertDays)
      .values([dayCount(istDayBefore(now, 2)), dayCount(istDayBefore(now, 1)), dayCount(istDay(now))]);
    // The admin's costs show 13 months: the month before the first of them goes.
    const kept = firstMonthKept(now);
    const [year, month] = kept.split("-").map(Number) as [number, number];
    const monthBefore = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
    await db.insert(phoneAlertMonths).values([
      { userId: a.user.id, month: monthBefore, sms: 1 },
      { userId: a.user.id, month: kept, sms: 2 },
      { userId: a.user.id, month: istMonth(now), sms: 3 },
    ]);

    await runCron();

    expect(await idsKept(a.device.deviceId)).toEqual(aKept);
    expect(await idsKept(b.device.deviceId)).toEqual(bKept);
    // One object per box and IST month, each row once, in id order.
    expect(await idsInArchive(motorLogArchiveKey(a.device.deviceId, istMonth(aOlder)))).toEqual([aArchived[0]]);
    expect(await idsInArchive(motorLogArchiveKey(a.device.deviceId, istMonth(aOld)))).toEqual(aArchived.slice(1));
    expect(await idsInArchive(motorLogArchiveKey(b.device.deviceId, istMonth(cutoff - 100 * DAY)))).toEqual(bArchived);
    const listed = await env.ARCHIVE.list({ prefix: `motor-logs/${a.device.deviceId}/` });
    expect(listed.objects.map((object) => object.key).sort()).toEqual(
      [istMonth(aOlder), istMonth(aOld)].map((month) => motorLogArchiveKey(a.device.deviceId, month)).sort(),
    );

    const auditLeft = await db.select({ id: adminAudit.id }).from(adminAudit);
    expect(auditLeft.map((row) => row.id)).toEqual([keptAudit!.id]);
    expect(await idsInArchive(adminAuditArchiveKey(istMonth(auditCutoff - DAY)))).toEqual([oldAudit!.id]);

    const daysLeft = await db.select({ day: phoneAlertDays.day }).from(phoneAlertDays).orderBy(phoneAlertDays.day);
    expect(daysLeft.map((row) => row.day)).toEqual([istDayBefore(now, 1), istDay(now)]);
    const monthsLeft = await db
      .select({ month: phoneAlertMonths.month })
      .from(phoneAlertMonths)
      .orderBy(phoneAlertMonths.month);
    expect(monthsLeft.map((row) => row.month)).toEqual([kept, istMonth(now)]);
  });

  it("an archived month reads back through the farmer's and the admin's logs API, in order, paging across D1 and R2", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const { user, device, token } = await farmerWithDevice();
    // The farmer's box for longer than its log reaches back: all of it is theirs to read.
    await db
      .update(devices)
      .set({ createdAt: cutoff - 60 * DAY })
      .where(eq(devices.id, device.deviceId));
    const archived = await logsAt(device.deviceId, [
      cutoff - 40 * DAY,
      cutoff - 39 * DAY,
      cutoff - 38 * DAY,
      cutoff - 5 * DAY,
      cutoff - 4 * DAY,
    ]);
    const recent = await logsAt(device.deviceId, [now - 3 * DAY, now - 2 * DAY, now - DAY]);
    await runRetention(env, now);
    expect(await idsKept(device.deviceId)).toEqual(recent);

    const everyId = [...archived, ...recent].reverse();
    for (const limit of [1, 2, 3, 50]) {
      expect(await everyLogThroughTheApi(`/api/logs/motor/${user.mobileNo}`, token, limit)).toEqual(everyId);
    }
    const admin = await adminToken();
    expect(await everyLogThroughTheApi(`/api/pumps/${device.deviceId}/logs`, admin, 3)).toEqual(everyId);
    // An archived entry reads as it did from D1.
    const [oldest] = await readJson(
      await getJson(`/api/logs/motor/${user.mobileNo}?limit=1&before=${archived[1]}`, token),
      motorLogsResponseSchema,
    );
    expect(oldest).toEqual({
      id: archived[0],
      action: "other",
      logMessage: `at ${cutoff - 40 * DAY} #0`,
      timestamp: new Date(cutoff - 40 * DAY).toISOString(),
      kind: "legacy",
      params: { text: `at ${cutoff - 40 * DAY} #0` },
    });
  });

  it("killed between the archive and the delete, then run again: nothing lost, nothing doubled", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const { user, device, token } = await farmerWithDevice();
    await db
      .update(devices)
      .set({ createdAt: cutoff - 60 * DAY })
      .where(eq(devices.id, device.deviceId));
    const ids = await logsAt(device.deviceId, [cutoff - 9 * DAY, cutoff - 8 * DAY, cutoff - 7 * DAY]);
    const key = motorLogArchiveKey(device.deviceId, istMonth(cutoff - 9 * DAY));

    // The run that died: its rows are in R2, still in D1.
    const group = await nextMotorLogGroup(db, now);
    expect(group).toMatchObject({ deviceId: device.deviceId });
    expect(await archiveMotorLogGroup(db, env.ARCHIVE, group!, 500)).toEqual(ids);
    expect(await idsInD1(device.deviceId)).toEqual(ids);
    // Meanwhile the page shows each entry once.
    expect(await everyLogThroughTheApi(`/api/logs/motor/${user.mobileNo}`, token, 2)).toEqual([...ids].reverse());

    await runRetention(env, now);
    expect(await idsInD1(device.deviceId)).toEqual([]);
    expect(await idsInArchive(key)).toEqual(ids);
    expect(await everyLogThroughTheApi(`/api/logs/motor/${user.mobileNo}`, token, 2)).toEqual([...ids].reverse());
  });

  it("cut into small steps (a run that stops halfway through a month), then run to the end: every row once, in order", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const { device } = await farmerWithDevice();
    const times = Array.from({ length: 7 }, (_, index) => cutoff - 20 * DAY + index * 60_000);
    const ids = await logsAt(device.deviceId, times);
    const key = motorLogArchiveKey(device.deviceId, istMonth(times[0]!));

    expect(await archiveOldMotorLogs(db, env.ARCHIVE, now, { groups: 1, rowsPerGroup: 3 })).toEqual({
      rows: 3,
      groups: 1,
    });
    expect(await idsInArchive(key)).toEqual(ids.slice(0, 3));
    expect(await idsInD1(device.deviceId)).toEqual(ids.slice(3));
    while ((await archiveOldMotorLogs(db, env.ARCHIVE, now, { groups: 1, rowsPerGroup: 3 })).rows > 0);
    expect(await idsInArchive(key)).toEqual(ids);
    expect(await idsInD1(device.deviceId)).toEqual([]);
  });

  it("run twice, or two runs at once: the second does nothing, and no row is lost or doubled", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const boxes = await Promise.all([farmerWithDevice(), farmerWithDevice(), farmerWithDevice()]);
    const written = new Map<string, number[]>();
    for (const { device } of boxes) {
      written.set(device.deviceId, await logsAt(device.deviceId, [cutoff - 3 * DAY, cutoff - 2 * DAY]));
    }
    // Two ticks at once (a slow one overlapping the next), each a row a step.
    const limits = { groups: 10, rowsPerGroup: 1 };
    await Promise.all([
      archiveOldMotorLogs(db, env.ARCHIVE, now, limits),
      archiveOldMotorLogs(db, env.ARCHIVE, now, limits),
    ]);
    while ((await archiveOldMotorLogs(db, env.ARCHIVE, now, limits)).rows > 0);
    const etags = new Map<string, string>();
    for (const [deviceId, ids] of written) {
      const key = motorLogArchiveKey(deviceId, istMonth(cutoff - 3 * DAY));
      expect(await idsInArchive(key)).toEqual(ids);
      expect(await idsInD1(deviceId)).toEqual([]);
      etags.set(key, (await env.ARCHIVE.head(key))!.etag);
    }
    expect(await runRetention(env, now)).toEqual({
      motorLogs: 0,
      motorLogMonths: 0,
      motorLogsMoved: 0,
      boxesMoved: 0,
      adminAudit: 0,
      phoneAlertDays: 0,
      phoneAlertMonths: 0,
      paymentEvents: 0,
      payments: 0,
      rechargeRequests: 0,
      planPeriods: 0,
      planReminders: 0,
    });
    for (const [key, etag] of etags) expect((await env.ARCHIVE.head(key))!.etag).toBe(etag);
  });

  it("a run whose object another run wrote in between deletes nothing, and the next run keeps both runs' rows", async () => {
    const now = Date.now();
    const cutoff = motorLogArchiveCutoff(now);
    const { device } = await farmerWithDevice();
    const ids = await logsAt(device.deviceId, [cutoff - 6 * DAY, cutoff - 5 * DAY]);
    const key = motorLogArchiveKey(device.deviceId, istMonth(cutoff - 6 * DAY));
    const group = await nextMotorLogGroup(db, now);
    // The other run: between this run's read and its write, it puts the object with a row of
    // its own (one this run never read), as an overlapping tick would.
    const [theirs] = await logsAt(device.deviceId, [cutoff - 4 * DAY]);
    const theirLine = `${JSON.stringify({
      ...(await db.select().from(motorLogs).where(eq(motorLogs.id, theirs!)))[0],
    })}\n`;
    const overlapping = new Proxy(env.ARCHIVE, {
      get(bucket, name) {
        if (name !== "put") return Reflect.get(bucket, name).bind(bucket);
        return async (...args: Parameters<R2Bucket["put"]>) => {
          await bucket.put(key, theirLine);
          return bucket.put(...args);
        };
      },
    });
    expect(await archiveMotorLogGroup(db, overlapping, group!, 500)).toEqual([]);
    await db.delete(motorLogs).where(eq(motorLogs.id, theirs!));
    expect(await idsInArchive(key)).toEqual([theirs]);
    expect(await idsInD1(device.deviceId)).toEqual(ids);

    await runRetention(env, now);
    expect(await idsInArchive(key)).toEqual([...ids, theirs]);
    expect(await idsInD1(device.deviceId)).toEqual([]);
  });
});
