// The admin trail past its months in D1 goes to R2, one NDJSON object per IST month
// (`admin-audit/<YYYY-MM>.ndjson`): nothing an admin did is ever deleted, only moved. The
// /admin/audit page reads D1's months; operators read older ones from the bucket.
import { asc } from "drizzle-orm";
import { istDayStart } from "../../common/pump-usage.ts";
import { z } from "../../common/zod.ts";
import type { Db } from "../db/client.ts";
import { type AdminAuditRow, adminAudit } from "../db/schema.ts";
import { istMonth } from "../services/telephony-usage.ts";
import { archiveRows } from "./archive-objects.ts";
import { deleteArchivedRows } from "./delete-archived.ts";

/** About 13 months: a year's trail, and the month before it, on the admin's page. */
export const ADMIN_AUDIT_IN_D1_DAYS = 400;

const archivedAuditSchema = z.object({
  id: z.number().int().positive(),
  createdAt: z.number().int(),
  adminUserId: z.number().int().nullable(),
  adminMobileNo: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  status: z.number().int(),
  details: z.string(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
}) satisfies z.ZodType<AdminAuditRow>;

export function adminAuditArchiveKey(month: string): string {
  return `admin-audit/${month}.ndjson`;
}

/** Rows created before the start of the IST month `ADMIN_AUDIT_IN_D1_DAYS` ago are archived. */
export function adminAuditArchiveCutoff(now: number): number {
  return istDayStart(`${istMonth(now - ADMIN_AUDIT_IN_D1_DAYS * 24 * 60 * 60_000)}-01`);
}

/**
 * One tick: the oldest `limit` rows by id (the trail is written in time order, so the primary
 * key finds them without an index on time), those past the cutoff copied to their months'
 * objects, then deleted from D1. Rows of a month another run is writing stay for the next tick.
 */
export async function archiveOldAdminAudit(
  db: Db,
  bucket: R2Bucket,
  now: number,
  limit = 500,
): Promise<{ rows: number }> {
  const cutoff = adminAuditArchiveCutoff(now);
  // Most minutes nothing is due: one row read says so.
  const [first] = await db
    .select({ createdAt: adminAudit.createdAt })
    .from(adminAudit)
    .orderBy(asc(adminAudit.id))
    .limit(1);
  if (!first || first.createdAt >= cutoff) return { rows: 0 };
  const oldest = await db.select().from(adminAudit).orderBy(asc(adminAudit.id)).limit(limit);
  const due = oldest.filter((row) => row.createdAt < cutoff);
  const byMonth = new Map<string, AdminAuditRow[]>();
  for (const row of due) byMonth.set(istMonth(row.createdAt), [...(byMonth.get(istMonth(row.createdAt)) ?? []), row]);
  const archived: number[] = [];
  for (const [month, rows] of byMonth) {
    if (await archiveRows(bucket, adminAuditArchiveKey(month), rows, archivedAuditSchema)) {
      archived.push(...rows.map((row) => row.id));
    }
  }
  await deleteArchivedRows(db, adminAudit, archived);
  return { rows: archived.length };
}
