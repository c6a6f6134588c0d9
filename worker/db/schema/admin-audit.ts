import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { autoIncrementId, timestamp } from "./columns.ts";

/**
 * One row per admin write (docs/decisions/007-admin-audit-trail.md): who, what, on what, with
 * which outcome. Append-only. No foreign keys on purpose: deleting an account must neither
 * delete nor rewrite the record of what that admin did (AUTOINCREMENT never reuses an id, so
 * `adminUserId` keeps naming the same account), and `adminMobileNo` is the number at the time.
 */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: autoIncrementId(),
    createdAt: timestamp("created_at").notNull(),
    /** Null for a failed admin login: nobody was authenticated. */
    adminUserId: integer("admin_user_id"),
    adminMobileNo: text("admin_mobile_no"),
    /** The route pattern (`PUT /api/admin/update-user-role`), or `admin login`. */
    action: text("action").notNull(),
    /** A mobile number or device id as is; other records as `user:12`, `recharge:7`, `firmware:wifi/1.2.0`. */
    target: text("target"),
    status: integer("status").notNull(),
    /** JSON: the validated, non-secret request fields, or why the write was refused. Capped. */
    details: text("details").notNull(),
    clientIp: text("client_ip"),
    userAgent: text("user_agent"),
  },
  (table) => [
    index("admin_audit_admin_idx").on(table.adminUserId, table.id),
    index("admin_audit_target_idx").on(table.target, table.id),
  ],
);

export type AdminAuditRow = typeof adminAudit.$inferSelect;
