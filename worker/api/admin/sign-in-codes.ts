// POST /api/admin/users/{id}/sign-in-code: support helps a farmer back in (docs/admin-area.md).
// The code goes by SMS to the account's own number, never to the admin, under the number's own
// throttle (three an hour, whoever asks); the audit trail records who sent which kind of code
// to whom. A number not verified yet gets a code to set a new password instead, since a code
// signs in only a verified number (docs/decisions/027-verified-numbers.md).
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { userIdSchema } from "../../../common/admin-schemas.ts";
import { signInCodeResponseSchema } from "../../../common/api-responses/admin.ts";
import { translateApi } from "../../../common/i18n/api.ts";
import { sendAccountCode } from "../../auth/code-delivery.ts";
import { getDb } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { apiError } from "../../http/http-error.ts";
import { auditInput, auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { apiLanguage } from "../language.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const adminSignInCodeRoutes = new Hono<ApiEnv>().post(
  "/users/:id/sign-in-code",
  requireAuth("admin"),
  async (c) => {
    const id = parseInput(userIdSchema, c.req.param("id"));
    auditTarget(c, `user:${id}`);
    const account = await getDb(c.env.DB).query.users.findFirst({
      columns: { mobileNo: true, numberVerifiedAt: true },
      where: eq(users.id, id),
    });
    if (!account) throw apiError(404, "userNotFound");
    auditTarget(c, account.mobileNo);
    const purpose = account.numberVerifiedAt === null ? "resetPassword" : "signIn";
    auditInput(c, { purpose });
    // Not the admin's address: the farmer's number is what is throttled. The farmer's language
    // is not known: Hindi, the app's own default.
    const { expiresInSeconds } = await sendAccountCode(c.env, {
      purpose,
      mobileNo: account.mobileNo,
      client: null,
      language: "hi",
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
    });
    return respond(c, signInCodeResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.signInCodeSent"),
      purpose,
      expiresInSeconds,
    });
  },
);
