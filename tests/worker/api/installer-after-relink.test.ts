// Where an installation ends, as an installer who kept going would try it: an admin links the box
// to another farmer before the hand-over, and the installer still calls the test run (the motor
// runs), commissioning (protection nearly off, sent to the box) and the supply. Every change of
// owner ends the installation in its batch, and the Worker and the hub also check that the
// installation's farmer owns the box; the new owner never sees the previous owner's installer.
// The supply call asks the box at most once a minute, as the farmer's power call does. After the
// hand-over the installer's list keeps the visit's record, not the box's state.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { installationResponseSchema, installerBoxesResponseSchema } from "../../../common/api-responses/installers.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices, installations } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { getOk, postJson, putJson, refusalCode } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { linkedBox } from "../helpers/installers.ts";

describe("an installation not handed over", () => {
  it("ends when an admin links the box to another farmer: no test run, no commissioning, no supply reaches the box", async () => {
    const { box, deviceId, installerToken, installer } = await linkedBox();
    const other = await createUser();
    const relinked = await putJson(
      `/api/admin/devices/${deviceId}/owner`,
      { mobileNo: other.mobileNo },
      await adminToken(),
    );
    expect(relinked.status).toBe(200);

    const calls = {
      testRun: () => postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 5 }, installerToken),
      commissioning: () =>
        postJson(
          `/api/installer/boxes/${deviceId}/commissioning`,
          { defaultCurrent: 8.9, dryRunThreshold: 95, overCurrentThreshold: 500 },
          installerToken,
        ),
      supply: () => postJson(`/api/installer/boxes/${deviceId}/supply`, {}, installerToken),
      dryRunCheck: () => postJson(`/api/installer/boxes/${deviceId}/dry-run-check`, { seconds: 20 }, installerToken),
    };
    for (const [name, call] of Object.entries(calls)) {
      const refused = await call();
      expect([name, refused.status, await refusalCode(refused)]).toEqual([name, 403, "handedOver"]);
    }
    // The hub reads D1 itself: not in this installer's hands.
    expect(await hubStub(deviceId).commissionTestRun(installer.id, 3)).toEqual({ ok: false, code: "notAllowed" });
    expect(await hubStub(deviceId).commissionSupply(installer.id)).toEqual({ ok: false, code: "notAllowed" });
    // Each refusal came before anything was sent: the box heard none of it (the new owner's
    // settings, which the relink's notice sends, are not the installer's 95 % and 500 %).
    const frames = box.raw.map((text) => JSON.parse(text) as { type: string; config?: { dryRunThreshold?: number } });
    expect(frames.filter((frame) => ["testRun", "dryRunCheck", "request"].includes(frame.type))).toEqual([]);
    expect(frames.filter((frame) => frame.type === "config" && frame.config?.dryRunThreshold === 95)).toEqual([]);
    const ended = await getDb(env.DB).query.installations.findFirst({ where: eq(installations.deviceId, deviceId) });
    expect(ended?.handedOverAt).not.toBeNull();

    // The new owner did not have it installed: no installer card, no installation.
    const view = await getOk(
      `/api/pumps/${deviceId}/installation`,
      await loginToken(other),
      installationResponseSchema,
    );
    expect(view.installation).toBeNull();
    box.close();
  });

  it("is checked against the box's owner even if the installation was not ended", async () => {
    const { deviceId, installerToken, installer, box } = await linkedBox();
    // An owner changed by a way that did not end the installation (none does; the check holds anyway).
    const other = await createUser();
    await getDb(env.DB).update(devices).set({ ownerUserId: other.id }).where(eq(devices.id, deviceId));
    const refused = await postJson(`/api/installer/boxes/${deviceId}/test-run`, { seconds: 5 }, installerToken);
    expect(refused.status).toBe(403);
    expect(await hubStub(deviceId).commissionTestRun(installer.id, 3)).toEqual({ ok: false, code: "notAllowed" });
    expect(box.raw.filter((text) => text.includes('"type":"testRun"'))).toEqual([]);
    box.close();
  });
});

describe("the supply call", () => {
  it("asks the box once a minute, however often it is called: ten in a row make one request", async () => {
    const { box, deviceId, installerToken } = await linkedBox();
    box.autoAck();
    const supply = () => postJson(`/api/installer/boxes/${deviceId}/supply`, {}, installerToken);
    const first = supply();
    const request = await box.next("request");
    box.send({ type: "power", current: 0, wattage: 0, voltages: [401, 402, 403], supply: true });
    expect(request.what).toBe("power");
    expect((await first).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 9 }, supply));
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(await refusalCode(answer)).toBe("throttled");
      expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    expect(box.raw.filter((text) => text.includes('"type":"request"'))).toHaveLength(1);
    box.close();
  });
});

describe("after the hand-over", () => {
  it("the installer's list keeps the visit (when, the report) and no longer says whether the box is online", async () => {
    const { deviceId, installerToken, box } = await linkedBox();
    const before = await getOk("/api/installer/boxes", installerToken, installerBoxesResponseSchema);
    expect(before.installed.find((row) => row.deviceId === deviceId)?.online).toBe(true);
    expect((await postJson(`/api/installer/boxes/${deviceId}/hand-over`, {}, installerToken)).status).toBe(200);
    const after = await getOk("/api/installer/boxes", installerToken, installerBoxesResponseSchema);
    expect(after.installed.find((row) => row.deviceId === deviceId)).toMatchObject({
      online: null,
      lastSeenAt: null,
      handedOverAt: expect.any(String),
    });
    box.close();
  });
});
