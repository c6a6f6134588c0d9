// Commissioning's dry-run check through the API, with the test playing the box
// (docs/device-protocol.md §12; docs/decisions/033-installers.md): once the settings are set,
// the installer may ask for it; the box gets a `dryRunCheck` and its `dryRunCheckResult` (tripped
// or not, the current, the limit it applied) goes into the report the farmer and an admin see.
// Only a check of the settings set counts; it follows every rule of the test run (the box's
// installer, before the hand-over, one run at a time, the motor known to be OFF, online).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import {
  commissionedResponseSchema,
  dryRunCheckResponseSchema,
  installationResponseSchema,
} from "../../../common/api-responses/installers.ts";
import { getDb } from "../../../worker/db/client.ts";
import { installations, installers } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { getOk, postJson, refusalCode } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { answerTestRun, goOffline, linkedBox, refuseForMissingPhase } from "../helpers/installers.ts";
import type { DevicePeer } from "../helpers/sockets.ts";

/** 8.9 A and a 35 % dry-run threshold: the box trips below 8.9 × 0.65. */
const SETTINGS = { defaultCurrent: 8.9, dryRunThreshold: 35, overCurrentThreshold: 30 };
const TRIP_BELOW = 5.79;

/** The test run and the settings accepted, the box answering each as a box does. */
async function commissioned(box: DevicePeer, deviceId: string, token: string, settings = SETTINGS) {
  const asked = postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 5 }, token);
  const run = await box.next("testRun");
  answerTestRun(box, run.id);
  expect((await asked).status).toBe(200);
  const accepted = postJson(`/api/installer/boxes/${deviceId}/commissioning`, settings, token);
  const config = await box.next("config");
  box.send({ type: "ack", id: config.id, ok: true, relay: "off" });
  return readJson(await accepted, commissionedResponseSchema);
}

/** The box answers the check `id` as a box that ran it does, on a good supply. */
function answerDryRunCheck(
  box: DevicePeer,
  id: string,
  ran: { tripped: boolean; current: number; tripBelow: number; ranSeconds: number },
) {
  box.send({ type: "dryRunCheckResult", id, ok: true, relay: "off", voltages: [412, 409, 415], ...ran });
}

function dryRunCheck(deviceId: string, token: string, body: unknown = {}) {
  return postJson(`/api/installer/boxes/${deviceId}/dry-run-check`, body, token);
}

