// The simulator, a real Node WebSocket client, against the real Worker in workerd: D1, the
// DeviceHubs and R2 on this machine, over real sockets, as a controller box would see them.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApiClient } from "../../common/api-client.ts";
import { firmwareUploadResponseSchema } from "../../common/api-responses/admin.ts";
import {
  healthReadingResponseSchema,
  otaResponseSchema,
  powerReadingResponseSchema,
} from "../../common/api-responses/devices.ts";
import { localDeviceSocketUrl, type SimulatedDeviceOptions, simulateBox } from "../../device-sim/simulated-device.ts";
import { provisionLocalFleet } from "../../scripts/lib/local-devices.ts";
import { CONDITION_LIMIT_MS, START_LIMIT_MS } from "../time-limits.ts";
import { createAdmin } from "./accounts.ts";
import { startLocalWorker } from "./local-worker.ts";
import { freshWorker, logTexts, pumpsOnWorkerForFile } from "./simulated-pumps.ts";

const suite = pumpsOnWorkerForFile("9000000009", freshWorker);

/** A new farmer, a device provisioned for them by the admin API, and its simulator online. */
async function farmerWithSimulatedPump(options: Partial<SimulatedDeviceOptions> = {}) {
  const { farmer, mobileNo, box } = await suite.pumps.farmerWithPump({
    box: { restartDelayMs: 200, reconnectBaseMs: 100, reconnectMaxMs: 1_000, ...options },
    runningCurrent: true,
  });
  return { farmer, mobileNo, device: box };
}

