// The admin audit trail in D1 (docs/decisions/007-admin-audit-trail.md): appended by
// worker/services/record-admin-action.ts, read a page at a time by GET /api/admin/audit and /admin/audit.
import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "./client.ts";
import { adminAudit, users } from "./schema.ts";

export type NewAuditEntry = typeof adminAudit.$inferInsert;

export async function insertAuditEntry(db: Db, entry: NewAuditEntry): Promise<void> {
  await db.insert(adminAudit).values(entry);
}

/** One entry as the API and the page show it. */
export type AuditEntry = {
  id: number;
  createdAt: string;
  adminUserId: number | null;
  adminMobileNo: string | null;
  action: string;
  target: string | null;
  status: number;
  details: Record<string, unknown>;
  clientIp: string | null;
  userAgent: string | null;
};

export type AuditPage = { entries: AuditEntry[]; page: number; pageSize: number; total: number; totalPages: number };

export type AuditFilter = { adminId?: number | undefined; target?: string | undefined };

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { unreadable: text };
  }
}

/**
 * Page `page` (from 1) of the entries matching `filter`, newest first. Like the motor logs, a
 * page past the end gives the last page.
 */
export async function listAuditEntries(
  db: Db,
  filter: AuditFilter,
  page: number,
  pageSize: number,
): Promise<AuditPage> {
  const conditions: SQL[] = [];
  if (filter.adminId !== undefined) conditions.push(eq(adminAudit.adminUserId, filter.adminId));
  if (filter.target !== undefined) conditions.push(eq(adminAudit.target, filter.target));
  const where = conditions.length ? and(...conditions) : undefined;
  const [totalRow] = await db.select({ value: count() }).from(adminAudit).where(where);
  const total = totalRow?.value ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, totalPages);
  // By id, not createdAt: ids grow with time and the filters' indexes end in id.
  const rows = await db
    .select()
    .from(adminAudit)
    .where(where)
    .orderBy(desc(adminAudit.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  return {
    entries: rows.map((row) => ({
      ...row,
      createdAt: new Date(row.createdAt).toISOString(),
      details: parseDetails(row.details),
    })),
    page: current,
    pageSize,
    total,
    totalPages,
  };
}

/**
 * The mobile numbers of the accounts `ids` (the trail's `user:12` targets), so that a page
 * names an account by the number people know it by; an account deleted since is left out.
 */
export async function accountNumbers(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, mobileNo: users.mobileNo })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((row) => [row.id, row.mobileNo]));
}