describe("the dry-run check", () => {
  it("asks the box to run with its protection, keeps whether it tripped in the report, and shows it to the farmer and an admin", async () => {
    const { box, deviceId, installerToken, farmer } = await linkedBox();
    const done = await commissioned(box, deviceId, installerToken);
    // Not done yet: the report says so until the installer chooses it.
    expect(done.report.dryRunCheck).toBeNull();

    const asked = dryRunCheck(deviceId, installerToken);
    const check = await box.next("dryRunCheck");
    expect(check.seconds).toBe(30);
    answerDryRunCheck(box, check.id, { tripped: true, current: 4.02, tripBelow: TRIP_BELOW, ranSeconds: 17.3 });
    const answer = await readJson(await asked, dryRunCheckResponseSchema);
    expect(answer.check).toMatchObject({ tripped: true, current: 4.02, tripBelow: TRIP_BELOW, ranSeconds: 17.3 });
    expect(answer.report.dryRunCheck).toEqual(answer.check);
    expect(answer.report.set).toEqual(done.report.set);

    for (const token of [farmer.token, await adminToken()]) {
      const view = await getOk(`/api/pumps/${deviceId}/installation`, token, installationResponseSchema);
      expect(view.installation?.report?.dryRunCheck).toEqual(answer.check);
    }

    // New settings: the check was of the old ones, and the report says it is not done.
    const again = await commissioned(box, deviceId, installerToken, { ...SETTINGS, dryRunThreshold: 30 });
    expect(again.report.dryRunCheck).toBeNull();
  });

  it("keeps a check that did not trip as it is, with the current that stayed above the limit", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    await commissioned(box, deviceId, installerToken);
    const asked = dryRunCheck(deviceId, installerToken, { seconds: 15 });
    const check = await box.next("dryRunCheck");
    expect(check.seconds).toBe(15);
    answerDryRunCheck(box, check.id, { tripped: false, current: 8.8, tripBelow: TRIP_BELOW, ranSeconds: 15 });
    const answer = await readJson(await asked, dryRunCheckResponseSchema);
    expect(answer.report.dryRunCheck).toMatchObject({ tripped: false, current: 8.8, tripBelow: TRIP_BELOW });
  });

  it("counts only a check of the settings set: a box applying another limit is refused and nothing is kept", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    await commissioned(box, deviceId, installerToken);
    const asked = dryRunCheck(deviceId, installerToken);
    const check = await box.next("dryRunCheck");
    // The box's own word for its limit: the factory's 1 A × 70 %, not the settings just set.
    answerDryRunCheck(box, check.id, { tripped: true, current: 0.4, tripBelow: 0.7, ranSeconds: 16 });
    const refused = await asked;
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("dryRunSettingsNotOnBox");
    const stored = await getDb(env.DB).query.installations.findFirst({ where: eq(installations.deviceId, deviceId) });
    expect(JSON.parse(stored!.report!).dryRunCheck).toBeNull();
  });

  it("passes on the box's refusal, and answers a lost link and a late or foreign result as a test run does", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    await commissioned(box, deviceId, installerToken);
    const asked = dryRunCheck(deviceId, installerToken);
    const check = await box.next("dryRunCheck");
    // A test run's result with the same id is not this check's answer.
    answerTestRun(box, check.id);
    refuseForMissingPhase(box, "dryRunCheckResult", check.id);
    const refused = await asked;
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("dryRunCheckRefused");

    const lost = dryRunCheck(deviceId, installerToken);
    await box.next("dryRunCheck");
    box.close();
    const lostAnswer = await lost;
    expect(lostAnswer.status).toBe(504);
    expect(await refusalCode(lostAnswer)).toBe("linkLost");
  });

  it("is refused before the settings are set, on a running motor, while another run waits, for another account, after the hand-over, and offline", async () => {
    const { box, deviceId, installerToken, installer } = await linkedBox();
    const early = await dryRunCheck(deviceId, installerToken);
    expect(early.status).toBe(409);
    expect(await refusalCode(early)).toBe("notCommissioned");
    await box.expectNone("dryRunCheck", 100);

    await commissioned(box, deviceId, installerToken);
    const bad = await dryRunCheck(deviceId, installerToken, { seconds: 5 });
    expect(bad.status).toBe(400);

    // One run at a time, a test run or a check.
    const first = dryRunCheck(deviceId, installerToken);
    const check = await box.next("dryRunCheck");
    const second = await dryRunCheck(deviceId, installerToken);
    expect(await refusalCode(second)).toBe("testRunBusy");
    const testRun = await postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 3 }, installerToken);
    expect(await refusalCode(testRun)).toBe("testRunBusy");
    answerDryRunCheck(box, check.id, { tripped: true, current: 4, tripBelow: TRIP_BELOW, ranSeconds: 16 });
    expect((await first).status).toBe(200);

    box.send({ type: "relay", relay: "on", cause: "manual" });
    await box.expectNone("dryRunCheck", 100);
    expect(await refusalCode(await dryRunCheck(deviceId, installerToken))).toBe("motorRunning");
    box.send({ type: "relay", relay: "off", cause: "manual" });
    await box.expectNone("dryRunCheck", 100);

    const stranger = await createUser();
    expect(await hubStub(deviceId).commissionDryRunCheck(stranger.id, 15)).toEqual({ ok: false, code: "notAllowed" });
    const otherInstaller = await createUser();
    await getDb(env.DB).insert(installers).values({ userId: otherInstaller.id, name: "B", createdAt: Date.now() });
    const notTheirs = await dryRunCheck(deviceId, await loginToken(otherInstaller));
    expect(notTheirs.status).toBe(404);

    expect((await postJson(`/api/installer/boxes/${deviceId}/hand-over`, {}, installerToken)).status).toBe(200);
    const handedOver = await dryRunCheck(deviceId, installerToken);
    expect(handedOver.status).toBe(403);
    expect(await refusalCode(handedOver)).toBe("handedOver");
    expect(await hubStub(deviceId).commissionDryRunCheck(installer.id, 15)).toEqual({ ok: false, code: "notAllowed" });
    await box.expectNone("dryRunCheck");
  });

  it("answers 503 for a box that is offline", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    await commissioned(box, deviceId, installerToken);
    await goOffline(box);
    expect((await dryRunCheck(deviceId, installerToken)).status).toBe(503);
  });
});
