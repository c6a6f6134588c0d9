// Firmware: admins upload images into R2; a farmer's box is offered the newest one, downloads
// it with its own credentials, checks its hash and comes back with the new version.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { firmwareListResponseSchema, firmwareUploadResponseSchema } from "../../../common/api-responses/admin.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { api, expectRefusedSaying, getJson, postJson } from "../helpers/http.ts";
import { fireTimer, motorLogRows, rewriteHubState } from "../helpers/hub-state.ts";
import { basicAuth, browserWatching, connectDevice } from "../helpers/sockets.ts";

freshStorageForThisFile();

async function upload(token: string, fields: { deviceType?: string; version?: string; file?: Uint8Array | null }) {
  const form = new FormData();
  if (fields.deviceType !== undefined) form.set("deviceType", fields.deviceType);
  if (fields.version !== undefined) form.set("version", fields.version);
  if (fields.file !== null) form.set("file", new File([fields.file ?? new TextEncoder().encode("firmware")], "fw.bin"));
  return api("/api/admin/firmware", { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function logTexts(deviceId: string) {
  return (await motorLogRows(deviceId)).map((row) => row.message);
}

/** The newest motor log entry's words. */
async function lastLogText(deviceId: string) {
  return (await logTexts(deviceId)).at(-1);
}

/**
 * A farmer whose healthy box has been told to update: an admin uploads `version` for
 * `deviceType` first, then the box connects and the farmer asks for the update.
 */
async function updateUnderWay(deviceType: "wifi" | "sim", version: string) {
  const farmer = await farmerWithDevice();
  expect((await upload(await adminToken(), { deviceType, version })).status).toBe(201);
  const box = (await connectDevice(farmer.device)).autoAck();
  const ota = await postJson("/api/mqtt/ota", { mobileNo: farmer.user.mobileNo, deviceType }, farmer.token);
  expect(ota.status).toBe(200);
  return { ...farmer, box };
}

describe("POST /api/admin/firmware", () => {
  it("stores the image in R2 and its version and SHA-256 in D1", async () => {
    const image = new TextEncoder().encode("ESP32 image v2.0.0".repeat(100));
    const response = await upload(await adminToken(), { deviceType: "wifi", version: "2.0.0", file: image });
    expect(response.status).toBe(201);
    const body = await readJson(response, firmwareUploadResponseSchema);
    expect(body.firmware).toMatchObject({ sha256: await sha256Hex(image), size: image.length });
    const stored = await env.FIRMWARE.get("firmware/wifi/2.0.0");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(image);
  });

  it("refuses a version that already exists, and bad or missing fields", async () => {
    const token = await adminToken();
    expect((await upload(token, { deviceType: "sim", version: "1.0.0" })).status).toBe(201);
    const again = await upload(token, { deviceType: "sim", version: "1.0.0" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      success: false,
      message: "Version 1.0.0 already exists for sim devices.",
    });
    expect((await upload(token, { deviceType: "lora", version: "1.0.1" })).status).toBe(400);
    expect((await upload(token, { deviceType: "sim", version: "../etc" })).status).toBe(400);
    expect((await upload(token, { deviceType: "sim", version: "1.0.2", file: null })).status).toBe(400);
    expect((await upload(token, { deviceType: "sim", version: "1.0.3", file: new Uint8Array() })).status).toBe(400);
    const json = await postJson("/api/admin/firmware", { deviceType: "sim" }, token);
    expect(json.status).toBe(415);
  });

  it("is for admins only", async () => {
    const { token } = await farmerWithDevice();
    const response = await upload(token, { deviceType: "sim", version: "6.6.6" });
    expect(response.status).toBe(403);
    expect((await upload("", { deviceType: "sim", version: "6.6.6" })).status).toBe(401);
    expect(await env.FIRMWARE.get("firmware/sim/6.6.6")).toBeNull();
  });
});

describe("POST /api/mqtt/ota", () => {
  it("offers the newest image; the box downloads it, installs it and says hello with it", async () => {
    const { user, device, token } = await farmerWithDevice();
    const image = new TextEncoder().encode("SIM7600 image 3.1.0");
    const admin = await adminToken();
    expect((await upload(admin, { deviceType: "sim", version: "3.0.0" })).status).toBe(201);
    expect((await upload(admin, { deviceType: "sim", version: "3.1.0", file: image })).status).toBe(201);
    const box = (await connectDevice(device)).autoAck();
    const browser = await browserWatching(user.mobileNo, { token });

    const response = await postJson("/api/mqtt/ota", { mobileNo: user.mobileNo, deviceType: "sim" }, token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: "OTA update triggered successfully!",
      version: "3.1.0",
    });
    const offer = await box.next("ota");
    expect(offer).toMatchObject({ version: "3.1.0", sha256: await sha256Hex(image), size: image.length });
    expect(await browser.next("otaStatus")).toMatchObject({ stage: "sent", version: "3.1.0" });

    // The box downloads with its own credentials; nobody else can.
    const path = new URL(offer.url).pathname;
    expect(path).toMatch(/^\/api\/device\/firmware\/\d+$/);
    expect((await api(path)).status).toBe(401);
    const download = await api(path, { headers: { Authorization: basicAuth(device.deviceId, device.key) } });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(image);

    box.send({ type: "ota", id: offer.id, stage: "downloading", progress: 50 });
    expect(await browser.next("otaStatus")).toMatchObject({ stage: "downloading", progress: 50 });
    box.send({ type: "ota", id: offer.id, stage: "installing" });
    box.close();
    const updated = await connectDevice(device, { firmware: "3.1.0" });
    await expect.poll(() => lastLogText(device.deviceId)).toBe("Firmware updated to 3.1.0.");
    expect(await logTexts(device.deviceId)).toContain("Firmware update to 3.1.0 started.");
    updated.close();
    browser.close();
  });

  it("reports the box's failure, e.g. a hash that did not match", async () => {
    const { device, box } = await updateUnderWay("wifi", "1.2.0");
    const offer = await box.next("ota");
    box.send({ type: "ota", id: offer.id, stage: "failed", error: "SHA-256 mismatch" });
    await expect.poll(() => lastLogText(device.deviceId)).toBe("Firmware update to 1.2.0 failed: SHA-256 mismatch.");
    box.close();
  });

  it("reports a box that restarts with its old version as failed", async () => {
    const { device, box } = await updateUnderWay("wifi", "1.3.0");
    const offer = await box.next("ota");
    box.send({ type: "ota", id: offer.id, stage: "installing" });
    box.close();
    const again = await connectDevice(device, { firmware: "test-1.0.0" });
    await expect
      .poll(() => lastLogText(device.deviceId))
      .toBe("Firmware update to 1.3.0 failed: the box restarted with test-1.0.0.");
    again.close();
  });

  it("gives up on a box that never finishes, after 10 minutes", async () => {
    const { device, box } = await updateUnderWay("sim", "9.0.0");
    // Pretend the 10 minutes have passed.
    await rewriteHubState(device.deviceId, (state) => ({
      ...state,
      ota: { ...(state.ota as object), startedAt: Date.now() - 11 * 60_000 },
    }));
    await fireTimer(device.deviceId, "ota-timeout");
    expect(await lastLogText(device.deviceId)).toBe(
      "Firmware update to 9.0.0 failed: no answer from the box within 10 minutes.",
    );
    await fireTimer(device.deviceId, "ota-timeout"); // delivered twice: nothing more
    expect((await logTexts(device.deviceId)).filter((text) => text.includes("failed"))).toHaveLength(1);
    box.close();
  });

  it("gives clear errors: offline box, another farmer's box, bad input", async () => {
    const { user, token } = await farmerWithDevice();
    expect((await upload(await adminToken(), { deviceType: "wifi", version: "1.0.0" })).status).toBe(201);
    const offline = await postJson("/api/mqtt/ota", { mobileNo: user.mobileNo, deviceType: "wifi" }, token);
    expect(offline.status).toBe(503);
    const other = await farmerWithDevice();
    expect((await postJson("/api/mqtt/ota", { mobileNo: other.user.mobileNo, deviceType: "wifi" }, token)).status).toBe(
      403,
    );
    const bad = await postJson("/api/mqtt/ota", { mobileNo: user.mobileNo, deviceType: "bluetooth" }, token);
    await expectRefusedSaying(bad, 400, 'deviceType must be "wifi" or "sim".');
    const missing = await postJson("/api/mqtt/ota", { deviceType: "wifi" }, token);
    expect(await missing.json()).toMatchObject({ success: false, message: "Mobile number is required." });
  });
});

describe("GET /api/admin/firmware", () => {
  it("lists the images without their storage keys", async () => {
    const token = await adminToken();
    expect((await upload(token, { deviceType: "wifi", version: "4.0.0" })).status).toBe(201);
    const response = await getJson("/api/admin/firmware", token);
    expect(await response.clone().text()).not.toContain("r2Key");
    const body = await readJson(response, firmwareListResponseSchema);
    expect(body.firmware[0]).toMatchObject({ deviceType: "wifi", version: "4.0.0" });
  });
});
