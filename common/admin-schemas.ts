// Request bodies and queries of the admin API (SPEC §7, admin side), parsed by the Worker and
// reused by the admin pages. The shared ones (login, device-config, recharge status) stay in
// ./api-schemas.ts.

import { mobileNoSchema, motorConfigRequestSchema } from "./api-schemas.ts";
import { ADMIN_AUDIT_MAX_PAGE_SIZE, ADMIN_AUDIT_PAGE_SIZE } from "./constants.ts";
import { z } from "./zod.ts";

/** A user id as it appears in a path (`/api/admin/user/{id}`) or a JSON body. */
export const userIdSchema = z.coerce
  .number({ error: "Not a user id." })
  .int({ error: "Not a user id." })
  .positive({ error: "Not a user id." })
  .max(Number.MAX_SAFE_INTEGER, { error: "Not a user id." });

/** PUT /api/admin/update-user-role: the spec leaves the body open; this is ours. */
export const updateUserRoleRequestSchema = z
  .object({
    userId: userIdSchema,
    isAdmin: z.boolean({ error: "isAdmin must be true or false." }),
  })
  .strict();

/** DELETE /api/admin/delete-user (SPEC §7). */
export const deleteUserRequestSchema = z.object({ mobileNo: mobileNoSchema }).strict();

/** PUT /api/admin/update-motor-config (SPEC §7): the same ranges as the farmer's own call. */
export const adminMotorConfigRequestSchema = motorConfigRequestSchema
  .omit({ token: true })
  .extend({ mobileNo: mobileNoSchema });

/** A page number in a query (`?page=N`), the first is 1. */
const pageNumberSchema = z.coerce
  .number({ error: "page must be a whole number from 1." })
  .int({ error: "page must be a whole number from 1." })
  .min(1, { error: "page must be a whole number from 1." })
  .max(1_000_000, { error: "page must be a whole number from 1." })
  .default(1);

/** GET /api/admin/motor-logs?page=N: pages of ADMIN_LOGS_PAGE_SIZE, the first is 1. */
export const motorLogsPageQuerySchema = z.object({ page: pageNumberSchema });

/** An empty query field (`?target=` from a form left blank) means the field is absent. */
const blankAsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** GET /api/admin/audit?page=&limit=&adminId=&target=: the audit trail, newest first. */
export const auditQuerySchema = z.object({
  page: pageNumberSchema,
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${ADMIN_AUDIT_MAX_PAGE_SIZE}.` })
    .int({ error: `limit must be a whole number from 1 to ${ADMIN_AUDIT_MAX_PAGE_SIZE}.` })
    .min(1, { error: `limit must be a whole number from 1 to ${ADMIN_AUDIT_MAX_PAGE_SIZE}.` })
    .max(ADMIN_AUDIT_MAX_PAGE_SIZE, { error: `limit must be a whole number from 1 to ${ADMIN_AUDIT_MAX_PAGE_SIZE}.` })
    .default(ADMIN_AUDIT_PAGE_SIZE),
  adminId: z.preprocess(blankAsAbsent, userIdSchema.optional()),
  target: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .trim()
      .min(1, { error: "target must not be blank." })
      .max(80, { error: "target must be at most 80 characters." })
      .optional(),
  ),
});

/** GET /api/admin/telephony-usage: an IST month, 2026-11 (this month when left out). */
export const telephonyUsageQuerySchema = z.strictObject({
  month: z
    .string()
    .regex(/^20[0-9]{2}-(0[1-9]|1[0-2])$/, { error: "must be a month as 2026-11" })
    .optional(),
});
