// The hub's Web Push alerts (durable-objects/hub-push.ts) against a push service played in
// Node (tests/push-outbound.ts): a slow push service holds up nothing, each browser gets only
// the kinds it chose, an address the push service gave up is forgotten, and an alert the hub
// could raise twice (an alarm delivered twice) goes out once.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ALERT_KINDS, type AlertKind } from "../../common/alerts.ts";
import { readJson } from "../../common/api-client.ts";
import { z } from "../../common/zod.ts";
import { getDb } from "../../worker/db/client.ts";
import { pushSubscriptions } from "../../worker/db/schema.ts";
import { browserWatching, connectDevice, farmerWithDevice, fireTimer, postJson, putJson } from "../worker/helpers.ts";

async function browserKeys() {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const base64url = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  return { p256dh: base64url(raw), auth: base64url(crypto.getRandomValues(new Uint8Array(16))) };
}

async function subscribe(token: string, route: "ok" | "gone" | "hang", kinds: readonly AlertKind[] = ALERT_KINDS) {
  const id = crypto.randomUUID();
  const endpoint = `https://push.test/${route}/${id}`;
  const response = await putJson(
    "/api/push/subscriptions",
    { subscription: { endpoint, keys: await browserKeys() }, kinds, language: "hi" },
    token,
  );
  expect(response.status).toBe(200);
  return { id, endpoint };
}

async function pushesTo(id: string): Promise<number> {
  return (await readJson(await fetch(`https://push.test/count/${id}`), z.object({ count: z.int() }))).count;
}

async function stored(endpoint: string) {
  return getDb(env.DB).query.pushSubscriptions.findFirst({ where: eq(pushSubscriptions.endpoint, endpoint) });
}

describe("DeviceHub alerts with the app closed", () => {
  it("a push service that never answers holds up neither the broadcast nor a motor command", async () => {
    const farmer = await farmerWithDevice();
    const stuck = await subscribe(farmer.token, "hang");
    const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1 });
    const browser = await browserWatching(farmer.user.mobileNo, { token: farmer.token });

    let started = Date.now();
    box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    await browser.next("phaseFaultDetected");
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect.poll(() => pushesTo(stuck.id)).toBe(1); // the push is out, and hangs
    box.send({ type: "event", event: "phaseOk", relay: "off" });
    await browser.next("phaseOk");

    started = Date.now();
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    box.close();
    browser.close();
  });

  it("each browser gets only the kinds it chose; an address the push service gave up (410) is forgotten", async () => {
    const farmer = await farmerWithDevice();
    const phase = await subscribe(farmer.token, "ok", ["phase"]);
    const power = await subscribe(farmer.token, "ok", ["power"]);
    const gone = await subscribe(farmer.token, "gone", ["phase"]);
    const box = await connectDevice(farmer.device);

    box.send({ type: "event", event: "phaseFault", relay: "off" });
    await expect.poll(() => pushesTo(phase.id)).toBe(1);
    await expect.poll(async () => (await stored(gone.endpoint)) === undefined).toBe(true);
    expect(await pushesTo(power.id)).toBe(0);
    expect(await stored(phase.endpoint)).toMatchObject({ kinds: ["phase"] });
    box.close();
  });

  it("a box gone while the motor runs alerts once, however often the liveness alarm runs", async () => {
    const farmer = await farmerWithDevice();
    const phone = await subscribe(farmer.token, "ok", ["offlineWhileOn"]);
    const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1 });
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    box.close();
    await expect.poll(() => pushesTo(phone.id)).toBe(1);
    await fireTimer(farmer.device.deviceId, "liveness");
    await fireTimer(farmer.device.deviceId, "liveness");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await pushesTo(phone.id)).toBe(1);
  });
});
