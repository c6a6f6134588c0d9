// A farmer's motor running on a box that answers like a healthy one, for the safety net's tests:
// the farmer's default config (1 A, 30 % / 30 %: dry run below 0.7 A, overcurrent above 1.3 A;
// a 3-phase box's voltage limits 340–460 V, 6 %), and the hub's clocks moved past the start-up
// grace and a breach's sustain without waiting for them.
import { expect, onTestFinished } from "vitest";
import { HUB_SAFETY_SUSTAIN_MS, PROTECTION_STARTUP_GRACE_MS } from "../../common/protection.ts";
import type { Breach } from "../../durable-objects/device-hub/state.ts";
import { farmerWithDevice } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { rewriteHubState } from "../worker/helpers/hub-state.ts";
import { browserWatching, connectDevice } from "../worker/helpers/sockets.ts";

/** The farmer's motor switched ON and running; its box and the farmer's page are closed when the test ends. */
export async function runningMotor() {
  const farmer = await farmerWithDevice();
  const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1 });
  const browser = await browserWatching(farmer.user.mobileNo, { token: farmer.token });
  onTestFinished(() => {
    box.close();
    browser.close();
  });
  expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
  await box.next("switch");
  return { ...farmer, box, browser };
}

/** Moves the hub's memory of when the motor started (and a breach of `breachKind` began) into the past. */
export function ageRun(deviceId: string, breachKind: Breach | null) {
  const longAgo = Date.now() - PROTECTION_STARTUP_GRACE_MS - HUB_SAFETY_SUSTAIN_MS - 1_000;
  return rewriteHubState(deviceId, (state) => ({
    ...state,
    relayOnSince: longAgo,
    breach: breachKind ? { kind: breachKind, since: Date.now() - HUB_SAFETY_SUSTAIN_MS - 1 } : null,
  }));
}
