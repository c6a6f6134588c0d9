// Switching a pump from any phone (worker/phone-control/), from the provider's webhook to the hub
// and back: the provider is the local provider's Twilio half played in Node
// (tests/telephony-outbound.ts), and the test sends the webhooks Twilio would, signed, to the
// Worker. An SMS `चालू 30` starts the pump through the hub's one method, the reply says what the box
// confirmed, and the hub's own alarm stops it 30 minutes later (once, however often the alarm
// fires); a missed call stops it during the pause after a command; the voice menu says the state,
// starts and stops; a viewer, an invitee, a stranger and an unverified number get nothing; a lost
// ack is answered "not confirmed"; a provider's retry switches once.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readTwiml } from "../../telephony-sim/twiml.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices } from "../../worker/db/schema.ts";
import { createUser, type TestUser } from "../worker/helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../worker/helpers/boxes.ts";
import { ORIGIN, postJson, putJson } from "../worker/helpers/http.ts";
import { hubStub, motorLogLines, owedSwitchOffs } from "../worker/helpers/hub-state.ts";
import { addMember } from "../worker/helpers/sharing.ts";
import { connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";
import { smsTo, twilioPost } from "../worker/telephony-support.ts";

const PUMP = "कुएँ वाला पंप";
/** A time as Hindi texts give it: the part of the day, never AM or PM. */
const TIME = "(सुबह|दोपहर|शाम|रात) [0-9]{1,2}:[0-9]{2}";
const TIME_EN = "[0-9]{1,2}:[0-9]{2} [AP]M";

function sid(prefix: "CA" | "SM"): string {
  return prefix + crypto.randomUUID().replace(/-/g, "");
}

/** A verified owner with a named pump whose box is connected; it answers like a healthy one unless `silent`. */
async function ownerWithPump(options: { silent?: boolean } = {}) {
  const farmer = await farmerWithDevice();
  await getDb(env.DB).update(devices).set({ name: PUMP }).where(eq(devices.id, farmer.device.deviceId));
  const box = await connectDevice(farmer.device);
  if (!options.silent) box.autoAck({ runningCurrent: 8.4 });
  return { ...farmer, box };
}

/** A farmer's SMS to our number, as Twilio delivers it; the same `messageId` is the provider's retry. */
function sms(from: string, text: string, messageId = sid("SM")) {
  return twilioPost(`${ORIGIN}/api/telephony/twilio/inbound-sms`, {
    MessageSid: messageId,
    From: `+91${from}`,
    To: "+918000000001",
    Body: text,
  });
}

/** A call to one of our numbers (`line`: the stop or start number, or the menu), as Twilio asks while it rings. */
function incomingCall(from: string, line: "stop" | "start" | "menu", callId = sid("CA")) {
  const query = line === "stop" ? "" : `?line=${line}`;
  return twilioPost(`${ORIGIN}/api/telephony/twilio/inbound-call${query}`, {
    CallSid: callId,
    From: `+91${from}`,
    To: "+918000000002",
    CallStatus: "ringing",
    Direction: "inbound",
  });
}

/** `ownerWithPump` with a verified operator who accepted (what their invitation sent has come). */
async function sharedWithOperator() {
  const owner = await ownerWithPump();
  const operator = await createUser();
  await addMember(owner.device.deviceId, owner.token, operator, "operator", "Ram");
  await settle();
  return { ...owner, operator };
}

async function status(deviceId: string) {
  return (await hubStub(deviceId).getSnapshot()).pump.status;
}

function switchesSeen(box: DevicePeer): string[] {
  return box.raw.filter((text) => text.includes('"type":"switch"')).map((text) => JSON.parse(text).relay);
}

/** Nothing more happens within a moment. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

/** Waits for `count` SMS to `mobileNo` and returns their texts. */
async function textsTo(mobileNo: string, count: number): Promise<string[]> {
  await expect.poll(async () => (await smsTo(mobileNo)).length).toBe(count);
  return (await smsTo(mobileNo)).map((message) => message.text);
}

/** Makes the hub's owed switch-offs due now and runs its alarm `times` times at once, as a repeated delivery would. */
async function minutesLater(deviceId: string, times = 1) {
  await runInDurableObject(hubStub(deviceId), (_hub: unknown, state) => {
    state.storage.sql.exec("UPDATE schedule_offs SET due_at = ?", Date.now() - 1);
  });
  await Promise.all(Array.from({ length: times }, () => runDurableObjectAlarm(hubStub(deviceId))));
}

describe("an SMS command", () => {
  it("चालू 30 from the verified owner starts the pump through the hub, says what the box confirmed, and the hub stops it 30 minutes later on its own alarm, once", async () => {
    const { user, device, box } = await ownerWithPump();
    const before = Date.now();
    expect((await sms(user.mobileNo, "चालू ३०")).status).toBe(200);
    expect(await status(device.deviceId)).toBe("on");
    const [reply] = await textsTo(user.mobileNo, 1);
    expect(reply).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर चालू हुई, 30 मिनट बाद अपने-आप बंद होगी।$`));
    // The hub owes the switch-off from the moment the ON left: 30 minutes on its clock.
    const [owed] = await owedSwitchOffs(device.deviceId);
    expect(owed!.dueAt).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(owed!.dueAt).toBeLessThanOrEqual(Date.now() + 30 * 60_000);

    await minutesLater(device.deviceId, 2);
    expect(await status(device.deviceId)).toBe("off");
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    expect(await owedSwitchOffs(device.deviceId)).toEqual([]);
    expect(await motorLogLines(device.deviceId)).toEqual([
      ["on", "Motor turned ON by the owner with an SMS, for 30 minutes"],
      ["off", "Motor turned OFF automatically after the 30 minutes asked for"],
    ]);
    box.close();
  });

  it("OFF in English, STATUS in Hindi: each answered in the account's language with what the hub knows", async () => {
    const { user, device, box, token } = await ownerWithPump();
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    expect((await sms(user.mobileNo, "off")).status).toBe(200);
    expect(await status(device.deviceId)).toBe("off");
    expect((await sms(user.mobileNo, "स्थिति")).status).toBe(200);
    const texts = await textsTo(user.mobileNo, 2);
    expect(texts[0]).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर बंद हुई, डिवाइस ने पुष्टि की।$`));
    expect(texts[1]).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर बंद है, ${TIME} से। करंट 0.0 A, बिजली है।$`));
    // In English once the farmer chose it for alerts.
    expect((await putJson("/api/alerts/channels", { channels: {}, language: "en" }, token)).status).toBe(200);
    await sms(user.mobileNo, "STATUS");
    const [, , english] = await textsTo(user.mobileNo, 3);
    expect(english).toMatch(
      new RegExp(`^Sinchai: pump ${PUMP}: motor OFF since ${TIME_EN}, current 0.0 A, power on.$`),
    );
    box.close();
  });

  it("in English says 1 minute, not 1 minutes, and the real wait in seconds when the hub's pause refuses an ON", async () => {
    const { user, device, box, token } = await ownerWithPump();
    expect((await putJson("/api/alerts/channels", { channels: {}, language: "en" }, token)).status).toBe(200);
    await sms(user.mobileNo, "ON 1");
    expect(await status(device.deviceId)).toBe("on");
    await sms(user.mobileNo, "OFF");
    await sms(user.mobileNo, "ON 90");
    const [on, , refused] = await textsTo(user.mobileNo, 3);
    expect(on).toMatch(
      new RegExp(`^Sinchai: the motor of pump ${PUMP} is ON since ${TIME_EN} and stops by itself after 1 minute.$`),
    );
    expect(refused).toMatch(
      new RegExp(`^Sinchai: pump ${PUMP} did not switch: wait ([2-9]|10) seconds and send again.$`),
    );
    box.close();
  });

  it("from a viewer, an invitee, an unverified owner or a stranger changes nothing and answers nothing", async () => {
    const { user, device, box, token } = await ownerWithPump();
    const viewer = await createUser();
    await addMember(device.deviceId, token, viewer, "viewer", "Sita");
    const invitee = await createUser();
    expect(
      (
        await postJson(
          `/api/pumps/${device.deviceId}/members`,
          { mobileNo: invitee.mobileNo, role: "operator", label: "Ravi" },
          token,
        )
      ).status,
    ).toBe(201);
    const unverified = await farmerWithDevice("3phase", { verified: false });
    const stranger = "9000012345";
    const numbers = [viewer.mobileNo, invitee.mobileNo, unverified.user.mobileNo, stranger, user.mobileNo];
    await settle();
    // Their invitations' SMS came before.
    const before = await Promise.all(numbers.map(async (to) => (await smsTo(to)).length));
    for (const from of numbers.slice(0, 4)) {
      expect((await sms(from, "ON 30")).status).toBe(200);
      expect((await sms(from, `OFF ${device.deviceId.slice(-4)}`)).status).toBe(200);
    }
    await settle();
    expect(switchesSeen(box)).toEqual([]);
    expect(await Promise.all(numbers.map(async (to) => (await smsTo(to)).length))).toEqual(before);
    box.close();
  });

  it("an unknown word gets the short help, only at a verified number", async () => {
    const owner = await createUser();
    const unverified = await createUser({ verified: false });
    await sms(owner.mobileNo, "hello pump");
    await sms(unverified.mobileNo, "hello pump");
    const [help] = await textsTo(owner.mobileNo, 1);
    expect(help).toBe(
      "सिंचाई: चालू 30 (मिनट), बंद या स्थिति लिखें; ON 30, OFF, STATUS भी चलेगा। कई पंप हों तो पंप का नाम भी लिखें।",
    );
    await settle();
    expect(await smsTo(unverified.mobileNo)).toEqual([]);
  });

  it("with several pumps chooses one by its name or its box id's last digits, and asks which when none is named", async () => {
    const { user, device, box } = await ownerWithPump();
    const second = await provisionDevice(user.id);
    const secondBox = (await connectDevice(second)).autoAck();
    await sms(user.mobileNo, "ON 15");
    await textsTo(user.mobileNo, 1);
    expect((await smsTo(user.mobileNo))[0]!.text).toMatch(/कई पंप हैं/);
    await sms(user.mobileNo, `ON 15 ${second.deviceId.slice(-4).toLowerCase()}`);
    expect(await status(second.deviceId)).toBe("on");
    await sms(user.mobileNo, `ON 15 ${PUMP}`);
    expect(await status(device.deviceId)).toBe("on");
    expect(switchesSeen(box)).toEqual(["on"]);
    expect(switchesSeen(secondBox)).toEqual(["on"]);
    box.close();
    secondBox.close();
  });

  it("whose ack is lost is answered plainly as not confirmed", async () => {
    const { user, device, box } = await ownerWithPump({ silent: true });
    expect((await sms(user.mobileNo, "ON 10")).status).toBe(200);
    expect(switchesSeen(box)).toEqual(["on"]);
    expect(await status(device.deviceId)).toBe("unknown");
    const [reply] = await textsTo(user.mobileNo, 1);
    expect(reply).toBe(`सिंचाई: पंप ${PUMP} के डिवाइस ने जवाब नहीं दिया, पता नहीं कि मोटर चली या बंद हुई। ऐप में देखें।`);
    box.close();
  });

  it("retried by the provider, or five times at once, switches once and answers once", async () => {
    const { user, box } = await ownerWithPump();
    const messageId = sid("SM");
    const answers = await Promise.all(Array.from({ length: 5 }, () => sms(user.mobileNo, "ON 20", messageId)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await sms(user.mobileNo, "ON 20", messageId);
    await settle();
    expect(switchesSeen(box)).toEqual(["on"]);
    expect(await textsTo(user.mobileNo, 1)).toHaveLength(1);
    box.close();
  });
});

describe("the words farmers write", () => {
  it("बन्द, मोटर बंद करो and STOP each stop a one-pump sender's motor, answered with what the box confirmed, never asked which pump", async () => {
    for (const text of ["बन्द", "मोटर बंद करो", "STOP"]) {
      const { user, device, box, token } = await ownerWithPump();
      expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
      expect((await sms(user.mobileNo, text)).status).toBe(200);
      expect(await status(device.deviceId)).toBe("off");
      const [reply] = await textsTo(user.mobileNo, 1);
      expect(reply, text).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर बंद हुई, डिवाइस ने पुष्टि की।$`));
      expect(switchesSeen(box)).toEqual(["on", "off"]);
      box.close();
    }
  });

  it("चालु 10 starts for 10 minutes; an ON whose words are not the one pump's name starts nothing and gets the help SMS", async () => {
    const { user, device, box } = await ownerWithPump();
    await sms(user.mobileNo, "चालू 30 खेत वाला");
    const [help] = await textsTo(user.mobileNo, 1);
    expect(help).toMatch(/^सिंचाई: चालू 30 \(मिनट\)/);
    expect(switchesSeen(box)).toEqual([]);
    await sms(user.mobileNo, "मोटर चालु 10");
    expect(await status(device.deviceId)).toBe("on");
    const [, reply] = await textsTo(user.mobileNo, 2);
    expect(reply).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर चालू हुई, 10 मिनट बाद अपने-आप बंद होगी।$`));
    box.close();
  });

  it("an OFF naming no pump from someone with several stops every one that may be running, without asking which", async () => {
    const { user, device, box } = await ownerWithPump();
    const second = await provisionDevice(user.id);
    const secondBox = (await connectDevice(second)).autoAck();
    const third = await provisionDevice(user.id);
    const thirdBox = (await connectDevice(third)).autoAck();
    await sms(user.mobileNo, `चालू ${PUMP}`);
    await sms(user.mobileNo, `चालू ${second.deviceId.slice(-4)}`);
    expect(await status(device.deviceId)).toBe("on");
    expect(await status(second.deviceId)).toBe("on");
    await textsTo(user.mobileNo, 2);
    await sms(user.mobileNo, "off karo");
    expect(await status(device.deviceId)).toBe("off");
    expect(await status(second.deviceId)).toBe("off");
    const texts = await textsTo(user.mobileNo, 4);
    for (const text of texts.slice(2)) expect(text).toMatch(/की मोटर .* पर बंद हुई, डिवाइस ने पुष्टि की।$/);
    expect(switchesSeen(thirdBox)).toEqual([]);
    for (const peer of [box, secondBox, thirdBox]) peer.close();
  });
});

describe("the throttles", () => {
  it("drop a number's 11th command in 10 minutes silently, but never its OFF", async () => {
    const { user, device, box, token } = await ownerWithPump();
    for (let sent = 0; sent < 10; sent++) await sms(user.mobileNo, "STATUS");
    await textsTo(user.mobileNo, 10);
    await sms(user.mobileNo, "STATUS");
    await sms(user.mobileNo, "ON 30");
    await settle();
    expect(await smsTo(user.mobileNo)).toHaveLength(10);
    expect(switchesSeen(box)).toEqual([]);
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    await sms(user.mobileNo, "बंद");
    expect(await status(device.deviceId)).toBe("off");
    const texts = await textsTo(user.mobileNo, 11);
    expect(texts[10]).toMatch(/की मोटर .* पर बंद हुई, डिवाइस ने पुष्टि की।$/);
    box.close();
  });
});

describe("a missed call", () => {
  it("to the stop number stops the pump during the pause after a command, rejected unanswered, and an SMS says the box confirmed", async () => {
    const { user, device, box, token } = await ownerWithPump();
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    const answer = await incomingCall(user.mobileNo, "stop");
    expect(await answer.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>',
    );
    expect(await status(device.deviceId)).toBe("off");
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    const [reply] = await textsTo(user.mobileNo, 1);
    expect(reply).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर बंद हुई, डिवाइस ने पुष्टि की।$`));
    expect((await motorLogLines(device.deviceId)).at(-1)).toEqual([
      "off",
      "Motor turned OFF by the owner with a missed call",
    ]);
    box.close();
  });

  it("to the start number starts only a pump whose owner turned it on, and keeps the hub's rules", async () => {
    const { user, device, box } = await ownerWithPump();
    await incomingCall(user.mobileNo, "start");
    await settle();
    expect(switchesSeen(box)).toEqual([]);
    expect(await smsTo(user.mobileNo)).toEqual([]);
    await getDb(env.DB).update(devices).set({ startByMissedCall: true }).where(eq(devices.id, device.deviceId));
    await incomingCall(user.mobileNo, "start");
    expect(await status(device.deviceId)).toBe("on");
    // At once again: the hub's pause after a command refuses the ON, and the SMS says so.
    await incomingCall(user.mobileNo, "stop");
    await incomingCall(user.mobileNo, "start");
    const texts = await textsTo(user.mobileNo, 3);
    // The real wait, from the cooldown the app counts down too: seconds, not "a minute".
    expect(texts[2]).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} पर आदेश नहीं हुआ: ([1-9]|10) सेकंड बाद फिर भेजें।$`));
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    box.close();
  });

  it("from an operator starts the owner's pump, and the owner is told by SMS who started it", async () => {
    const { user, device, box, operator } = await sharedWithOperator();
    await getDb(env.DB).update(devices).set({ startByMissedCall: true }).where(eq(devices.id, device.deviceId));
    const before = (await smsTo(operator.mobileNo)).length;
    await incomingCall(operator.mobileNo, "start");
    expect(await status(device.deviceId)).toBe("on");
    const [told] = await textsTo(user.mobileNo, 1);
    expect(told).toMatch(
      new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर ${operator.mobileNo} ने फ़ोन से चालू की। रोकना हो तो बंद भेजें।$`),
    );
    const operatorTexts = await textsTo(operator.mobileNo, before + 1);
    expect(operatorTexts.at(-1)).toMatch(new RegExp(`^सिंचाई: पंप ${PUMP} की मोटर ${TIME} पर चालू हुई`));
    box.close();
  });

  it("an operator's SMS ON tells the owner too, in the owner's language; the owner's own start tells nobody else", async () => {
    const { user, device, box, token, operator } = await sharedWithOperator();
    expect((await putJson("/api/alerts/channels", { channels: {}, language: "en" }, token)).status).toBe(200);
    await sms(operator.mobileNo, "चालू 20");
    expect(await status(device.deviceId)).toBe("on");
    const [told] = await textsTo(user.mobileNo, 1);
    expect(told).toMatch(
      new RegExp(
        `^Sinchai: ${operator.mobileNo} started the motor of pump ${PUMP} by phone at ${TIME_EN}. To stop it, send OFF.$`,
      ),
    );
    box.close();

    const own = await sharedWithOperator();
    const operatorBefore = (await smsTo(own.operator.mobileNo)).length;
    await sms(own.user.mobileNo, "चालू 20");
    expect(await status(own.device.deviceId)).toBe("on");
    await textsTo(own.user.mobileNo, 1);
    await settle();
    expect(await smsTo(own.user.mobileNo)).toHaveLength(1);
    expect(await smsTo(own.operator.mobileNo)).toHaveLength(operatorBefore);
    own.box.close();
  });

  it("from a stranger or a viewer is ignored: nothing switches, nothing is sent", async () => {
    const { device, box, token } = await ownerWithPump();
    const viewer = await createUser();
    await addMember(device.deviceId, token, viewer, "viewer", "Sita");
    await getDb(env.DB).update(devices).set({ startByMissedCall: true }).where(eq(devices.id, device.deviceId));
    await settle();
    const invitationOnly = (await smsTo(viewer.mobileNo)).length;
    for (const from of ["9000054321", viewer.mobileNo]) {
      for (const line of ["stop", "start"] as const) {
        const answer = await incomingCall(from, line);
        expect(await answer.text()).toMatch(/<Reject reason="busy"\/>/);
      }
    }
    await settle();
    expect(switchesSeen(box)).toEqual([]);
    expect(await smsTo("9000054321")).toEqual([]);
    expect(await smsTo(viewer.mobileNo)).toHaveLength(invitationOnly);
    box.close();
  });
});

