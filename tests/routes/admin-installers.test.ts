// The admin's installers page (/admin/installers) as a form without JavaScript posts it: make a
// verified account an installer (an unverified one refused in words), give boxes and take unused
// ones back (typed as on the sticker, in any case, one a line), set a region, tag boxes; every
// post through the API's services and on the audit trail under the page's action, refusals too.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { action, loader } from "../../app/routes/admin/installers/route.tsx";
import { startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { adminAudit, devices, installerStock, installers, users } from "../../worker/db/schema.ts";
import { accountWithoutPassword, accountWithPassword, boxOf, formPost, signedInContext } from "./route-support.ts";

type Result = { data: unknown; init: { status?: number } | null };

async function adminPage() {
  const admin = await accountWithoutPassword(true);
  const context = await signedInContext((await startSession(env, admin.id, "admin")).token, "admin");
  const post = async (fields: Record<string, string>, origin?: string) =>
    (await action({
      request: formPost("/admin/installers", fields, origin),
      params: {},
      context,
    } as unknown as Parameters<typeof action>[0])) as Result;
  const load = async () =>
    ((await loader({ params: {}, context } as unknown as Parameters<typeof loader>[0])) as Result).data as {
      data: { userId: number; region: string | null; stock: string[]; stockCount: number }[];
    };
  return { admin, post, load };
}

async function trailOf(adminId: number) {
  return getDb(env.DB)
    .select({
      action: adminAudit.action,
      status: adminAudit.status,
      target: adminAudit.target,
      details: adminAudit.details,
    })
    .from(adminAudit)
    .where(eq(adminAudit.adminUserId, adminId))
    .orderBy(adminAudit.id);
}

describe("the admin's installers page", () => {
  it("makes a verified account an installer, gives and takes back boxes and sets a region, each on the trail", async () => {
    const page = await adminPage();
    const electrician = await accountWithPassword(true);
    const made = await page.post({
      intent: "makeInstaller",
      mobileNo: electrician.mobileNo,
      name: "Ramesh Electricals",
    });
    expect(made.init?.status).toBe(201);
    expect(made.data).toMatchObject({
      ok: true,
      intent: "makeInstaller",
      userId: electrician.id,
      name: "Ramesh Electricals",
    });

    const first = await boxOf(null);
    const second = await boxOf(null);
    const linked = await boxOf((await accountWithoutPassword()).id);
    // As typed from stickers: lower case, without the prefix, one a line.
    const typed = `${first.toLowerCase()}\n${second.slice(4)}, ${linked}`;
    const given = await page.post({ intent: "giveStock", userId: String(electrician.id), deviceIds: typed });
    expect(given.data).toMatchObject({ ok: true, leftOut: [linked] });
    expect([...(given.data as { done: string[] }).done].sort()).toEqual([first, second].sort());

    const back = await page.post({ intent: "takeBackStock", userId: String(electrician.id), deviceIds: second });
    expect(back.data).toMatchObject({ ok: true, done: [second], leftOut: [] });
    const stock = await getDb(env.DB)
      .select()
      .from(installerStock)
      .where(eq(installerStock.installerUserId, electrician.id));
    expect(stock.map((row) => row.deviceId)).toEqual([first]);

    const region = await page.post({ intent: "setRegion", userId: String(electrician.id), region: " Bara  Banki " });
    expect(region.data).toMatchObject({ ok: true, region: "bara banki" });
    expect(
      (await getDb(env.DB).query.installers.findFirst({ where: eq(installers.userId, electrician.id) }))?.region,
    ).toBe("bara banki");
    const tagged = await page.post({ intent: "tagBoxes", deviceIds: `${second} ${linked}`, region: "Bara Banki" });
    expect(tagged.data).toMatchObject({ ok: true, done: [second], leftOut: [linked] });
    expect((await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, second) }))?.region).toBe("bara banki");

    const listed = (await page.load()).data.find((row) => row.userId === electrician.id);
    expect(listed).toMatchObject({ region: "bara banki", stock: [first], stockCount: 1 });

    expect((await trailOf(page.admin.id)).map(({ action, status, target }) => [action, status, target])).toEqual([
      ["POST /admin/installers makeInstaller", 201, `user:${electrician.id}`],
      ["POST /admin/installers giveStock", 200, `user:${electrician.id}`],
      ["POST /admin/installers takeBackStock", 200, `user:${electrician.id}`],
      ["POST /admin/installers setRegion", 200, `user:${electrician.id}`],
      ["POST /admin/installers tagBoxes", 200, null],
    ]);
  });

  it("refuses in words, writing nothing: an unverified number, a bad box id, a bad region, no installer, another site", async () => {
    const page = await adminPage();
    const unverified = await accountWithPassword(false);
    const refused = await page.post({ intent: "makeInstaller", mobileNo: unverified.mobileNo, name: "A" });
    expect(refused.init?.status).toBe(409);
    expect(refused.data).toMatchObject({ ok: false, error: "admin.installers.error.numberNotVerified" });
    expect(
      await getDb(env.DB).query.installers.findFirst({ where: eq(installers.userId, unverified.id) }),
    ).toBeUndefined();

    const farmer = await accountWithPassword(true);
    const notInstaller = await page.post({
      intent: "giveStock",
      userId: String(farmer.id),
      deviceIds: await boxOf(null),
    });
    expect(notInstaller.init?.status).toBe(404);
    expect(notInstaller.data).toMatchObject({ ok: false, error: "admin.installers.error.notAnInstaller" });

    await page.post({ intent: "makeInstaller", mobileNo: farmer.mobileNo, name: "B" });
    const badId = await page.post({ intent: "giveStock", userId: String(farmer.id), deviceIds: "SNC-12, hello" });
    expect(badId.init?.status).toBe(400);
    expect(badId.data).toMatchObject({
      ok: false,
      error: "admin.installers.error.badBoxIds",
      values: { ids: "SNC-12, SNC-HELLO" },
    });
    const badRegion = await page.post({ intent: "setRegion", userId: String(farmer.id), region: "<script>" });
    expect(badRegion.data).toMatchObject({ ok: false, error: "admin.installers.error.badRegion" });
    expect(
      (await getDb(env.DB).query.installers.findFirst({ where: eq(installers.userId, farmer.id) }))?.region,
    ).toBeNull();

    const crossSite = await page.post(
      { intent: "setRegion", userId: String(farmer.id), region: "sitapur" },
      "https://evil.example",
    );
    expect(crossSite.init?.status).toBe(403);
    expect(
      (await getDb(env.DB).query.installers.findFirst({ where: eq(installers.userId, farmer.id) }))?.region,
    ).toBeNull();

    // Refusals are on the trail with their reason.
    const trail = await trailOf(page.admin.id);
    expect(
      trail.find((row) => row.action === "POST /admin/installers makeInstaller" && row.status === 409)?.details,
    ).toContain("numberNotVerified");
    const account = await getDb(env.DB).query.users.findFirst({ where: and(eq(users.id, unverified.id)) });
    expect(account?.numberVerifiedAt).toBeNull();
  });
});
