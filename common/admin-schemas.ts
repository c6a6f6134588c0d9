// Request bodies and queries of the admin API (SPEC §7, admin side), parsed by the Worker and
// reused by the admin pages. The shared ones (login, device-config, recharge status) stay in
// ./api-schemas.ts.

import { mobileNoSchema, motorConfigRequestSchema } from "./api-schemas.ts";
import { ADMIN_AUDIT_MAX_PAGE_SIZE, ADMIN_AUDIT_PAGE_SIZE } from "./constants.ts";
import { deviceIdSchema } from "./pump-schemas.ts";
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

/** An empty query field (`?target=` from a form left blank) means the field is absent. */
const blankAsAbsent = (value: unknown) => (value === "" ? undefined : value);

const LOG_FILTER_MESSAGE = "Give mobileNo (a farmer) or deviceId (a box), one of the two.";

/**
 * GET /api/admin/motor-logs?mobileNo= or ?deviceId=, and `before` (the last id of the page
 * before) for the next page, and /admin/logs with the same query: one farmer's boxes or one
 * box, newest first. Never the whole fleet: a box's history lives in its hub, so a list of
 * every box's would read every hub (docs/decisions/045-history-lives-with-its-box.md). A box's
 * id is taken as people type it off the sticker: any case, spaces around it.
 */
export const adminMotorLogsQuerySchema = z
  .object({
    mobileNo: z.preprocess(blankAsAbsent, mobileNoSchema.optional()),
    deviceId: z.preprocess(
      (value) => (typeof value === "string" ? blankAsAbsent(value.trim().toUpperCase()) : value),
      deviceIdSchema.optional(),
    ),
    before: z.preprocess(
      blankAsAbsent,
      z.coerce
        .number({ error: "before must be a log id." })
        .int({ error: "before must be a log id." })
        .positive({ error: "before must be a log id." })
        .max(Number.MAX_SAFE_INTEGER, { error: "before must be a log id." })
        .optional(),
    ),
  })
  .refine((query) => (query.mobileNo === undefined) !== (query.deviceId === undefined), {
    error: LOG_FILTER_MESSAGE,
  })
  .transform(({ mobileNo, deviceId, before }): { filter: AdminMotorLogFilter; before: number | undefined } => ({
    filter: mobileNo === undefined ? { deviceId: deviceId! } : { mobileNo },
    before,
  }));

/** Whom a page of the admin's motor log is about: a farmer's boxes, or one box. */
export type AdminMotorLogFilter = { mobileNo: string } | { deviceId: string };

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

/**
 * What an admin typed in the fleet search: part of a mobile number (as people write one:
 * spaces, dashes, +91 or a leading 0) and/or part of a box's id as printed on its sticker
 * (`SNC-` optional, any case). Digits alone may be either. Anything else finds nothing.
 */
export type FleetSearch = { digits: string | null; boxIdPart: string | null };

export function fleetSearchOf(text: string): FleetSearch {
  if (/^\+?[\d\s-]+$/.test(text)) {
    let digits = text.replace(/\D/g, "");
    if (digits.length === 12 && digits.startsWith("91")) digits = digits.slice(2);
    else if (digits.length === 11 && digits.startsWith("0")) digits = digits.slice(1);
    return { digits: digits || null, boxIdPart: /^\d+$/.test(text) ? digits : null };
  }
  const box = /^(?:SNC-?)?([A-Z0-9]*)$/.exec(text.toUpperCase());
  return { digits: null, boxIdPart: box ? box[1]! : null };
}

/** GET /api/admin/users?q= and /api/admin/devices?q= (and /admin/users?q=): all, or those the search finds. */
export const fleetSearchQuerySchema = z.object({
  q: z.preprocess(
    blankAsAbsent,
    z
      .string()
      .trim()
      .max(40, { error: "q must be at most 40 characters." })
      .transform((text) => (text === "" ? undefined : fleetSearchOf(text)))
      .optional(),
  ),
});
