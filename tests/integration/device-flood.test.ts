// One box floods its socket with 3,000 frames through the real local Worker (wrangler dev, real
// TCP sockets) while another farmer asks for their own pump's status. Locally every hub and D1
// share one workerd thread, so before the frame-rate cap a flood delayed everybody's calls by
// seconds (docs/security.md, "Caps"). Here the box is cut off after its burst, its hub works
// through no more than the cap allows, and the other farmer's calls keep being answered. How
// long they take is a figure of `npm run bench -- --only flood`, not something asserted here.
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type ApiClient, parseAnswer } from "../../common/api-client.ts";
import { hubStatsResponseSchema } from "../../common/api-responses/admin.ts";
import { apiErrorSchema } from "../../common/api-responses/refusals.ts";
import { DEVICE_FRAME_BURST, DEVICE_FRAMES_PER_SECOND } from "../../common/device-protocol.ts";
import { boxAuthorization } from "../../device-sim/box-authorization.ts";
import { connectFloodingBox } from "../../device-sim/flooding-box.ts";
import { localDeviceSocketUrl } from "../../device-sim/simulated-device.ts";
import { registerFarmer, uniqueMobileNo } from "./accounts.ts";
import { sharedAdmin, sharedWorker } from "./shared-worker.ts";

const { worker } = sharedWorker();
let admin: ApiClient;

beforeAll(async () => {
  admin = await sharedAdmin();
});

async function farmerWithBox() {
  const mobileNo = uniqueMobileNo();
  const farmer = await registerFarmer(worker.url, mobileNo);
  const { device, key } = await admin.provisionDevice("3phase", mobileNo);
  const box = await connectFloodingBox(localDeviceSocketUrl(worker.port), device.id, key, "3phase");
  return { farmer, mobileNo, deviceId: device.id, key, box };
}

const framesHandled = async (deviceId: string) =>
  (await admin.get(`/api/admin/devices/${deviceId}/hub-stats`, hubStatsResponseSchema)).stats.deviceFrames;

describe("a box flooding the real Worker", () => {
  it("is cut off with an error frame and close 1008 after its burst, and another farmer's calls are answered throughout", async () => {
    const flooder = await farmerWithBox();
    const other = await farmerWithBox();
    const before = await framesHandled(flooder.deviceId);

    const floodStarted = Date.now();
    const flood = flooder.box.flood(3_000);
    let answeredDuring = 0;
    for (const until = Date.now() + 4_000; Date.now() < until; answeredDuring++) {
      // Throws on any refusal: the other farmer's pump must stay reachable.
      const { status } = await other.farmer.motorStatus(other.mobileNo);
      expect(status).toBe("off");
    }
    const sent = await flood;
    const floodSeconds = (Date.now() - floodStarted) / 1000;
    const code = await flooder.box.closedWithin(30_000);
    console.log(
      `device flood: ${sent} frames sent, box closed with ${code}, ${answeredDuring} status calls answered meanwhile`,
    );
    expect(code).toBe(1008);
    expect(flooder.box.messages.filter((message) => message.includes('"Too many frames'))).toHaveLength(1);
    expect(answeredDuring).toBeGreaterThan(0);
    // Only the burst and what the allowance earned while the box sent were worked through; the
    // rest was dropped unread. Without the cap the hub handles all of them (3,000).
    const handled = (await framesHandled(flooder.deviceId)) - before;
    expect(handled).toBeLessThanOrEqual(DEVICE_FRAME_BURST + Math.ceil(floodSeconds) * DEVICE_FRAMES_PER_SECOND);
    expect(sent).toBeGreaterThan(handled);
    // The flooder's own pump answers too, offline now, and the box must wait before it comes back.
    expect((await flooder.farmer.motorStatus(flooder.mobileNo)).deviceStatus).toBe("offline");
    const again = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const retry = new WebSocket(localDeviceSocketUrl(worker.port), {
        headers: { Authorization: boxAuthorization(flooder.deviceId, flooder.key) },
      });
      retry.once("open", () => reject(new Error("a flooding box was let back in at once")));
      retry.once("unexpected-response", (_request, response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
    });
    expect(again.status).toBe(429);
    expect(parseAnswer(apiErrorSchema, JSON.parse(again.body))).toEqual({
      success: false,
      message: expect.stringMatching(/^Too many frames: reconnect in \d+ s\.$/),
      code: "tooManyFrames",
      params: { seconds: expect.any(Number) },
    });
    other.box.socket.close();
  });
});
