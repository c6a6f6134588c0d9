// Answers of /api/auth/* and /api/admin/login (common/api-responses/refusals.ts says how these are used).
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/** The public shape of a user in login answers. */
export const publicUserSchema = z.object({ id: z.int(), mobileNo: z.string(), isAdmin: z.boolean() });
export type PublicUser = z.infer<typeof publicUserSchema>;

/** POST /api/auth/login and POST /api/auth/login-code (register, logout and verify-number answer messageResponseSchema). */
export const loginResponseSchema = successSchema({
  message: z.string(),
  token: z.string(),
  user: publicUserSchema,
});

/** POST /api/admin/login (SPEC §7: success, token, user; no message). */
export const adminLoginResponseSchema = successSchema({
  token: z.string(),
  user: publicUserSchema,
});

/** POST /api/auth/change-password: how many other sessions it ended. */
export const changePasswordResponseSchema = successSchema({
  message: z.string(),
  endedSessions: z.int(),
});

/**
 * POST /api/auth/codes: the same answer for every number, whether or not a code goes out
 * (docs/telephony.md, "Verified numbers"). How long a code works, and how many digits it has.
 */
export const codeRequestResponseSchema = successSchema({
  message: z.string(),
  expiresInSeconds: z.int(),
  codeLength: z.int(),
});

/**
 * POST /api/auth/reset-password: signed in with the new password, as a login answers, and how
 * many sessions of the account the reset ended (all it had).
 */
export const resetPasswordResponseSchema = successSchema({
  message: z.string(),
  token: z.string(),
  user: publicUserSchema,
  endedSessions: z.int(),
});
