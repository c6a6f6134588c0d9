// Caps on what sockets may cost (docs/security.md, "Caps"): a flooding box is cut off before it
// slows anybody else; browser sockets per account and per pump; browser frame size.
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { hubStatsResponseSchema } from "../../../common/api-responses/admin.ts";
import { motorStatusResponseSchema } from "../../../common/api-responses/devices.ts";
import { DEVICE_FRAME_BURST, DEVICE_FRAMES_PER_SECOND } from "../../../common/device-protocol.ts";
import { BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { apiEn } from "../../../common/i18n/api-en.ts";
import {
  BROWSER_SOCKETS_PER_DEVICE,
  BROWSER_SOCKETS_PER_VIEWER,
  MAX_BROWSER_FRAME_BYTES,
} from "../../../common/realtime-protocol.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { api, getJson, refusal } from "../helpers/http.ts";
import { type BrowserPeer, basicAuth, connectBrowser, connectDevice } from "../helpers/sockets.ts";

describe("a box flooding its socket", () => {
  // The timing under a flood is measured against the real local Worker, over real sockets:
  // tests/integration/device-flood.test.ts.
  it("is cut off after its burst with one error frame and close 1008, and must wait before it comes back", async () => {
    const [flooder, other] = await Promise.all([farmerWithDevice(), farmerWithDevice()]);
    const otherBox = await connectDevice(other.device);
    const box = await connectDevice(flooder.device);
    const floodStarted = Date.now();
    for (let index = 0; index < 3_000; index++)
      box.send({ type: "power", current: 5 + (index % 10) / 10, wattage: 3_000 });
    expect((await box.waitForClose()).code).toBe(1008);
    const floodSeconds = (Date.now() - floodStarted) / 1000;
    const errors = box.received.filter((message) => message.type === "error");
    expect(errors).toEqual([
      {
        type: "error",
        message: `Too many frames: at most ${DEVICE_FRAME_BURST} at once and ${DEVICE_FRAMES_PER_SECOND} a second.`,
      },
    ]);

    // Only the allowance was worked through (the hello was one of it): the burst, and what the
    // bucket refilled while the frames went in (on a busy machine that takes a while).
    const admin = await adminToken();
    const stats = await readJson(
      await getJson(`/api/admin/devices/${flooder.device.deviceId}/hub-stats`, admin),
      hubStatsResponseSchema,
    );
    expect(stats.stats.deviceFrames).toBeLessThanOrEqual(
      DEVICE_FRAME_BURST + Math.ceil(floodSeconds) * DEVICE_FRAMES_PER_SECOND,
    );
    const refused = await api("/api/device/connect", {
      headers: { Upgrade: "websocket", Authorization: basicAuth(flooder.device.deviceId, flooder.device.key) },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual(
      refusal(expect.stringMatching(/^Too many frames: reconnect in \d+ s\.$/), "tooManyFrames", {
        seconds: expect.any(Number),
      }),
    );
    // Both farmers' pumps still answer; the flooder's is offline, the other's untouched.
    const status = async (farmer: typeof flooder) =>
      (
        await readJson(
          await getJson(`/api/devices/motor/status/${farmer.user.mobileNo}`, farmer.token),
          motorStatusResponseSchema,
        )
      ).deviceStatus;
    expect(await status(flooder)).toBe("offline");
    expect(await status(other)).toBe("online");
    otherBox.close();
  });

  it("may send its burst back to back, which a box's hello and first readings need", async () => {
    const farmer = await farmerWithDevice();
    const box = await connectDevice(farmer.device);
    // The hello took one frame of the allowance.
    for (let index = 0; index < DEVICE_FRAME_BURST - 1; index++) box.send({ type: "power", current: 1, wattage: 575 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(box.closed).toBeNull();
    expect(box.received.filter((message) => message.type === "error")).toEqual([]);
    box.close();
  });
});

describe("browser sockets", () => {
  it(`one account opens at most ${BROWSER_SOCKETS_PER_VIEWER} on one pump: the oldest is closed with ${BROWSER_CLOSE.tooManyTabs}, the newest watches`, async () => {
    const farmer = await farmerWithDevice();
    const tabs: BrowserPeer[] = [];
    for (let index = 0; index < BROWSER_SOCKETS_PER_VIEWER; index++)
      tabs.push(await connectBrowser(farmer.user.mobileNo, { token: farmer.token }));
    const newest = await connectBrowser(farmer.user.mobileNo, { token: farmer.token });
    expect(await tabs[0]!.waitForClose()).toEqual({ code: BROWSER_CLOSE.tooManyTabs, reason: "tooManyTabs" });
    expect((await newest.next("initialData")).type).toBe("initialData");
    for (const tab of tabs.slice(1)) expect(tab.closed).toBeNull();
    for (const tab of [...tabs, newest]) tab.close();
  });

  it(`one pump takes at most ${BROWSER_SOCKETS_PER_DEVICE} from all its viewers; the next is refused with 429 JSON and nobody is closed`, async () => {
    const farmer = await farmerWithDevice();
    const admins = await Promise.all(
      Array.from({ length: Math.ceil(BROWSER_SOCKETS_PER_DEVICE / BROWSER_SOCKETS_PER_VIEWER) }, async () =>
        loginToken(await createUser({ isAdmin: true }), "admin"),
      ),
    );
    const sockets: BrowserPeer[] = [];
    for (const token of admins) {
      for (let index = 0; index < BROWSER_SOCKETS_PER_VIEWER; index++)
        sockets.push(await connectBrowser(farmer.user.mobileNo, { token }));
    }
    expect(sockets).toHaveLength(BROWSER_SOCKETS_PER_DEVICE);
    const refused = await api(`/api/realtime?mobileNo=${farmer.user.mobileNo}`, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${farmer.token}` },
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(refusal(apiEn["error.tooManyViewers"], "tooManyViewers"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sockets.filter((socket) => socket.closed !== null)).toEqual([]);
    for (const socket of sockets) socket.close();
    // Room again once some leave.
    await expect
      .poll(async () => {
        try {
          (await connectBrowser(farmer.user.mobileNo, { token: farmer.token })).close();
          return "open";
        } catch {
          return "refused";
        }
      })
      .toBe("open");
  });

  it(`a browser frame over ${MAX_BROWSER_FRAME_BYTES} bytes closes the socket with 1009; up to it, nothing happens`, async () => {
    const farmer = await farmerWithDevice();
    const browser = await connectBrowser(farmer.user.mobileNo, { token: farmer.token });
    browser.sendRaw("x".repeat(MAX_BROWSER_FRAME_BYTES));
    browser.sendRaw("अ".repeat(Math.floor(MAX_BROWSER_FRAME_BYTES / 3)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(browser.closed).toBeNull();
    browser.sendRaw("अ".repeat(Math.floor(MAX_BROWSER_FRAME_BYTES / 3) + 1)); // 4,098 bytes of UTF-8
    expect((await browser.waitForClose()).code).toBe(1009);

    const other = await connectBrowser(farmer.user.mobileNo, { token: farmer.token });
    other.sendRaw("x".repeat(4 * 1024 * 1024));
    expect((await other.waitForClose()).code).toBe(1009);
  });
});
