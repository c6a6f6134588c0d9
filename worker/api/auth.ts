import { Hono } from "hono";
import { loginRequestSchema, registerRequestSchema } from "../../common/api-schemas.ts";
import { translateApi } from "../../app/i18n/api.ts";
import { logIn, registerAccount } from "../auth/accounts.ts";
import { clearedSessionCookie } from "../auth/cookies.ts";
import { endSession } from "../auth/sessions.ts";
import type { ApiEnv } from "./context.ts";
import { readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";

export const authRoutes = new Hono<ApiEnv>()
  .post("/register", async (c) => {
    const input = await readJsonBody(c, registerRequestSchema);
    await registerAccount(c.env, input, c.req.raw);
    return c.json({ success: true, message: translateApi(apiLanguage(c.req.raw), "api.registered") }, 201);
  })
  .post("/login", async (c) => {
    const input = await readJsonBody(c, loginRequestSchema);
    const { token, user, cookies } = await logIn(c.env, input, "user", c.req.raw);
    for (const cookie of cookies) c.header("Set-Cookie", cookie, { append: true });
    return c.json({ success: true, message: "Login successful.", token, user });
  })
  .post("/logout", requireAuth("user"), async (c) => {
    await endSession(c.env, c.var.user.sessionId);
    c.header("Set-Cookie", clearedSessionCookie(c.req.raw, "user"));
    return c.json({ success: true, message: "Logged out successfully!" });
  });
