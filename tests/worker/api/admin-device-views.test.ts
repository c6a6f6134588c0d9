// What the admin user-detail page reads about a device: the realtime socket with the admin
// cookie (live data, the debug console's last 200 lines), the power history and its highlight.
import { describe, expect, it } from "vitest";
import { DEBUG_LINE_LIMIT } from "../../../common/hub-contract.ts";
import { averageCurrent, powerHighlight } from "../../../common/power-highlight.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { getJson, putJson } from "../helpers/http.ts";
import { liftFrameRateCap } from "../helpers/hub-state.ts";
import { browserWatching, connectBrowser, connectDevice } from "../helpers/sockets.ts";

describe("the admin's view of a device", () => {
  it("opens the realtime socket with the admin cookie and replays the last 200 debug lines", async () => {
    const token = await adminToken();
    const { user, device } = await farmerWithDevice();
    // 205 lines back to back are beyond a box's frame rate: this is about what is kept.
    await liftFrameRateCap(device.deviceId);
    const box = (await connectDevice(device)).autoAck();
    expect((await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, debug: true }, token)).status).toBe(
      200,
    );
    await box.next("config");
    const watching = await browserWatching(user.mobileNo, { cookie: `sinchai_admin_session=${token}` });
    for (let line = 1; line <= DEBUG_LINE_LIMIT + 5; line++) box.send({ type: "log", line: `line ${line}` });
    await expect
      .poll(() => watching.received.filter((message) => message.type === "debugLog").length)
      .toBe(DEBUG_LINE_LIMIT + 5);

    const late = await connectBrowser(user.mobileNo, { cookie: `sinchai_admin_session=${token}` });
    expect(await late.next("initialData")).toMatchObject({ deviceStatus: "online" });
    await expect
      .poll(() => late.received.filter((message) => message.type === "debugLog").length)
      .toBe(DEBUG_LINE_LIMIT);
    const replayed = late.received.flatMap((message) => (message.type === "debugLog" ? [message.log] : []));
    expect(replayed[0]).toBe("line 6");
    expect(replayed.at(-1)).toBe(`line ${DEBUG_LINE_LIMIT + 5}`);
    watching.close();
    late.close();
    box.close();
  });

  it("reads any farmer's power history with the admin session", async () => {
    const { user } = await farmerWithDevice();
    const response = await getJson(`/api/logs/power/${user.mobileNo}`, await adminToken());
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });
});

describe("the power log highlight (SPEC §9)", () => {
  it("is red 10 A or more above the average and orange 5 A or more above it", () => {
    const samples = [{ current: 10 }, { current: 10 }, { current: 10 }, { current: 30 }];
    const average = averageCurrent(samples);
    expect(average).toBe(15);
    expect(samples.map((sample) => powerHighlight(sample.current, average))).toEqual([null, null, null, "high"]);
    expect(powerHighlight(20, 15)).toBe("raised");
    expect(powerHighlight(19.9, 15)).toBeNull();
    expect(powerHighlight(25, 15)).toBe("high");
    expect(powerHighlight(24.9, 15)).toBe("raised");
    expect(averageCurrent([])).toBe(0);
  });
});
