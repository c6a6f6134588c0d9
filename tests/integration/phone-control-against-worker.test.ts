// Switching a pump from any phone end to end, as `npm start` runs it: the real Worker under
// `wrangler dev` (workerd, local D1, the DeviceHubs), the device simulator as the farmer's box and
// the local telephony provider as Twilio and the farmer's phone. An SMS `चालू 1` starts the pump
// (the simulator's relay closes), the reply says the box confirmed it, and the hub's own alarm
// stops it a minute later; a missed call stops it during the pause after a command; the voice
// menu says the state, starts and stops; a viewer's SMS and a stranger's missed call change and
// answer nothing; a lost ack is answered "not confirmed"; the provider's retry acts once.
import { describe, expect, it } from "vitest";
import { invitedFarmer, uniqueMobileNo } from "./accounts.ts";
import { logTexts, pumpsOnSharedWorker } from "./simulated-pumps.ts";
import { signedTwilioPost } from "./worker-with-phone.ts";

const PUMP = "कुएँ वाला पंप";
/** A time as Hindi texts give it: the part of the day, never AM or PM. */
const TIME = "(सुबह|दोपहर|शाम|रात) [0-9]{1,2}:[0-9]{2}";

const suite = pumpsOnSharedWorker();
const client = suite.phone;

/** A verified farmer with a named 5 HP pump whose simulated box is online. */
function verifiedFarmerWithPump() {
  return suite.pumps.farmerWithPump({
    verified: true,
    name: PUMP,
    runningCurrent: true,
    box: { reconnectBaseMs: 100 },
  });
}

/** The SMS to `mobileNo` that came after the `count` it had, waiting for it. */
async function nextSms(mobileNo: string, count: number): Promise<string> {
  await expect
    .poll(async () => (await client.records()).sms.filter((sms) => sms.to === mobileNo).length)
    .toBeGreaterThan(count);
  return (await client.records()).sms.filter((sms) => sms.to === mobileNo)[count]!.text;
}

async function smsCount(mobileNo: string): Promise<number> {
  return (await client.records()).sms.filter((sms) => sms.to === mobileNo).length;
}

