import { Hono } from "hono";
import { adminLoginResponseSchema } from "../../../common/api-responses/accounts.ts";
import { messageResponseSchema } from "../../../common/api-responses/refusals.ts";
import { loginRequestSchema } from "../../../common/api-schemas.ts";
import { logIn } from "../../auth/accounts.ts";
import { clearedSessionCookie } from "../../auth/cookies.ts";
import { endSession } from "../../auth/sessions.ts";
import type { ApiEnv } from "../context.ts";
import { readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminAuthRoutes = new Hono<ApiEnv>()
  .post("/login", async (c) => {
    const input = await readJsonBody(c, loginRequestSchema);
    const { token, user, cookies } = await logIn(c.env, input, "admin", c.req.raw);
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
    return respond(c, adminLoginResponseSchema, { success: true, token, user });
  })
  .post("/logout", requireAuth("admin"), async (c) => {
    await endSession(c.env, c.var.user.sessionId);
    c.header("Set-Cookie", clearedSessionCookie(c.req.raw, "admin"));
    return respond(c, messageResponseSchema, { success: true, message: "Logged out successfully!" });
  });