/** A call to the voice menu: what it asks first and where its key goes. */
async function callMenu(from: string) {
  const callId = sid("CA");
  const answer = await incomingCall(from, "menu", callId);
  const { prompt, gather, spoken } = readTwiml(await answer.text());
  return { callId, prompt, keyUrl: gather?.action ?? null, spoken };
}

async function press(keyUrl: string, callId: string, digits: string) {
  const answer = await twilioPost(keyUrl, { CallSid: callId, Digits: digits });
  const { prompt, gather, spoken } = readTwiml(await answer.text());
  return { status: answer.status, prompt, keyUrl: gather?.action ?? null, spoken };
}

describe("the voice menu", () => {
  it("answers a verified owner in Hindi: 1 says the state, 2 then 2 starts for 30 minutes, 3 stops, each after the box's answer", async () => {
    const { user, device, box } = await ownerWithPump();
    const first = await callMenu(user.mobileNo);
    expect(first.prompt).toEqual([
      `नमस्ते, सिंचाई से बोल रहे हैं। पंप ${PUMP}। मोटर का हाल सुनने के लिए 1, मोटर चालू करने के लिए 2, बंद करने के लिए 3 दबाएँ।`,
    ]);
    const state = await press(first.keyUrl!, first.callId, "1");
    expect(state.spoken[0]).toMatch(new RegExp(`^मोटर बंद है, ${TIME} से। करंट 0.0 एम्पियर। बिजली है। धन्यवाद।$`));
    expect(state.keyUrl).toBeNull();

    const second = await callMenu(user.mobileNo);
    const minutes = await press(second.keyUrl!, second.callId, "2");
    expect(minutes.prompt).toEqual(["कितनी देर? 15 मिनट के लिए 1, 30 मिनट के लिए 2, 60 मिनट के लिए 3 दबाएँ।"]);
    const started = await press(minutes.keyUrl!, second.callId, "2");
    expect(started.spoken[0]).toBe("मोटर चालू हो गई, डिवाइस ने पुष्टि की। 30 मिनट बाद अपने-आप बंद होगी। धन्यवाद।");
    expect(await status(device.deviceId)).toBe("on");
    expect((await owedSwitchOffs(device.deviceId)).map((off) => off.scheduleId)).toEqual([0]);

    // The same key delivered again by the provider starts nothing more.
    await twilioPost(minutes.keyUrl!, { CallSid: second.callId, Digits: "2" });

    const third = await callMenu(user.mobileNo);
    const stopped = await press(third.keyUrl!, third.callId, "3");
    expect(stopped.spoken[0]).toBe("मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।");
    expect(await status(device.deviceId)).toBe("off");
    expect(switchesSeen(box)).toEqual(["on", "off"]);
    expect((await motorLogLines(device.deviceId)).map(([, line]) => line)).toEqual([
      "Motor turned ON by the owner on the phone menu, for 30 minutes",
      "Motor turned OFF by the owner on the phone menu",
    ]);
    box.close();
  });

  it("says पता नहीं when the box does not answer in time", async () => {
    const { user, box } = await ownerWithPump({ silent: true });
    const call = await callMenu(user.mobileNo);
    const stopped = await press(call.keyUrl!, call.callId, "3");
    expect(stopped.spoken[0]).toBe("डिवाइस ने जवाब नहीं दिया, पता नहीं कि मोटर चली या बंद हुई। ऐप में देखें या पंप पर जाएँ।");
    box.close();
  });

  it("rejects a stranger, a viewer and an unverified owner while it rings", async () => {
    const { device, box, token } = await ownerWithPump();
    const viewer: TestUser = await createUser();
    await addMember(device.deviceId, token, viewer, "viewer", "Sita");
    const unverified = await farmerWithDevice("3phase", { verified: false });
    for (const from of ["9000011111", viewer.mobileNo, unverified.user.mobileNo]) {
      const call = await callMenu(from);
      expect(call.keyUrl).toBeNull();
      expect(call.spoken).toEqual([]);
    }
    box.close();
  });
});
