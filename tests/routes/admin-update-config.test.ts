// The admin's settings page (/admin/users/{id}/update-config) without JavaScript, for an account
// that has no box yet: it offers SPEC's three numbers and no voltage limits, and its form keeps
// them for the account's first box (worker/services/motor-config.ts `changeAccountMotorConfig`),
// on the audit trail like any admin write.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action, loader } from "../../app/routes/admin/update-config.tsx";
import { startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { adminAudit, firstBoxSettings } from "../../worker/db/schema.ts";
import { accountWithoutPassword, formPost, signedInContext } from "./route-support.ts";

async function adminPageContext() {
  const admin = await accountWithoutPassword(true);
  return signedInContext((await startSession(env, admin.id, "admin")).token, "admin");
}

type Result = { data: unknown; init: { status?: number } | null };

describe("the admin's settings page for an account without a box", () => {
  it("shows SPEC's three numbers only, and its form keeps them for the first box", async () => {
    const context = await adminPageContext();
    const farmer = await accountWithoutPassword();
    const params = { userId: String(farmer.id) };
    const page = (await loader({ params, context } as unknown as Parameters<typeof loader>[0])) as Result;
    expect(page.data).toMatchObject({ data: { hasBox: false, defaultCurrent: 1 } });

    const request = formPost(`/admin/users/${farmer.id}/update-config`, {
      defaultCurrent: "8.9",
      dryRunThreshold: "25",
      overCurrentThreshold: "40",
    });
    const posted = (await action({ request, params, context } as unknown as Parameters<typeof action>[0])) as Result;
    expect(posted.init?.status ?? 200).toBe(200);
    expect(posted.data).toEqual({ ok: true, deliveredToDevice: false, keptForFirstBox: true });
    const kept = await getDb(env.DB).query.firstBoxSettings.findFirst({
      where: eq(firstBoxSettings.userId, farmer.id),
    });
    expect(kept).toMatchObject({ defaultCurrent: 8.9, dryRunThreshold: 25, overCurrentThreshold: 40 });
    const trail = await getDb(env.DB).query.adminAudit.findFirst({ where: eq(adminAudit.target, farmer.mobileNo) });
    expect(trail).toMatchObject({ action: "POST /admin/users/:userId/update-config", status: 200 });

    const again = (await loader({ params, context } as unknown as Parameters<typeof loader>[0])) as Result;
    expect(again.data).toMatchObject({ data: { hasBox: false, defaultCurrent: 8.9, dryRunThreshold: 25 } });
  });
});