describe("a simulated pump through the real Worker", () => {
  it("is switched on and off, with the relay confirmed and current reported", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump();
    const on = await farmer.switchMotor("on");
    expect(on).toMatchObject({ status: 200, data: { success: true, message: "Motor turned ON.", status: "on" } });
    expect(device.relay).toBe("on");
    const status = await farmer.motorStatus(mobileNo);
    expect(status).toMatchObject({ status: "on", deviceStatus: "online", motorConfig: { defaultCurrent: 9 } });
    // A reading moments old is the answer (docs/device-protocol.md §5): the one after the switch
    // shows the inrush, until the box reports the settled current at its next sample.
    await expect
      .poll(
        async () => (await farmer.post(`/api/devices/motor/power/${mobileNo}`, powerReadingResponseSchema)).powerData,
      )
      .toMatchObject({ current: expect.closeTo(9, 0) });
    const reading = await farmer.post(`/api/devices/motor/power/${mobileNo}`, powerReadingResponseSchema);
    expect(reading.powerData.current).toBeGreaterThan(8.5);
    expect(reading.powerData.current).toBeLessThan(9.5);
    const health = await farmer.post(`/api/devices/motor/health/${mobileNo}`, healthReadingResponseSchema);
    expect(health.healthData).toMatchObject({ relay: "on", mqtt: "connected", version: "sim-1.0.0" });
  });

  // Wrangler's local trace collector stores a span of every storage call and frame from the
  // same workerd thread that carries the command (docs/benchmarks.md); local runs leave it off.
  it("runs without wrangler's local trace collector", async () => {
    const { farmer } = await farmerWithSimulatedPump();
    expect((await farmer.switchMotor("on")).status).toBe(200);
    expect(existsSync(join(suite.worker.persistTo, "v3", "observability"))).toBe(false);
  });

  it("trips on a dry run by itself; the trip reaches the logs", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump({
      protectionGraceMs: 1_700,
      protectionSustainMs: 300,
      protectionSampleMs: 50,
    });
    expect((await farmer.switchMotor("on")).status).toBe(200);
    device.inject("dryRun");
    await device.waitFor("tripped", CONDITION_LIMIT_MS);
    await expect.poll(() => logTexts(farmer, mobileNo)).toContain("Dry run detected. Motor turned OFF automatically.");
    expect((await farmer.motorStatus(mobileNo)).status).toBe("off");
  });

  it("holds the motor off on a sagging supply with a code, and trips a running one on unbalanced phases", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump({
      protectionGraceMs: 1_700,
      protectionSustainMs: 300,
      protectionSampleMs: 50,
    });
    device.inject("lowVoltage");
    const refused = await farmer.switchMotor("on");
    expect(refused).toMatchObject({
      status: 409,
      error: { message: "The voltage at the pump is too low to start the motor safely.", code: "underVoltage" },
    });
    expect(device.relay).toBe("off");
    device.inject("normalVoltage");
    await expect.poll(async () => (await farmer.switchMotor("on")).status, { interval: 1_000 }).toBe(200);
    device.inject("unbalancedVoltage");
    await device.waitFor("tripped", CONDITION_LIMIT_MS);
    await expect
      .poll(() => logTexts(farmer, mobileNo))
      .toContainEqual(
        expect.stringMatching(/^Unbalanced phases \(\d+(\.\d)? %\) over the 6 % limit\. Motor turned OFF\.$/),
      );
    const status = await farmer.motorStatus(mobileNo);
    expect(status.status).toBe("off");
    expect(status.faults).toEqual([expect.objectContaining({ kind: "voltageUnbalance" })]);
  });

  it("refuses commands during a phase fault and resumes after phase OK", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump();
    const phaseFault = async () => (await farmer.motorStatus(mobileNo)).phaseFault;
    device.inject("phaseLoss");
    await expect.poll(phaseFault).toBe(true);
    const refused = await farmer.switchMotor("on");
    expect(refused).toMatchObject({
      status: 409,
      error: {
        success: false,
        message: "Phase fault detected. Motor operation is disabled until the phase is OK.",
        code: "phaseFault",
        params: {},
      },
    });
    device.inject("phaseRestore");
    await expect.poll(phaseFault).toBe(false);
    expect((await farmer.switchMotor("on")).status).toBe(200);
    expect(device.relay).toBe("on");
  });

  it("gets a clear error when the box does not answer, and the final state stays right", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump({ slowAckMs: 6_000 });
    device.inject("slowAck");
    const response = await farmer.switchMotor("on");
    expect(response.status).toBe(504);
    await expect.poll(async () => (await farmer.motorStatus(mobileNo)).status).toBe("on");
    expect(device.relay).toBe("on");
  });

  it("installs firmware uploaded by an admin: R2 download, hash check, restart, new version", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump();
    const image = Buffer.from(`SIM7600 firmware ${mobileNo} `.repeat(500));
    const version = `2.${mobileNo.slice(-4)}.0`;
    const form = new FormData();
    form.set("deviceType", "sim");
    form.set("version", version);
    form.set("file", new File([image], "firmware.bin"));
    const uploaded = await suite.admin.request("POST", "/api/admin/firmware", firmwareUploadResponseSchema, form);
    expect(uploaded.status).toBe(201);
    expect(uploaded.ok && uploaded.data.firmware.sha256).toBe(createHash("sha256").update(image).digest("hex"));

    const restarted = device.waitFor("restarting", CONDITION_LIMIT_MS);
    const ota = await farmer.post("/api/mqtt/ota", otaResponseSchema, { mobileNo, deviceType: "sim" });
    expect(ota).toEqual({ success: true, message: "OTA update triggered successfully!", version });
    await restarted;
    await device.waitUntilConnected(START_LIMIT_MS);
    expect(device.firmware).toBe(version);
    await expect.poll(() => logTexts(farmer, mobileNo)).toContain(`Firmware updated to ${version}.`);
    expect((await farmer.motorStatus(mobileNo)).healthLogs?.version).toBe(version);
  });

  it("reports a corrupted download as a failed update and keeps the old firmware", async () => {
    const { farmer, mobileNo, device } = await farmerWithSimulatedPump();
    const form = new FormData();
    form.set("deviceType", "wifi");
    form.set("version", `7.${mobileNo.slice(-4)}.0`);
    form.set("file", new File([Buffer.from("wifi firmware")], "firmware.bin"));
    expect((await suite.admin.request("POST", "/api/admin/firmware", firmwareUploadResponseSchema, form)).status).toBe(
      201,
    );
    device.inject("corruptDownload");
    const failed = device.waitFor("otaFailed", CONDITION_LIMIT_MS);
    expect(
      (await farmer.request("POST", "/api/mqtt/ota", otaResponseSchema, { mobileNo, deviceType: "wifi" })).status,
    ).toBe(200);
    expect(await failed).toEqual(["SHA-256 mismatch"]);
    await expect
      .poll(() => logTexts(farmer, mobileNo))
      .toContain(`Firmware update to 7.${mobileNo.slice(-4)}.0 failed: SHA-256 mismatch.`);
    expect(device.firmware).toBe("sim-1.0.0");
  });
});

describe("a restart of the server (what every deploy does)", () => {
  it("drops 100 boxes at once; they all come back with backoff and jitter", async () => {
    const fleet = await provisionLocalFleet(suite.worker.persistTo, { count: 100, kind: "3phase", horsePower: 5 });
    const devices = fleet.map((credentials) =>
      simulateBox(localDeviceSocketUrl(suite.worker.port), credentials, {
        reconnectBaseMs: 500,
        reconnectMaxMs: 4_000,
      }),
    );
    suite.pumps.boxes.push(...devices);
    for (const device of devices) device.start();
    await Promise.all(devices.map((device) => device.waitUntilConnected(START_LIMIT_MS)));

    await suite.worker.stop();
    await expect.poll(() => devices.filter((device) => device.connected).length).toBe(0);
    suite.worker = await startLocalWorker(suite.worker.persistTo, suite.worker.port);
    await expect
      .poll(() => devices.filter((device) => device.connected).length, { timeout: START_LIMIT_MS, interval: 500 })
      .toBe(100);
    // The fleet's farmers see their pumps online again.
    const farmer = new ApiClient(suite.worker.url);
    await farmer.logIn(fleet[42]!.ownerMobileNo, fleet[42]!.password);
    expect((await farmer.motorStatus(fleet[42]!.ownerMobileNo)).deviceStatus).toBe("online");
    suite.admin = await createAdmin(suite.worker.url, suite.worker.persistTo, "9000000008");
  });
});
