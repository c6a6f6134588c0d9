// The /admin/users page's search without JavaScript (`?q=` from its GET form): by a number as
// people write it, or by the id on a box's sticker, which also lists the box (one in stock too).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loader } from "../../app/routes/admin/users.tsx";
import { startSession } from "../../worker/auth/sessions.ts";
import { accountWithoutPassword, boxOf, ORIGIN, signedInContext } from "./route-support.ts";

async function search(q: string) {
  const admin = await accountWithoutPassword(true);
  const context = await signedInContext((await startSession(env, admin.id, "admin")).token, "admin");
  const request = new Request(`${ORIGIN}/admin/users?${new URLSearchParams({ q })}`);
  return loader({ request, context, params: {} } as unknown as Parameters<typeof loader>[0]);
}

describe("the users page's search", () => {
  it("finds an account by its number written with spaces and +91, and lists its box", async () => {
    const farmer = await accountWithoutPassword();
    const boxId = await boxOf(farmer.id);
    const page = await search(`+91 ${farmer.mobileNo.slice(0, 5)} ${farmer.mobileNo.slice(5)}`);
    expect(page.q).toBe(`+91 ${farmer.mobileNo.slice(0, 5)} ${farmer.mobileNo.slice(5)}`);
    expect(page.data?.users.map((user) => user.mobileNo)).toEqual([farmer.mobileNo]);
    expect(page.data?.boxes).toEqual([
      { id: boxId, kind: "3phase", ownerUserId: farmer.id, ownerMobileNo: farmer.mobileNo, online: false },
    ]);
  });

  it("finds a box in stock by the id on its sticker, typed in small letters: no account, the box", async () => {
    const stock = await boxOf(null);
    const page = await search(stock.toLowerCase());
    expect(page.data?.users).toEqual([]);
    expect(page.data?.boxes).toEqual([
      { id: stock, kind: "3phase", ownerUserId: null, ownerMobileNo: null, online: false },
    ]);
  });

  it("without a search lists every account and no boxes; a search that is neither finds nothing", async () => {
    const farmer = await accountWithoutPassword();
    const all = await search("");
    expect(all.data?.users.map((user) => user.mobileNo)).toContain(farmer.mobileNo);
    expect(all.data?.boxes).toEqual([]);
    expect((await search("Ram's pump")).data).toMatchObject({ users: [], boxes: [] });
    expect((await search("9".repeat(41))).data).toMatchObject({ users: [], boxes: [] });
  });
});
