// Commissioning by the installer, through the API with the test playing the box
// (docs/device-protocol.md, "Commissioning"; docs/decisions/033-installers.md): the box gets a
// `testRun` and its `testRunResult` is what the installer sees, with the settings suggested from
// it; the accepted settings reach the box and a report is kept with it, shown to the installer,
// the farmer and an admin. The hub checks the installation itself; a box handed over, running,
// offline or already testing runs no test.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import {
  commissionedResponseSchema,
  installationResponseSchema,
  installerBoxesResponseSchema,
  supplyResponseSchema,
  testRunResponseSchema,
} from "../../../common/api-responses/installers.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, installations } from "../../../worker/db/schema.ts";
import { adminToken, createUser } from "../helpers/accounts.ts";
import { getOk, postJson, refusalCode } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { answerTestRun, goOffline, linkedBox, MEASURED, refuseForMissingPhase } from "../helpers/installers.ts";

describe("commissioning", () => {
  it("runs the box's test run, suggests settings from it, and keeps the report with the box once accepted", async () => {
    const { box, deviceId, installerToken, installer, farmer } = await linkedBox();
    const asked = postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 5 }, installerToken);
    const run = await box.next("testRun");
    expect(run.seconds).toBe(5);
    box.send({ type: "testRunResult", id: run.id, ok: true, relay: "off", ...MEASURED });
    const answer = await readJson(await asked, testRunResponseSchema);
    expect(answer.measured).toMatchObject(MEASURED);
    expect(answer.suggested).toEqual({
      defaultCurrent: 8.9,
      dryRunThreshold: 30,
      overCurrentThreshold: 30,
      horsePower: 5,
    });

    // The installer edits one threshold; the box gets the settings and acknowledges them.
    const accepted = postJson(
      `/api/installer/boxes/${deviceId}/commissioning`,
      { defaultCurrent: 8.9, dryRunThreshold: 35, overCurrentThreshold: 30, feeder: "Rampur 11 kV" },
      installerToken,
    );
    const config = await box.next("config");
    expect(config.config).toMatchObject({ defaultCurrent: 8.9, dryRunThreshold: 35, overCurrentThreshold: 30 });
    box.send({ type: "ack", id: config.id, ok: true, relay: "off" });
    const done = await readJson(await accepted, commissionedResponseSchema);
    expect(done.deliveredToDevice).toBe(true);
    expect(done.report).toMatchObject({
      measured: MEASURED,
      suggested: { defaultCurrent: 8.9, dryRunThreshold: 30 },
      set: { defaultCurrent: 8.9, dryRunThreshold: 35, overCurrentThreshold: 30, horsePower: 5 },
      feeder: "Rampur 11 kV",
      by: { name: "Ramesh Electricals", mobileNo: installer.mobileNo },
    });
    const stored = await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) });
    expect(stored).toMatchObject({ defaultCurrent: 8.9, dryRunThreshold: 35 });

    // Kept with the box: the installer's list, the farmer's and an admin's view of the pump.
    const boxes = await getOk("/api/installer/boxes", installerToken, installerBoxesResponseSchema);
    expect(boxes.installed[0]?.report?.set.dryRunThreshold).toBe(35);
    for (const token of [farmer.token, await adminToken()]) {
      const view = await getOk(`/api/pumps/${deviceId}/installation`, token, installationResponseSchema);
      expect(view.installation?.report).toEqual(done.report);
    }
  });

  it("asks the box itself for the supply on every phase, whatever reading the hub has", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    // A reading moments old, without volts (a confirmed OFF is one): not the answer.
    box.send({ type: "power", current: 0, wattage: 0 });
    const asked = postJson(`/api/installer/boxes/${deviceId}/supply`, {}, installerToken);
    const request = await box.next("request");
    expect(request.what).toBe("power");
    box.send({ type: "ack", id: request.id, ok: true, relay: "off" });
    box.send({ type: "power", current: 0, wattage: 0, voltages: [401, 0, 403], supply: true });
    expect(await readJson(await asked, supplyResponseSchema)).toEqual({
      success: true,
      voltages: [401, 0, 403],
      everyPhase: false,
    });
  });

  it("keeps what the box measured, never what a page claims, and asks for a test run first", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    const early = await postJson(
      `/api/installer/boxes/${deviceId}/commissioning`,
      { defaultCurrent: 8.9, dryRunThreshold: 30, overCurrentThreshold: 30, measured: { runningCurrent: 99 } },
      installerToken,
    );
    expect(early.status).toBe(409);
    expect(await refusalCode(early)).toBe("noTestRun");
    await box.expectNone("config");
  });

  it("passes on the box's refusal in its words, with what it read", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    const asked = postJson(`/api/installer/boxes/${deviceId}/test-run`, {}, installerToken);
    const run = await box.next("testRun");
    expect(run.seconds).toBe(10);
    refuseForMissingPhase(box, "testRunResult", run.id);
    const refused = await asked;
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("testRunRefused");
  });

  it("runs no test on a box handed over, running, offline, or testing already", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    const testRun = () => postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 3 }, installerToken);

    // One at a time: a second while the first waits for the box.
    const first = testRun();
    const run = await box.next("testRun");
    const second = await testRun();
    expect(second.status).toBe(409);
    expect(await refusalCode(second)).toBe("testRunBusy");
    answerTestRun(box, run.id);
    expect((await first).status).toBe(200);

    // The motor running: no test run.
    box.send({ type: "relay", relay: "on", cause: "manual" });
    await box.expectNone("testRun", 100);
    const running = await testRun();
    expect(await refusalCode(running)).toBe("motorRunning");
    box.send({ type: "relay", relay: "off", cause: "manual" });
    await box.expectNone("testRun", 100);

    // The hub checks D1 itself: another account is not this box's installer.
    const stranger = await createUser();
    expect(await hubStub(deviceId).commissionTestRun(stranger.id, 3)).toEqual({ ok: false, code: "notAllowed" });

    // Handed over: refused by the Worker and by the hub, and the box hears nothing.
    expect((await postJson(`/api/installer/boxes/${deviceId}/hand-over`, {}, installerToken)).status).toBe(200);
    const handedOver = await testRun();
    expect(handedOver.status).toBe(403);
    expect(await refusalCode(handedOver)).toBe("handedOver");
    const installation = await getDb(env.DB).query.installations.findFirst({
      where: eq(installations.deviceId, deviceId),
    });
    expect(await hubStub(deviceId).commissionTestRun(installation!.installerUserId!, 3)).toEqual({
      ok: false,
      code: "notAllowed",
    });
    await box.expectNone("testRun");
  });

  it("answers 503 for a box that is offline", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    await goOffline(box);
    const offline = await postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 3 }, installerToken);
    expect(offline.status).toBe(503);
  });
});
