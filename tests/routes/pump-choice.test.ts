// Which pump the user pages show (app/pump-choice.server.ts): a notification's tap opens
// `/motor-control?pump=<id>`, and that pump is shown (and kept) if the farmer may see it; a pump
// they may not see is ignored, and the kept choice or their first pump is shown instead.
import { env } from "cloudflare:workers";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { choosePump, PUMP_COOKIE, pumpChoiceCookie } from "../../app/pump-choice.server.ts";
import { generateDeviceId } from "../../common/credentials.ts";
import { authenticateToken, startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, users } from "../../worker/db/schema.ts";
import { cloudflareContext } from "../../worker/http/router-context.ts";

const ORIGIN = "http://sinchai.test";

async function createUser() {
  const mobileNo = `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  const [row] = await getDb(env.DB)
    .insert(users)
    .values({ mobileNo, passwordHash: "not-a-hash", createdAt: Date.now() })
    .returning();
  return { id: row!.id };
}

async function provisionDevice(ownerUserId: number) {
  const deviceId = generateDeviceId();
  await getDb(env.DB)
    .insert(devices)
    .values({ id: deviceId, ownerUserId, kind: "3phase", keyHash: "not-a-hash", createdAt: Date.now() });
  return { deviceId };
}

function contextWithEnv() {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, {
    env,
    ctx: { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
  });
  return context;
}

describe("the pump a page shows", () => {
  it("is the one the address names, if the farmer may see it; else the kept choice", async () => {
    const user = await createUser();
    const [first, second] = [await provisionDevice(user.id), await provisionDevice(user.id)];
    const strangers = await provisionDevice((await createUser()).id);
    const farmer = (await authenticateToken(env, (await startSession(env, user.id, "user")).token, "user"))!;
    const request = (query: string, cookie?: string) =>
      new Request(`${ORIGIN}/motor-control${query}`, {
        headers: cookie ? { Cookie: `${PUMP_COOKIE}=${cookie}` } : {},
      });
    const chosen = async (query: string, cookie?: string) =>
      (await choosePump(request(query, cookie), contextWithEnv(), farmer)).chosen?.device.id;

    expect(await chosen("")).toBe(first.deviceId);
    expect(await chosen(`?pump=${second.deviceId}`)).toBe(second.deviceId);
    expect(await chosen(`?pump=${second.deviceId}`, first.deviceId)).toBe(second.deviceId);
    expect(await chosen(`?pump=${strangers.deviceId}`, second.deviceId)).toBe(second.deviceId);
    expect(await chosen("?pump=SNC-NOTABOX1", second.deviceId)).toBe(second.deviceId);

    // The choice an address made is kept for the next page; one already kept is not set again.
    const named = request(`?pump=${second.deviceId}`, first.deviceId);
    const cookie = pumpChoiceCookie(named, await choosePump(named, contextWithEnv(), farmer));
    expect(cookie).toContain(`${PUMP_COOKIE}=${second.deviceId}`);
    const kept = request(`?pump=${second.deviceId}`, second.deviceId);
    expect(pumpChoiceCookie(kept, await choosePump(kept, contextWithEnv(), farmer))).toBeNull();
    const refused = request(`?pump=${strangers.deviceId}`, first.deviceId);
    expect(pumpChoiceCookie(refused, await choosePump(refused, contextWithEnv(), farmer))).toBeNull();
  });
});
