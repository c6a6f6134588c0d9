// "Ask the device again" (POST /api/pumps/{id}/ask-again): when nobody can vouch for the relay,
// whoever may switch the pump (its owner, an operator) asks the box to state it; its health
// report settles the status. A viewer may only look, and an admin never switches a farmer's
// pump: both are refused before the box is asked (docs/user-area.md, docs/pump-state.md).
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { motorStatusResponseSchema } from "../../../common/api-responses/devices.ts";
import { adminToken, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { postJson } from "../helpers/http.ts";
import { rewriteHubState } from "../helpers/hub-state.ts";
import { sharePump } from "../helpers/sharing.ts";

/** The hub lost a command's answer: nobody can vouch for the relay. */
function notSure(deviceId: string) {
  return rewriteHubState(deviceId, (state) => ({
    ...state,
    motor: { status: "unknown", since: Date.now(), source: "noAnswer" },
  }));
}

describe("asking the device again", () => {
  it("lets an operator ask: the box's report settles a status nobody could vouch for", async () => {
    const { device, token, box } = await farmerWithBox();
    const { operator } = await sharePump(device.deviceId, token);
    await notSure(device.deviceId);
    const asked = postJson(`/api/pumps/${device.deviceId}/ask-again`, {}, await loginToken(operator));
    const request = await box.next("request");
    expect(request.what).toBe("health");
    box.send({ type: "ack", id: request.id, ok: true, relay: "off" });
    box.send({ type: "health", uptime: 42, signal: -71, relay: "off", connection: "connected", version: "test-1.0.0" });
    const answer = await asked;
    expect(answer.status).toBe(200);
    expect(await readJson(answer, motorStatusResponseSchema)).toMatchObject({ status: "off", statusSource: "health" });
  });

  it("refuses a viewer and an admin without asking the box", async () => {
    const { device, token, box } = await farmerWithBox();
    const { viewer } = await sharePump(device.deviceId, token);
    for (const caller of [await loginToken(viewer), await adminToken()]) {
      expect((await postJson(`/api/pumps/${device.deviceId}/ask-again`, {}, caller)).status).toBe(403);
    }
    await box.expectNone("request", 300);
  });

  it("tells the owner the box is offline (503)", async () => {
    const { device, token } = await farmerWithDevice();
    expect((await postJson(`/api/pumps/${device.deviceId}/ask-again`, {}, token)).status).toBe(503);
  });
});
