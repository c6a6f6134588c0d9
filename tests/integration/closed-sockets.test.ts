// A phone that ignores the hub's close frame, on a real TCP connection to the real local Worker
// (wrangler dev): after each way the hub closes a browser socket (logout, too many tabs, a
// request flood, an oversized frame, the pump relinked), the client keeps sending `switchMotor`
// requests on the connection the runtime still holds open. Not one of them may reach the box,
// and none is answered. Before the hub dropped frames from sockets it had closed, a logged-out
// phone switched the motor this way (docs/security.md, "Closed sockets").
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../common/api-client.ts";
import { accessChangeResponseSchema, messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { BROWSER_CLOSE } from "../../common/hub-contract.ts";
import {
  BROWSER_REQUEST_BURST,
  BROWSER_SOCKETS_PER_VIEWER,
  MAX_BROWSER_FRAME_BYTES,
} from "../../common/realtime-protocol.ts";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { invitedFarmer, registerFarmer, uniqueMobileNo } from "./accounts.ts";
import { RawWebSocket } from "./raw-websocket.ts";
import { pumpsOnSharedWorker } from "./simulated-pumps.ts";

const suite = pumpsOnSharedWorker();

/** A browser socket opened with the farmer's bearer token, by a client that never answers a close. */
async function rawTab(farmer: ApiClient, deviceId: string): Promise<RawWebSocket> {
  const url = `${suite.worker.url.replace("http:", "ws:")}/api/realtime?deviceId=${deviceId}`;
  const tab = await RawWebSocket.open(url, { Authorization: `Bearer ${farmer.token}` });
  expect(await tab.waitFor(() => tab.texts.some((text) => text.includes('"initialData"')), CONDITION_LIMIT_MS)).toBe(
    true,
  );
  return tab;
}

let requestIds = 0;
function switchOn(): string {
  requestIds += 1;
  return JSON.stringify({ type: "switchMotor", action: "on", requestId: `attack-${requestIds}` });
}

/**
 * After the hub's close frame reached `tab`, keeps asking for ON for `ms`; the box must stay OFF
 * and no answer may come. Returns how many requests went out on the still-open connection.
 */
async function keepsSwitchingAfterClose(tab: RawWebSocket, box: SimulatedDevice, expectedCode: number, ms = 2_500) {
  expect(await tab.waitFor(() => tab.closeFrame !== null, CONDITION_LIMIT_MS)).toBe(true);
  expect(tab.closeFrame?.code).toBe(expectedCode);
  const answersBefore = tab.texts.filter((text) => text.includes('"commandResult"')).length;
  for (const until = Date.now() + ms; Date.now() < until; ) {
    tab.sendText(switchOn());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Time for a command that did get through to reach the box and be answered.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(box.relay).toBe("off");
  expect(tab.texts.filter((text) => text.includes('"commandResult"')).length).toBe(answersBefore);
  return tab.sentAfterClose;
}

describe("a client that ignores the hub's close frame", () => {
  it("after logout (4401) switches nothing, however long it keeps the connection", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const tab = await rawTab(farmer, deviceId);
    await farmer.post("/api/auth/logout", messageResponseSchema);
    const sent = await keepsSwitchingAfterClose(tab, box, BROWSER_CLOSE.signedOut);
    // The runtime still held the connection open for the requests (else this proves nothing).
    expect(sent).toBeGreaterThan(5);
    tab.destroy();
  });

  it("closed as the oldest of too many tabs (4409) switches nothing", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const oldest = await rawTab(farmer, deviceId);
    const others = [];
    for (let index = 0; index < BROWSER_SOCKETS_PER_VIEWER; index++) others.push(await rawTab(farmer, deviceId));
    expect(await keepsSwitchingAfterClose(oldest, box, BROWSER_CLOSE.tooManyTabs)).toBeGreaterThan(5);
    for (const tab of [oldest, ...others]) tab.destroy();
  });

  it("closed for a request flood (1008) switches nothing afterwards", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const tab = await rawTab(farmer, deviceId);
    // Requests the hub refuses by code (an unknown action): they spend the allowance and switch nothing.
    for (let index = 0; index <= BROWSER_REQUEST_BURST; index++)
      tab.sendText(JSON.stringify({ type: "switchMotor", action: "sideways", requestId: `flood-${index}` }));
    expect(await keepsSwitchingAfterClose(tab, box, 1008)).toBeGreaterThan(5);
    tab.destroy();
  });

  it("closed for an oversized frame (1009) switches nothing afterwards", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const tab = await rawTab(farmer, deviceId);
    tab.sendText("x".repeat(MAX_BROWSER_FRAME_BYTES + 1));
    expect(await keepsSwitchingAfterClose(tab, box, 1009)).toBeGreaterThan(5);
    tab.destroy();
  });

  it("after the pump was relinked to another farmer (4404) switches nothing", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const tab = await rawTab(farmer, deviceId);
    const next = uniqueMobileNo();
    await registerFarmer(suite.worker.url, next);
    await suite.admin.put(`/api/admin/devices/${deviceId}/owner`, accessChangeResponseSchema, { mobileNo: next });
    expect(await keepsSwitchingAfterClose(tab, box, BROWSER_CLOSE.deviceUnlinked)).toBeGreaterThan(5);
    tab.destroy();
  });
});