describe("switching a pump from any phone against the real Worker", () => {
  it("an SMS चालू 1 starts the pump, the reply says the box confirmed it, a missed call stops it in the pause after the command, and the hub's alarm stops a timed run a minute later", async () => {
    const { farmer, mobileNo, box } = await verifiedFarmerWithPump();
    let seen = await smsCount(mobileNo);
    expect(await client.inboundSms(mobileNo, "चालू 1")).toBe(200);
    expect(box.relay).toBe("on");
    expect(await nextSms(mobileNo, seen++)).toMatch(
      new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर चालू हुई, 1 मिनट बाद अपने-आप बंद होगी।$`),
    );

    // At once, inside the 10 s pause after a command: a stop is never held back.
    expect(await client.missedCall(mobileNo)).toBe(200);
    expect(box.relay).toBe("off");
    expect(await nextSms(mobileNo, seen++)).toMatch(
      new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर बंद हुई, डिवाइस ने पुष्टि की।$`),
    );

    // After the pause, ON for a minute again: the hub stops it by itself.
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    expect(await client.inboundSms(mobileNo, "ON 1")).toBe(200);
    expect(box.relay).toBe("on");
    await nextSms(mobileNo, seen++);
    await expect.poll(() => box.relay, { timeout: 90_000, interval: 1_000 }).toBe("off");
    await expect
      .poll(() => logTexts(farmer, mobileNo))
      .toContain("Motor turned OFF automatically after the 1 minute asked for");
    const texts = await logTexts(farmer, mobileNo);
    expect(texts).toContain("Motor turned ON by the owner with an SMS, for 1 minute");
    expect(texts).toContain("Motor turned OFF by the owner with a missed call");
  });

  it("the voice menu says the state in Hindi, starts for 15 minutes and stops, each after the box's answer", async () => {
    const { farmer, mobileNo, box } = await verifiedFarmerWithPump();
    const state = await client.callMenu(mobileNo);
    expect(state.spoken).toEqual([
      `नमस्ते, सिंचाई से बोल रहे हैं। पंप ${PUMP}। मोटर का हाल सुनने के लिए 1, मोटर चालू करने के लिए 2, बंद करने के लिए 3 दबाएँ।`,
    ]);
    await client.press("1", state.id);
    const heard = (await client.records()).calls.find((call) => call.id === state.id)!;
    expect(heard.spoken.at(-1)).toMatch(new RegExp(`^मोटर बंद है, ${TIME} से। करंट 0.0 एम्पियर। बिजली है। धन्यवाद।$`));

    const start = await client.callMenu(mobileNo);
    await client.press("2", start.id);
    await client.press("1", start.id);
    expect(box.relay).toBe("on");
    const started = (await client.records()).calls.find((call) => call.id === start.id)!;
    expect(started.spoken.at(-1)).toBe("मोटर चालू हो गई, डिवाइस ने पुष्टि की। 15 मिनट बाद अपने-आप बंद होगी। धन्यवाद।");

    const stop = await client.callMenu(mobileNo);
    await client.press("3", stop.id);
    expect(box.relay).toBe("off");
    const stopped = (await client.records()).calls.find((call) => call.id === stop.id)!;
    expect(stopped.spoken.at(-1)).toBe("मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।");
    await expect
      .poll(() => logTexts(farmer, mobileNo))
      .toContain("Motor turned ON by the owner on the phone menu, for 15 minutes");
    expect(await logTexts(farmer, mobileNo)).toContain("Motor turned OFF by the owner on the phone menu");
  });

  it("a viewer's SMS is refused silently and a stranger's missed call is ignored", async () => {
    const { farmer, deviceId, box } = await verifiedFarmerWithPump();
    const { mobileNo: viewerNo } = await invitedFarmer(suite.worker, farmer, deviceId, "viewer", { label: "Sita" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const viewerSms = await smsCount(viewerNo);
    let switches = 0;
    box.on("switched", () => switches++);
    expect(await client.inboundSms(viewerNo, "चालू 30")).toBe(200);
    const stranger = uniqueMobileNo();
    expect(await client.missedCall(stranger)).toBe(200);
    await client.settled();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(switches).toBe(0);
    expect(box.relay).toBe("off");
    expect(await smsCount(viewerNo)).toBe(viewerSms);
    expect(await smsCount(stranger)).toBe(0);
  });

  it("a lost ack is answered as not confirmed, and a provider's retry of the same SMS acts once", async () => {
    const { mobileNo, box } = await verifiedFarmerWithPump();
    const seen = await smsCount(mobileNo);
    box.inject("noAck");
    expect(await client.inboundSms(mobileNo, "ON 5")).toBe(200);
    expect(await nextSms(mobileNo, seen)).toBe(
      `सिंचाई: पंप ${PUMP} के डिवाइस ने जवाब नहीं दिया, पता नहीं कि मोटर चली या बंद हुई। ऐप में देखें।`,
    );
    box.inject("ackNormally");
    // The box's next report settles the unknown state; wait out the pause after the command.
    await new Promise((resolve) => setTimeout(resolve, 10_500));

    // Twilio retries a webhook it got no answer to: the same MessageSid, signed again.
    let switches = 0;
    box.on("switched", () => switches++);
    const url = `http://localhost:${suite.worker.port}/api/telephony/twilio/inbound-sms`;
    const fields = { MessageSid: `SM${"a".repeat(32)}`, From: `+91${mobileNo}`, Body: "OFF" };
    const post = () => signedTwilioPost(url, fields, suite.token);
    const answers = await Promise.all([post(), post(), post()]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await post()).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(switches).toBe(1);
    expect(box.relay).toBe("off");
    expect(await smsCount(mobileNo)).toBe(seen + 2);
  });
});
