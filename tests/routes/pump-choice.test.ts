// Which pump the user pages show (app/pump-choice.server.ts): a notification's tap opens
// `/motor-control?pump=<id>`, and that pump is shown (and kept) if the farmer may see it; a pump
// they may not see is ignored, and the kept choice or their first pump is shown instead.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { choosePump, PUMP_COOKIE, pumpChoiceCookie } from "../../app/pump-choice.server.ts";
import { authenticateToken, startSession } from "../../worker/auth/sessions.ts";
import { accountWithoutPassword, boxOf, ORIGIN, workerContext } from "./route-support.ts";

describe("the pump a page shows", () => {
  it("is the one the address names, if the farmer may see it; else the kept choice", async () => {
    const user = await accountWithoutPassword();
    const [first, second] = [await boxOf(user.id), await boxOf(user.id)];
    const strangers = await boxOf((await accountWithoutPassword()).id);
    const farmer = (await authenticateToken(env, (await startSession(env, user.id, "user")).token, "user"))!;
    const request = (query: string, cookie?: string) =>
      new Request(`${ORIGIN}/motor-control${query}`, {
        headers: cookie ? { Cookie: `${PUMP_COOKIE}=${cookie}` } : {},
      });
    const chosen = async (query: string, cookie?: string) =>
      (await choosePump(request(query, cookie), workerContext(), farmer)).chosen?.device.id;

    expect(await chosen("")).toBe(first);
    expect(await chosen(`?pump=${second}`)).toBe(second);
    expect(await chosen(`?pump=${second}`, first)).toBe(second);
    expect(await chosen(`?pump=${strangers}`, second)).toBe(second);
    expect(await chosen("?pump=SNC-NOTABOX1", second)).toBe(second);

    // The choice an address made is kept for the next page; one already kept is not set again.
    const named = request(`?pump=${second}`, first);
    const cookie = pumpChoiceCookie(named, await choosePump(named, workerContext(), farmer));
    expect(cookie).toContain(`${PUMP_COOKIE}=${second}`);
    const kept = request(`?pump=${second}`, second);
    expect(pumpChoiceCookie(kept, await choosePump(kept, workerContext(), farmer))).toBeNull();
    const refused = request(`?pump=${strangers}`, first);
    expect(pumpChoiceCookie(refused, await choosePump(refused, workerContext(), farmer))).toBeNull();
  });
});
