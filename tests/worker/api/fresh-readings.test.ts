// Fresh power and health on request (POST /api/pumps/{id}/power|health and SPEC §7's routes by
// number): a reading the hub got moments ago is the answer; otherwise one round trip to the box,
// shared by every request meanwhile, and at most one a minute per pump; within that minute the
// hub's latest reading with its age. A flood of refreshes from someone who may only look costs
// the owner's SIM one request, and never holds up a switch (docs/device-protocol.md §5).
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { healthReadingResponseSchema, powerReadingResponseSchema } from "../../../common/api-responses/devices.ts";
import { READING_REQUEST_INTERVAL_MS } from "../../../common/constants.ts";
import { loginToken } from "../helpers/accounts.ts";
import { farmerWithBox } from "../helpers/boxes.ts";
import { postJson } from "../helpers/http.ts";
import { rewriteHubState } from "../helpers/hub-state.ts";
import { sharePump } from "../helpers/sharing.ts";
import type { DevicePeer } from "../helpers/sockets.ts";

/** A box that answers a `request` as a healthy one does: its ack, then the frame asked for. */
function answerRequest(box: DevicePeer, request: { id: string; what: "power" | "health" }) {
  box.send({ type: "ack", id: request.id, ok: true, relay: "off" });
  if (request.what === "power") box.send({ type: "power", current: 0, wattage: 0 });
  else
    box.send({ type: "health", uptime: 42, signal: -71, relay: "off", connection: "connected", version: "test-1.0.0" });
}

async function viewerOf(deviceId: string, ownerToken: string) {
  const { viewer } = await sharePump(deviceId, ownerToken);
  return loginToken(viewer);
}

/** Moves the hub's last request to the box and its latest health report `ms` into the past. */
function ageReadings(deviceId: string, ms: number) {
  return rewriteHubState(deviceId, (state) => {
    const health = state.health as { reportedAt: string | null } | null;
    return {
      ...state,
      powerAt: (state.powerAt as number) - ms,
      readingRequestedAt: (state.readingRequestedAt as number) - ms,
      health: health?.reportedAt
        ? { ...health, reportedAt: new Date(Date.parse(health.reportedAt) - ms).toISOString() }
        : health,
    };
  });
}

describe("fresh readings on request", () => {
  it("sends a viewer's flood of 30 refreshes to the box as one request, and answers all 30 from it", async () => {
    const { device, token, box } = await farmerWithBox();
    const viewer = await viewerOf(device.deviceId, token);
    const calls = Array.from({ length: 30 }, () => postJson(`/api/pumps/${device.deviceId}/health`, {}, viewer));
    const request = await box.next("request");
    await box.expectNone("request", 500);
    answerRequest(box, request);
    const answers = await Promise.all(calls);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await readJson(answer, healthReadingResponseSchema)).toMatchObject({
        success: true,
        healthData: { uptime: 42, signal: -71 },
        source: "box",
      });
    }
    box.close();
  });

  it("asks the box at most once a minute: within it, the hub's latest reading with its age", async () => {
    const { device, token, box } = await farmerWithBox();
    const url = `/api/pumps/${device.deviceId}/health`;
    const first = postJson(url, {}, token);
    answerRequest(box, await box.next("request"));
    expect((await first).status).toBe(200);

    // A report moments old is the answer.
    const fresh = await readJson(await postJson(url, {}, token), healthReadingResponseSchema);
    expect(fresh).toMatchObject({ source: "hub", healthData: { uptime: 42 } });
    expect(fresh.ageSeconds).toBeLessThanOrEqual(5);

    // 30 s later it is no longer fresh, but the box was asked within the minute: not again.
    await ageReadings(device.deviceId, 30_000);
    const aged = await readJson(await postJson(url, {}, token), healthReadingResponseSchema);
    expect(aged).toMatchObject({ source: "hub", healthData: { uptime: 42 } });
    expect(aged.ageSeconds).toBeGreaterThanOrEqual(30);
    const power = await readJson(
      await postJson(`/api/pumps/${device.deviceId}/power`, {}, token),
      powerReadingResponseSchema,
    );
    expect(power).toMatchObject({ source: "hub", powerData: { current: 0, wattage: 0 } });
    await box.expectNone("request");

    // A minute after the last request, the box is asked again.
    await ageReadings(device.deviceId, READING_REQUEST_INTERVAL_MS - 30_000 + 1_000);
    const again = postJson(url, {}, token);
    answerRequest(box, await box.next("request"));
    expect(await readJson(await again, healthReadingResponseSchema)).toMatchObject({ source: "box" });
    box.close();
  });

  it("answers a power refresh from the reading the box sent with its switch, without asking it", async () => {
    const { device, token, box } = await farmerWithBox();
    box.autoAck({ runningCurrent: 8.4 });
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, token)).status).toBe(200);
    const answer = await readJson(
      await postJson(`/api/pumps/${device.deviceId}/power`, {}, token),
      powerReadingResponseSchema,
    );
    expect(answer).toMatchObject({ success: true, source: "hub", powerData: { current: 8.4 } });
    expect(answer.ageSeconds).toBeLessThanOrEqual(5);
    await box.expectNone("request");
    box.close();
  });

  it("never puts an OFF behind a flood of refreshes: the switch is the next frame after one request", async () => {
    const { device, token, box } = await farmerWithBox();
    const viewer = await viewerOf(device.deviceId, token);
    // Readings minutes old, as on a box nobody watches.
    await ageReadings(device.deviceId, 5 * 60_000);
    const flood = Array.from({ length: 20 }, (_, index) =>
      postJson(`/api/pumps/${device.deviceId}/${index % 2 ? "power" : "health"}`, {}, viewer),
    );
    const request = await box.next("request");
    const off = postJson(`/api/pumps/${device.deviceId}/motor`, { action: "off" }, token);
    const command = await box.next("switch");
    const framesBeforeSwitch = box.raw.slice(box.raw.findIndex((text) => text.includes('"type":"welcome"')) + 1);
    const requestsBefore = framesBeforeSwitch
      .slice(
        0,
        framesBeforeSwitch.findIndex((text) => text.includes(command.id)),
      )
      .filter((text) => text.includes('"type":"request"'));
    expect(requestsBefore).toHaveLength(1);
    // Answered while the refresh is still unanswered: it waited for nothing.
    box.send({ type: "ack", id: command.id, ok: true, relay: "off" });
    expect((await off).status).toBe(200);
    answerRequest(box, request);
    expect((await Promise.all(flood)).map((answer) => answer.status)).toEqual(Array(20).fill(200));
    box.close();
  });
});
