// Alerts by SMS and call end to end, as `npm start` runs them: the real Worker under `wrangler
// dev` (workerd, local D1, the DeviceHubs), the device simulator as the farmer's box and the local
// telephony provider as Twilio and the farmer's phone. A dry-run trip reaches the farmer in Hindi
// by SMS when the phone rings out, and by a call when it is answered; pressing 1 on the call stops
// the running motor through the hub (the simulator's relay opens) and the motor log says who. A
// forged keypress changes nothing; the real one replayed is acted on once.
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../../common/api-client.ts";
import type { SimulatedDevice } from "../../device-sim/simulated-device.ts";
import type { SimCall } from "../../telephony-sim/phone-log.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { logTexts, pumpsOnSharedWorker } from "./simulated-pumps.ts";
import { signedTwilioPost } from "./worker-with-phone.ts";

const PUMP_NAME = "कुएँ वाला पंप";

const suite = pumpsOnSharedWorker();

/** A farmer whose number was verified by a code, with a named 5 HP pump whose simulated box is online. */
function verifiedFarmerWithPump() {
  return suite.pumps.farmerWithPump({
    verified: true,
    name: PUMP_NAME,
    runningCurrent: true,
    box: { protectionGraceMs: 1_700, protectionSustainMs: 300, protectionSampleMs: 50, reconnectBaseMs: 100 },
  });
}

/** Switches the motor ON as the farmer from the app, waiting out the pause after the last command. */
async function switchOnFromApp(farmer: ApiClient) {
  await expect.poll(async () => (await farmer.switchMotor("on")).status, { interval: 1_000 }).toBe(200);
}

/** The box runs dry: it trips and opens its relay. */
async function dryRunTrip(box: SimulatedDevice) {
  box.inject("dryRun");
  await box.waitFor("tripped", CONDITION_LIMIT_MS);
  expect(box.relay).toBe("off");
  box.inject("normal");
}

/** Where the call's key goes, as the call's TwiML names it (the voice URL without what only the script needs). */
function keyUrlOf(call: SimCall): string {
  const url = new URL(call.voiceUrl!);
  url.pathname = url.pathname.replace(/\/voice$/, "/keypress");
  url.searchParams.delete("pumpName");
  url.searchParams.delete("kind");
  return url.toString();
}

function signedKeypress(url: string, callId: string, token: string): Promise<Response> {
  return signedTwilioPost(url, { CallSid: callId, Digits: "1" }, token);
}

describe("a dry-run trip reaches the farmer's phone", () => {
  it("by SMS when the phone rings out, by a call when it is answered; 1 on the call tells the motor's state", async () => {
    const client = suite.phone;
    const { farmer, mobileNo, box } = await verifiedFarmerWithPump();

    // Night one: the phone is in another room. The call rings out; the SMS names the pump.
    await client.setAnswering(mobileNo, false);
    await switchOnFromApp(farmer);
    await dryRunTrip(box);
    await client.waitForCall(mobileNo, (call) => call.status === "no-answer");
    // Registration's code came before it: wait for the one that names the pump.
    const sms = await client.waitForSms(mobileNo, (message) => message.text.includes(PUMP_NAME));
    expect(sms.text).toBe(`सिंचाई: पंप ${PUMP_NAME} सूखा चला, मोटर बंद कर दी गई। पानी का स्रोत देखें।`);

    // Night two: the farmer answers. The call names the pump and, the motor being stopped
    // already, offers to hear its state, not to stop it.
    await client.setAnswering(mobileNo, true);
    await switchOnFromApp(farmer);
    await dryRunTrip(box);
    const call = await client.waitForCall(mobileNo, (candidate) => candidate.waitingForKey);
    expect(call.spoken).toEqual([
      `नमस्ते, सिंचाई से कॉल है। पंप ${PUMP_NAME} ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें।`,
      "मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।",
    ]);
    // Before the farmer presses, the son switches it back ON from the app: it runs.
    await switchOnFromApp(farmer);
    expect(box.relay).toBe("on");

    // A forged keypress (signed with another token) is refused.
    const keyUrl = keyUrlOf(call);
    expect((await signedKeypress(keyUrl, call.id, "not-our-token")).status).toBe(403);

    // The farmer presses 1: the call tells the state as the hub vouches for it now, and switches nothing.
    let switches = 0;
    box.on("switched", () => switches++);
    await client.press("1", call.id);
    const after = (await client.records()).calls.find((candidate) => candidate.id === call.id)!;
    expect(after.spoken.at(-1)).toMatch(/^मोटर चालू है, .+ से। करंट [0-9.]+ एम्पियर।/);

    // The same keypress replayed, correctly signed: answered, and still nothing switched.
    expect((await signedKeypress(keyUrl, call.id, suite.token)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(switches).toBe(0);
    expect(box.relay).toBe("on");
    expect((await logTexts(farmer, mobileNo)).filter((text) => text.includes("pressing 1"))).toHaveLength(0);
    // One alert SMS in all: night one's; none follows an answered call. (Registration's code is the other SMS.)
    const texts = (await client.records()).sms.filter((message) => message.to === mobileNo).map((m) => m.text);
    expect(texts.filter((text) => text === sms.text)).toHaveLength(1);
    expect(texts.filter((text) => text.includes(PUMP_NAME))).toHaveLength(1);
  });
});
