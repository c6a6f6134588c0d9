// Answers of /api/auth/* and /api/admin/login (common/api-responses/refusals.ts says how these are used).
import { z } from "../zod-mini.ts";

/** The public shape of a user in login answers. */
export const publicUserSchema = z.object({ id: z.int(), mobileNo: z.string(), isAdmin: z.boolean() });
export type PublicUser = z.infer<typeof publicUserSchema>;

/** POST /api/auth/login (register and logout answer messageResponseSchema). */
export const loginResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
  user: publicUserSchema,
});

/** POST /api/admin/login (SPEC §7: success, token, user; no message). */
export const adminLoginResponseSchema = z.object({
  success: z.literal(true),
  token: z.string(),
  user: publicUserSchema,
});

/** POST /api/auth/change-password: how many other sessions it ended. */
export const changePasswordResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  endedSessions: z.int(),
});