/**
 * What a hostile client sends on a closed socket: requests that would act if anything did (ON,
 * OFF, with every id shape), near-misses, junk JSON, text and frames over the size cap.
 */
const frameAfterClose: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({ action: fc.constantFrom("on", "off"), requestId: fc.string({ minLength: 1, maxLength: 64 }) })
    .map((request) => JSON.stringify({ type: "switchMotor", ...request })),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.integer({ min: MAX_BROWSER_FRAME_BYTES - 10, max: MAX_BROWSER_FRAME_BYTES + 100 }).map((size) => "x".repeat(size)),
);

describe("fuzzing a socket the hub closed", () => {
  it("300 generated frames after logout: the box never switches and nothing is answered", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const tab = await rawTab(farmer, deviceId);
    await farmer.post("/api/auth/logout", messageResponseSchema);
    expect(await tab.waitFor(() => tab.closeFrame !== null, CONDITION_LIMIT_MS)).toBe(true);
    const framesBefore = tab.texts.length;
    const seed = Number(process.env.FUZZ_SEED || 20261123);
    const frames = fc.sample(frameAfterClose, { numRuns: 300, seed });
    for (const frame of frames) tab.sendText(frame);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(tab.sentAfterClose).toBe(300);
    expect(box.relay).toBe("off");
    expect(tab.texts.slice(framesBefore)).toEqual([]);
    tab.destroy();
  });
});

/** `owner` invites a new farmer to `deviceId` as `role`; with `accept`, the farmer accepts. */
function person(owner: ApiClient, deviceId: string, role: "operator" | "viewer", accept = true) {
  return invitedFarmer(suite.worker, owner, deviceId, role, { accept });
}

/** The status of a raw client's upgrade to `deviceId`'s realtime socket with `client`'s token: 101, or the refusal's. */
async function upgradeStatus(client: ApiClient, deviceId: string): Promise<string> {
  const url = `${suite.worker.url.replace("http:", "ws:")}/api/realtime?deviceId=${deviceId}`;
  try {
    const tab = await RawWebSocket.open(url, { Authorization: `Bearer ${client.token}` });
    tab.destroy();
    return "101";
  } catch (error) {
    return String(error).match(/HTTP\/1\.1 (\d{3})/)?.[1] ?? String(error);
  }
}

describe("who may switch, asked on a raw socket", () => {
  it("a viewer's request is refused and the box hears nothing; an invitee and a stranger get no socket", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const viewer = await person(farmer, deviceId, "viewer");
    const invitee = await person(farmer, deviceId, "operator", false);
    const stranger = await registerFarmer(suite.worker.url, uniqueMobileNo());
    const tab = await rawTab(viewer.client, deviceId);
    tab.sendText(switchOn());
    expect(
      await tab.waitFor(() => tab.texts.some((text) => text.includes('"commandResult"')), CONDITION_LIMIT_MS),
    ).toBe(true);
    expect(tab.texts.find((text) => text.includes('"commandResult"'))).toContain('"code":"notAllowed"');
    expect(box.relay).toBe("off");
    expect(await upgradeStatus(invitee.client, deviceId)).toBe("404");
    expect(await upgradeStatus(stranger, deviceId)).toBe("404");
    tab.destroy();
  });

  it("an operator removed while their socket is open switches nothing on it afterwards (4404)", async () => {
    const { farmer, deviceId, box } = await suite.pumps.farmerWithPump();
    const operator = await person(farmer, deviceId, "operator");
    const tab = await rawTab(operator.client, deviceId);
    await farmer.delete(`/api/pumps/${deviceId}/members/${operator.mobileNo}`, accessChangeResponseSchema);
    expect(await keepsSwitchingAfterClose(tab, box, BROWSER_CLOSE.deviceUnlinked)).toBeGreaterThan(5);
    tab.destroy();
  });
});
