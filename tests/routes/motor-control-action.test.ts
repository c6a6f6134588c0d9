// The dashboard's action (/motor-control) as a browser without JavaScript posts to it, and as an
// attacker would: the switch's form names no intent and reaches the hub (whose answer comes back,
// here that the box is offline); a post that names an intent, an unknown command, another site's
// post and a pump the farmer cannot see are refused before anything reaches a hub.
import { env } from "cloudflare:workers";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { choosePump, pumpContext } from "../../app/pump-choice.server.ts";
import { action } from "../../app/routes/motor-control/route.tsx";
import { userContext } from "../../app/user-context.ts";
import { generateDeviceId } from "../../common/credentials.ts";
import { authenticateToken, startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, users } from "../../worker/db/schema.ts";
import { cloudflareContext } from "../../worker/http/router-context.ts";
import { formPost, ORIGIN } from "./route-support.ts";

/** A farmer signed in, owning a box that never connected (route tests make their own rows). */
async function farmerWithBox() {
  const mobileNo = `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  const [user] = await getDb(env.DB)
    .insert(users)
    .values({ mobileNo, passwordHash: "unused", createdAt: Date.now() })
    .returning();
  const deviceId = generateDeviceId();
  await getDb(env.DB)
    .insert(devices)
    .values({ id: deviceId, ownerUserId: user!.id, kind: "3phase", keyHash: "unused", createdAt: Date.now() });
  const { token } = await startSession(env, user!.id, "user");
  return { token, deviceId };
}

/** The router context the user shell gives the page: the platform, the signed-in farmer, the pump chosen. */
async function contextOf(token: string, request: Request) {
  const context = new RouterContextProvider();
  context.set(cloudflareContext, {
    env,
    ctx: { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
  });
  const user = (await authenticateToken(env, token, "user"))!;
  context.set(userContext, user);
  context.set(pumpContext, await choosePump(request, context, user));
  return context;
}

async function post(token: string, fields: Record<string, string>, origin = ORIGIN) {
  const request = formPost("/motor-control", fields, origin);
  const result = (await action({
    request,
    params: {},
    context: await contextOf(token, request),
  } as unknown as Parameters<typeof action>[0])) as unknown as {
    data: { command: { ok: boolean; code?: string } };
    init: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, command: result.data.command };
}

describe("the dashboard's switch, posted without JavaScript", () => {
  it("reaches the hub when the form names no intent, and the hub's answer comes back", async () => {
    const farmer = await farmerWithBox();
    expect(await post(farmer.token, { command: "on", pump: farmer.deviceId })).toEqual({
      status: 200,
      command: { ok: false, code: "offline" },
    });
    expect(await post(farmer.token, { command: "off", pump: farmer.deviceId })).toMatchObject({
      status: 200,
      command: { ok: false, code: "offline" },
    });
  });

  it("refuses a post naming an intent, or a command that is not ON or OFF, before any hub", async () => {
    const farmer = await farmerWithBox();
    for (const intent of ["config", "switch", "on"])
      expect(await post(farmer.token, { intent, command: "on", pump: farmer.deviceId }), intent).toEqual({
        status: 400,
        command: { ok: false, code: "invalid" },
      });
    for (const command of ["sideways", "", "ON "])
      expect(await post(farmer.token, { command, pump: farmer.deviceId }), command).toEqual({
        status: 400,
        command: { ok: false, code: "invalid" },
      });
  });

  it("refuses another site's post and a pump the farmer cannot see", async () => {
    const farmer = await farmerWithBox();
    const stranger = await farmerWithBox();
    expect(await post(farmer.token, { command: "on", pump: farmer.deviceId }, "https://evil.test")).toEqual({
      status: 403,
      command: { ok: false, code: "crossSite" },
    });
    const other = await post(farmer.token, { command: "on", pump: stranger.deviceId });
    expect(other.status).toBe(403);
    expect(other.command.ok).toBe(false);
    expect(other.command.code).not.toBe("offline");
  });
});
