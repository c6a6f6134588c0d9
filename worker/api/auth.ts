import { type Context, Hono } from "hono";
import {
  changePasswordResponseSchema,
  codeRequestResponseSchema,
  loginResponseSchema,
  resetPasswordResponseSchema,
} from "../../common/api-responses/accounts.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import {
  changePasswordRequestSchema,
  codeLoginRequestSchema,
  codeRequestSchema,
  loginRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  verifyNumberRequestSchema,
} from "../../common/api-schemas.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { changePassword, logIn, registerAccount } from "../auth/accounts.ts";
import { logInWithCode, resetPasswordWithCode, verifyOwnNumber } from "../auth/code-accounts.ts";
import { type CodeSending, sendAccountCode } from "../auth/code-delivery.ts";
import { clearedSessionCookie } from "../auth/cookies.ts";
import { endSession } from "../auth/sessions.ts";
import { authClientOf } from "../auth/throttle.ts";
import { auditInput, auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** A code's SMS leaves after the answer, in the caller's language. */
function codeSending(c: Context<ApiEnv>): CodeSending {
  return { waitUntil: (promise) => c.executionCtx.waitUntil(promise), language: apiLanguage(c.req.raw) };
}

export const authRoutes = new Hono<ApiEnv>()
  .post("/register", async (c) => {
    const input = await readJsonBody(c, registerRequestSchema);
    await registerAccount(c.env, input, codeSending(c), c.req.raw);
    return respond(
      c,
      messageResponseSchema,
      { success: true, message: translateApi(apiLanguage(c.req.raw), "api.registered") },
      201,
    );
  })
  .post("/login", async (c) => {
    const input = await readJsonBody(c, loginRequestSchema);
    const { token, user, cookies } = await logIn(c.env, input, "user", c.req.raw);
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
    return respond(c, loginResponseSchema, { success: true, message: "Login successful.", token, user });
  })
  // The same answer for every number (docs/telephony.md, "Verified numbers"): whether the SMS
  // goes out is decided after it.
  .post("/codes", async (c) => {
    const input = await readJsonBody(c, codeRequestSchema);
    const client = await authClientOf(c.env, c.req.raw);
    const answer = await sendAccountCode(c.env, { ...input, client, ...codeSending(c) });
    const message = translateApi(apiLanguage(c.req.raw), "api.codeRequested");
    return respond(c, codeRequestResponseSchema, { success: true, message, ...answer });
  })
  .post("/verify-number", requireAuth("user"), async (c) => {
    const { code } = await readJsonBody(c, verifyNumberRequestSchema);
    await verifyOwnNumber(c.env, c.var.user, code, c.req.raw);
    const message = translateApi(apiLanguage(c.req.raw), "api.numberVerified");
    return respond(c, messageResponseSchema, { success: true, message });
  })
  .post("/login-code", async (c) => {
    const input = await readJsonBody(c, codeLoginRequestSchema);
    const { token, user, cookies } = await logInWithCode(c.env, input, c.req.raw);
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
    return respond(c, loginResponseSchema, { success: true, message: "Login successful.", token, user });
  })
  .post("/reset-password", async (c) => {
    const input = await readJsonBody(c, resetPasswordRequestSchema);
    const { token, user, cookies, endedSessions } = await resetPasswordWithCode(c.env, input, c.req.raw);
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
    const message = translateApi(apiLanguage(c.req.raw), "api.passwordReset");
    return respond(c, resetPasswordResponseSchema, { success: true, message, token, user, endedSessions });
  })
  // Any signed-in account, from either area; the calling session stays, every other one ends.
  .post("/change-password", requireAuth("user", "admin"), async (c) => {
    const input = await readJsonBody(c, changePasswordRequestSchema);
    // An admin's change is on the audit trail: who and when, never the passwords.
    auditInput(c, {});
    auditTarget(c, c.var.user.mobileNo);
    const { endedSessions } = await changePassword(c.env, c.var.user, input, c.req.raw);
    return respond(c, changePasswordResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.passwordChanged"),
      endedSessions,
    });
  })
  .post("/logout", requireAuth("user"), async (c) => {
    await endSession(c.env, c.var.user.sessionId);
    c.header("Set-Cookie", clearedSessionCookie(c.req.raw, "user"));
    return respond(c, messageResponseSchema, { success: true, message: "Logged out successfully!" });
  });
