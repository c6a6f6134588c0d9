import { Hono } from "hono";
import { translateApi } from "../../app/i18n/api.ts";
import { changePasswordResponseSchema, loginResponseSchema } from "../../common/api-responses/accounts.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { changePasswordRequestSchema, loginRequestSchema, registerRequestSchema } from "../../common/api-schemas.ts";
import { changePassword, logIn, registerAccount } from "../auth/accounts.ts";
import { clearedSessionCookie } from "../auth/cookies.ts";
import { endSession } from "../auth/sessions.ts";
import { auditInput, auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

export const authRoutes = new Hono<ApiEnv>()
  .post("/register", async (c) => {
    const input = await readJsonBody(c, registerRequestSchema);
    await registerAccount(c.env, input, c.req.raw);
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
