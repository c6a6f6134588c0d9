// Firmware updates (durable-objects/device-hub/ota.ts) without a box: what a hello says about
// the update under way, an offer to a box that is not connected, and the 10-minute timeout,
// which fails an update once however often the alarm delivers it.

import { describe, expect, it } from "vitest";
import { OTA_TIMEOUT_MS, otaOnHello } from "../../durable-objects/device-hub/ota.ts";
import type { OtaJob } from "../../durable-objects/device-hub/state.ts";
import { motorLogRows } from "../worker/helpers/hub-state.ts";
import { uniqueHubName, withRooms } from "./room-support.ts";

const job = (stage: OtaJob["stage"], startedAt = Date.now()): OtaJob => ({
  id: "ota-1",
  version: "2.4.0",
  stage,
  startedAt,
});

describe("a hello during an update", () => {
  it("with the new version completes it; with another after installing fails it; otherwise it is not over yet", () => {
    expect(otaOnHello(job("downloading"), "2.4.0")).toBe("done");
    expect(otaOnHello(job("installing"), "2.3.0")).toBe("failed");
    expect(otaOnHello(job("downloading"), "2.3.0")).toBeNull();
    expect(otaOnHello(null, "2.4.0")).toBeNull();
  });
});

describe("an update", () => {
  it("offered to a box that is not connected fails at once and starts nothing", async () => {
    const { result, ota } = await withRooms(async ({ hub, ota }) => ({
      result: await ota.start({ version: "2.4.0", url: "https://example.test/fw", sha256: "0".repeat(64), size: 1 }),
      ota: hub.state.current.ota,
    }));
    expect(result).toEqual({ ok: false, code: "offline" });
    expect(ota).toBeNull();
  });

  it("not finished within OTA_TIMEOUT_MS fails once, even when the timeout is delivered twice", async () => {
    const deviceId = uniqueHubName();
    const state = await withRooms(async ({ hub, ota }) => {
      hub.state.save({ ota: job("verifying", Date.now() - OTA_TIMEOUT_MS) });
      await ota.onTimeout(Date.now());
      await ota.onTimeout(Date.now());
      return hub.state.current;
    }, deviceId);
    expect(state.ota).toBeNull();
    const logs = await motorLogRows(deviceId);
    expect(logs.map((log) => [log.kind, JSON.parse(log.params)])).toEqual([
      ["otaFailed", { version: "2.4.0", reason: "timeout", error: null, firmware: null }],
    ]);
  });

  it("still within its time is left alone by the timer", async () => {
    const state = await withRooms(async ({ hub, ota }) => {
      hub.state.save({ ota: job("downloading", Date.now() - 1_000) });
      await ota.onTimeout(Date.now());
      return hub.state.current;
    });
    expect(state.ota).toMatchObject({ stage: "downloading" });
  });
});
