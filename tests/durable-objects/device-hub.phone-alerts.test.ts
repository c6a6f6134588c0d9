// Alerts by SMS and call, from the hub's alert to the provider and back (worker/alerts/): the
// provider is the local provider's own Twilio half, played in Node (tests/telephony-outbound.ts),
// and its webhooks are sent by the test, signed, to the URLs the Worker gave it. A dry-run trip
// calls a verified owner in Hindi naming the pump; the stop key switches the pump OFF through
// the hub's method and role check, once however often its webhook comes, and never for a
// forged one; an unanswered call sends the SMS, once; an event alerts once however many pages
// watch it; nobody who may not get the pump's alerts, and no unverified number, gets anything.
// Each SMS and call is kept in its pump's hub; the daily caps span an account's pumps in D1, and
// so do the month's costs.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { PumpAlert } from "../../common/alerts.ts";
import { readJson } from "../../common/api-client.ts";
import { telephonyUsageResponseSchema } from "../../common/api-responses/admin.ts";
import { alertChannelsResponseSchema } from "../../common/api-responses/alerts.ts";
import { istDay } from "../../common/pump-usage.ts";
import { twilioSignature } from "../../common/twilio-signature.ts";
import { AlertDeliveriesTable } from "../../durable-objects/device-hub/alert-deliveries-table.ts";
import { sendPhoneAlert } from "../../worker/alerts/phone-alerts.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, phoneAlertDays, users } from "../../worker/db/schema.ts";
import { istMonth } from "../../worker/services/telephony-usage.ts";
import { adminToken, createUser, loginToken } from "../worker/helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../worker/helpers/boxes.ts";
import { deleteJson, getJson, postJson, putJson } from "../worker/helpers/http.ts";
import { fireTimer, hubAlertDeliveries, hubStub, motorLogRows } from "../worker/helpers/hub-state.ts";
import { addMember, sharePump } from "../worker/helpers/sharing.ts";
import { browserWatching, connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";
import {
  answerCall,
  callProgress,
  callsTo,
  pressKey,
  smsTo,
  twilioPost,
  verifyNumber,
  waitForCalls,
  waitForSms,
} from "../worker/telephony-support.ts";

const DRY_RUN_CALL = "नमस्ते, सिंचाई से कॉल है। पंप कुएँ वाला पंप ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें।";
const STOP_OFFER = "मोटर बंद करने के लिए 1 दबाएँ। कुछ न बदलना हो तो फ़ोन रख दें।";
const STATE_OFFER = "मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।";

/** A farmer whose number is verified, with a named pump whose box is connected and answers like a healthy one. */
async function verifiedFarmerWithBox() {
  const farmer = await farmerWithDevice();
  await verifyNumber(farmer.user);
  await getDb(env.DB).update(devices).set({ name: "कुएँ वाला पंप" }).where(eq(devices.id, farmer.device.deviceId));
  const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 8 });
  return { ...farmer, box };
}

/** The box trips dry: the alert call to `mobileNo` comes, and is answered. */
async function answeredDryRunCall(box: DevicePeer, mobileNo: string) {
  box.send({ type: "event", event: "dryRun", relay: "off", current: 1.2 });
  const [call] = await waitForCalls(mobileNo);
  return { call: call!, ...(await answerCall(call!)) };
}

/** The box's enclosure is opened while the motor may run: the alert call to `mobileNo` (it offers the stop key) comes, and is answered. */
async function answeredTamperCall(box: DevicePeer, mobileNo: string) {
  box.send({ type: "event", event: "tamper", relay: "on" });
  const [call] = await waitForCalls(mobileNo);
  return { call: call!, ...(await answerCall(call!)) };
}

/**
 * The motor runs; the owner answers the call about the box's opened enclosure and has not yet
 * pressed a key. The box's earlier messages are cleared.
 */
async function motorBackOnDuringCall() {
  const farmer = await verifiedFarmerWithBox();
  expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
  const { call, keyUrl } = await answeredTamperCall(farmer.box, farmer.user.mobileNo);
  farmer.box.received.splice(0);
  return { farmer, call, keyUrl };
}

async function motorStatus(deviceId: string) {
  return (await hubStub(deviceId).getSnapshot()).pump.status;
}

/** The SMS and calls a pump's hub keeps for one account, oldest first. */
async function deliveriesOf(deviceId: string, userId: number) {
  return (await hubAlertDeliveries(deviceId)).filter((row) => row.userId === userId);
}

/** Sends `alert` by phone from inside box `deviceId`'s hub, as its own alerts go. */
function sendFromHub(deviceId: string, alert: PumpAlert, eventId: string) {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) =>
    sendPhoneAlert(env, deviceId, alert, eventId, new AlertDeliveriesTable(state.storage.sql)),
  );
}

/** Sets an account's SMS or calls already taken today, as alerts of its other pumps would have. */
async function takenToday(userId: number, channel: "sms" | "call", sent: number) {
  await getDb(env.DB)
    .insert(phoneAlertDays)
    .values({ userId, channel, day: istDay(Date.now()), sent })
    .onConflictDoUpdate({ target: [phoneAlertDays.userId, phoneAlertDays.channel, phoneAlertDays.day], set: { sent } });
}

/** Nothing more arrives for `mobileNo` within a moment. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 400));
}

describe("a dry-run trip by phone", () => {
  it("calls the verified owner in Hindi, naming the pump; the motor already stopped, 1 tells its state; no SMS while the call may be answered", async () => {
    const farmer = await verifiedFarmerWithBox();
    const { prompt, call, keyUrl } = await answeredDryRunCall(farmer.box, farmer.user.mobileNo);
    expect(prompt).toEqual([DRY_RUN_CALL, STATE_OFFER]);
    farmer.box.received.splice(0);
    const pressed = await pressKey(keyUrl, call, "1");
    expect(pressed.status).toBe(200);
    expect(pressed.spoken).toHaveLength(1);
    expect(pressed.spoken[0]).toMatch(/^मोटर बंद है, .+ से। करंट 0.0 एम्पियर।/);
    // Nothing was switched: the key asks, it does not command.
    await farmer.box.expectNone("switch");
    expect(
      (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).find((row) => row.channel === "call"),
    ).toMatchObject({
      outcome: "stateTold",
    });
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toEqual([]);
    farmer.box.close();
  });

  it("a call about a motor that may be running (the box opened) offers the stop key", async () => {
    const farmer = await verifiedFarmerWithBox();
    const { prompt } = await answeredTamperCall(farmer.box, farmer.user.mobileNo);
    expect(prompt.at(-1)).toBe(STOP_OFFER);
    farmer.box.close();
  });

  it("1 on the call switches the pump OFF through the hub for the owner; the call says the box confirmed it, the log names who", async () => {
    const { farmer, call, keyUrl } = await motorBackOnDuringCall();
    expect(await motorStatus(farmer.device.deviceId)).toBe("on");

    const pressed = await pressKey(keyUrl, call!, "1");
    expect(pressed).toEqual({ status: 200, spoken: ["मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।"] });
    expect(await farmer.box.next("switch")).toMatchObject({ relay: "off" });
    expect(await motorStatus(farmer.device.deviceId)).toBe("off");
    const last = (await motorLogRows(farmer.device.deviceId)).at(-1)!;
    expect(last.kind).toBe("switched");
    expect(JSON.parse(last.params)).toMatchObject({
      relay: "off",
      origin: { by: "call", role: "owner", userId: farmer.user.id },
    });
    expect(last.message).toBe("Motor turned OFF by the owner pressing 1 on an alert call");
    expect(
      (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).find((row) => row.channel === "call"),
    ).toMatchObject({
      outcome: "stopConfirmed",
    });
    farmer.box.close();
  });

  it("a forged keypress is refused with 403 and the motor keeps running; the same keypress replayed switches once", async () => {
    const { farmer, call, keyUrl } = await motorBackOnDuringCall();

    // Signed with a token that is not ours: refused before anything is read.
    expect((await pressKey(keyUrl, call!, "1", "a-forged-token")).status).toBe(403);
    // Signed right, but for another URL than the one it is sent to (a reference moved): refused too.
    const moved = keyUrl.replace(/at=[0-9]+/, "at=1");
    const form = { AccountSid: env.TELEPHONY_ACCOUNT_SID, CallSid: call!.id, Digits: "1" };
    const signedElsewhere = await twilioSignature(env.TELEPHONY_API_TOKEN, keyUrl, Object.entries(form));
    const response = await exports.default.fetch(
      new Request(moved, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signedElsewhere },
        body: new URLSearchParams(form),
      }),
    );
    expect(response.status).toBe(403);
    await farmer.box.expectNone("switch");
    expect(await motorStatus(farmer.device.deviceId)).toBe("on");

    // The real key, then the same request three more times (two at once): one OFF.
    expect((await pressKey(keyUrl, call!, "1")).spoken).toEqual(["मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।"]);
    const replays = await Promise.all([pressKey(keyUrl, call!, "1"), pressKey(keyUrl, call!, "1")]);
    replays.push(await pressKey(keyUrl, call!, "1"));
    for (const replay of replays)
      expect(replay).toEqual({ status: 200, spoken: ["आपने 1 दबाया। आपका जवाब मिल गया। धन्यवाद।"] });
    await farmer.box.next("switch");
    await farmer.box.expectNone("switch");
    const offs = (await motorLogRows(farmer.device.deviceId)).filter(
      (row) => row.kind === "switched" && JSON.parse(row.params).origin.by === "call",
    );
    expect(offs).toHaveLength(1);
    farmer.box.close();
  });

  it("a key for a call placed too long ago, for another call, or another key, switches nothing", async () => {
    const { farmer, call, keyUrl } = await motorBackOnDuringCall();

    // The provider's own retry of a key pressed 11 minutes after the call was placed: signed, but stale.
    const stale = new URL(keyUrl);
    stale.searchParams.set("at", String(Date.now() - 11 * 60_000));
    expect(await pressKey(stale.toString(), call!, "1")).toEqual({
      status: 200,
      spoken: ["यह कॉल पुरानी हो गई है। कुछ नहीं बदला। ऐप में देखें।"],
    });
    // The right reference with another call's id: not the call we placed for it.
    const other = await twilioPost(keyUrl, { CallSid: `CA${"0".repeat(32)}`, Digits: "1" });
    expect(other.status).toBe(200);
    expect(await pressKey(keyUrl, call!, "2")).toEqual({
      status: 200,
      spoken: ["आपने 2 दबाया। कुछ नहीं बदला। धन्यवाद।"],
    });
    await farmer.box.expectNone("switch");
    expect(await motorStatus(farmer.device.deviceId)).toBe("on");
    farmer.box.close();
  });

  it("an operator's 1 switches OFF as the operator; once removed from the pump, their 1 does nothing", async () => {
    const farmer = await verifiedFarmerWithBox();
    const { operator } = await sharePump(farmer.device.deviceId, farmer.token);
    await verifyNumber(operator);
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    const { call, keyUrl } = await answeredTamperCall(farmer.box, operator.mobileNo);
    expect(await pressKey(keyUrl, call!, "1")).toMatchObject({
      spoken: ["मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।"],
    });
    const last = (await motorLogRows(farmer.device.deviceId)).at(-1)!;
    expect(JSON.parse(last.params)).toMatchObject({
      origin: { by: "call", role: "operator", label: "Ram", userId: operator.id },
    });

    // A phase fault calls the operator again (its 1 would tell the state); the owner removes them
    // before they press 1, and the call tells them nothing.
    farmer.box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    const [, second] = await waitForCalls(operator.mobileNo, 2);
    const next = await answerCall(second!);
    expect(
      (await deleteJson(`/api/pumps/${farmer.device.deviceId}/members/${operator.mobileNo}`, undefined, farmer.token))
        .status,
    ).toBe(200);
    farmer.box.received.splice(0);
    expect(await pressKey(next.keyUrl, second!, "1")).toEqual({
      status: 200,
      spoken: ["आप अब यह पंप नहीं चला सकते। कुछ नहीं बदला।"],
    });
    await farmer.box.expectNone("switch");
    farmer.box.close();
  });
});

describe("a call nobody answers", () => {
  it("sends the alert's SMS naming the pump, once however often the provider reports it; an answered call sends none", async () => {
    const farmer = await verifiedFarmerWithBox();
    farmer.box.send({ type: "event", event: "dryRun", relay: "off", current: 1.2 });
    const [call] = await waitForCalls(farmer.user.mobileNo);
    await callProgress(call!, "ringing");
    await callProgress(call!, "no-answer", 0);
    const [sms] = await waitForSms(farmer.user.mobileNo);
    expect(sms!.text).toBe("सिंचाई: पंप कुएँ वाला पंप सूखा चला, मोटर बंद कर दी गई। पानी का स्रोत देखें।");
    // The provider's retry of the same callback, twice at once: still one SMS.
    await Promise.all([callProgress(call!, "no-answer", 0), callProgress(call!, "no-answer", 0)]);
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);

    // A voltage trip whose call is answered and hung up without a key: no SMS.
    farmer.box.send({ type: "event", event: "underVoltage", relay: "off", voltages: [170, 171, 169] });
    const [, answered] = await waitForCalls(farmer.user.mobileNo, 2);
    await answerCall(answered!);
    await callProgress(answered!, "completed", 14);
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    expect(
      (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).map((row) => [
        row.kind,
        row.channel,
        row.reason,
        row.status,
      ]),
    ).toEqual([
      ["dryRun", "call", "chosen", "noAnswer"],
      ["dryRun", "sms", "callFallback", "queued"],
      ["voltageTrip", "call", "chosen", "completed"],
    ]);
    farmer.box.close();
  });
});

describe("a box gone while the motor runs", () => {
  it('calls only once the grace is over; back, "फिर जुड़ गया" by SMS to whoever the call reached, once', async () => {
    const farmer = await verifiedFarmerWithBox();
    const { deviceId } = farmer.device;
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    farmer.box.close();
    await expect.poll(() => timerSet(deviceId, "offline-alert")).toBe(true);
    await settle();
    expect(await callsTo(farmer.user.mobileNo)).toEqual([]);
    await fireTimer(deviceId, "offline-alert");
    const [call] = await waitForCalls(farmer.user.mobileNo);
    await answerCall(call!);

    const again = await connectDevice(farmer.device, { relay: "on" });
    const [sms] = await waitForSms(farmer.user.mobileNo);
    expect(sms!.text).toBe("सिंचाई: पंप कुएँ वाला पंप का डिवाइस फिर जुड़ गया। मोटर का हाल ऐप में देखें।");
    again.close();
    const third = await connectDevice(farmer.device, { relay: "on" });
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    expect(await callsTo(farmer.user.mobileNo)).toHaveLength(1);
    expect((await deliveriesOf(farmer.device.deviceId, farmer.user.id)).map((row) => [row.kind, row.channel])).toEqual([
      ["offlineWhileOn", "call"],
      ["backOnline", "sms"],
    ]);
    third.close();
  });

  it("back within the grace: no call and no SMS", async () => {
    const farmer = await verifiedFarmerWithBox();
    const { deviceId } = farmer.device;
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    farmer.box.close();
    await expect.poll(() => timerSet(deviceId, "offline-alert")).toBe(true);
    const again = await connectDevice(farmer.device, { relay: "on" });
    await expect.poll(() => timerSet(deviceId, "offline-alert")).toBe(false);
    await runDurableObjectAlarm(hubStub(deviceId));
    await settle();
    expect(await callsTo(farmer.user.mobileNo)).toEqual([]);
    expect(await smsTo(farmer.user.mobileNo)).toEqual([]);
    again.close();
  });
});

/** Whether the hub's timer `name` is set. */
function timerSet(deviceId: string, name: string): Promise<boolean> {
  return runInDurableObject(
    hubStub(deviceId),
    (_hub: unknown, state) => state.storage.sql.exec("SELECT 1 FROM timers WHERE name = ?", name).toArray().length > 0,
  );
}

describe("who gets a pump's alert by phone, and how often", () => {
  it("the owner and operators with verified numbers; not a viewer, an invitee, an ex-member, an unverified operator, nor a stranger", async () => {
    const farmer = await verifiedFarmerWithBox();
    const { operator, viewer, exMember, invitee } = await sharePump(farmer.device.deviceId, farmer.token);
    const unverified = (await sharePumpWithOneMore(farmer.device.deviceId, farmer.token)).operator;
    const stranger = await farmerWithDevice();
    for (const person of [operator, viewer, exMember, invitee, stranger.user]) await verifyNumber(person);
    farmer.box.send({ type: "event", event: "powerRestored", relay: "off" });
    const [ownerSms] = await waitForSms(farmer.user.mobileNo);
    expect(ownerSms!.text).toBe("सिंचाई: पंप कुएँ वाला पंप पर बिजली वापस आई। कोई चालू न करे तब तक मोटर बंद रहेगी।");
    // Invited members may also hold the invitation's SMS; only the alert's text counts here.
    const alertsTo = async (mobileNo: string) => (await smsTo(mobileNo)).filter((sms) => sms.text === ownerSms!.text);
    await expect.poll(async () => (await alertsTo(operator.mobileNo)).length).toBe(1);
    await settle();
    for (const person of [viewer, exMember, invitee, unverified, stranger.user]) {
      expect(await alertsTo(person.mobileNo)).toEqual([]);
      expect(await callsTo(person.mobileNo)).toEqual([]);
    }
    farmer.box.close();
  });

  it("an event alerts once however many pages watch it, and a box that repeats itself is not called twice", async () => {
    const farmer = await verifiedFarmerWithBox();
    const pages = await Promise.all([
      browserWatching(farmer.user.mobileNo, { token: farmer.token }),
      browserWatching(farmer.user.mobileNo, { token: farmer.token }),
      browserWatching(farmer.user.mobileNo, { token: await loginToken(farmer.user) }),
    ]);
    farmer.box.send({ type: "event", event: "powerRestored", relay: "off" });
    await Promise.all(pages.map((page) => page.next("powerRestored")));
    await waitForSms(farmer.user.mobileNo, 1);
    farmer.box.send({ type: "event", event: "dryRun", relay: "off", current: 1 });
    farmer.box.send({ type: "event", event: "dryRun", relay: "off", current: 1 });
    await waitForCalls(farmer.user.mobileNo, 1);
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    expect(await callsTo(farmer.user.mobileNo)).toHaveLength(1);
    for (const page of pages) page.close();
    farmer.box.close();
  });

  it("one event sent twice, even at once, is claimed once per person and channel", async () => {
    const farmer = await verifiedFarmerWithBox();
    const alert = { kind: "power", state: "back" } as const;
    const eventId = crypto.randomUUID();
    const sent = await Promise.all([
      sendFromHub(farmer.device.deviceId, alert, eventId),
      sendFromHub(farmer.device.deviceId, alert, eventId),
    ]);
    expect(
      sent
        .flat()
        .map((delivery) => delivery.outcome)
        .sort(),
    ).toEqual(["repeat", "sent"]);
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    farmer.box.close();
  });

  it("an unverified owner gets nothing by phone, whatever the choices; the app still gets the alert", async () => {
    const farmer = await farmerWithDevice("3phase", { verified: false });
    const box = await connectDevice(farmer.device);
    const page = await browserWatching(farmer.user.mobileNo, { token: farmer.token });
    box.send({ type: "event", event: "dryRun", relay: "off", current: 1 });
    await page.next("dryRunDetected");
    await settle();
    expect(await callsTo(farmer.user.mobileNo)).toEqual([]);
    expect(await smsTo(farmer.user.mobileNo)).toEqual([]);
    page.close();
    box.close();
  });

  it("follows each kind's channel: app only sends nothing, SMS sends the SMS, in the language saved with the choices", async () => {
    const farmer = await verifiedFarmerWithBox();
    const saved = await putJson(
      "/api/alerts/channels",
      { channels: { dryRun: "app", phaseFault: "sms" }, language: "en" },
      farmer.token,
    );
    expect(saved.status).toBe(200);
    farmer.box.send({ type: "event", event: "dryRun", relay: "off", current: 1 });
    farmer.box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    const [sms] = await waitForSms(farmer.user.mobileNo);
    expect(sms!.text).toBe(
      "Sinchai: phase fault at pump कुएँ वाला पंप. The motor cannot start until the phases are back.",
    );
    await settle();
    expect(await callsTo(farmer.user.mobileNo)).toEqual([]);
    farmer.box.close();
  });
});

describe("the daily caps", () => {
  it("past 10 SMS a day the alert goes by the app only, logged; past 5 calls the SMS goes instead", async () => {
    const farmer = await verifiedFarmerWithBox();
    // Five calls already today (from other pumps): the dry run's call is over the cap, its SMS goes instead.
    await takenToday(farmer.user.id, "call", 5);
    farmer.box.send({ type: "event", event: "dryRun", relay: "off", current: 1 });
    const [instead] = await waitForSms(farmer.user.mobileNo);
    expect(instead!.text).toContain("कुएँ वाला पंप सूखा चला");
    expect(await callsTo(farmer.user.mobileNo)).toEqual([]);
    // Nine more SMS today make ten: the power-back SMS is over the cap.
    await takenToday(farmer.user.id, "sms", 10);
    farmer.box.send({ type: "event", event: "powerRestored", relay: "off" });
    await expect
      .poll(
        async () =>
          (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).filter((item) => item.status === "capped")
            .length,
      )
      .toBe(2);
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    const view = await readJson(await getJson("/api/alerts/channels", farmer.token), alertChannelsResponseSchema);
    expect(view.today).toEqual({ sms: 10, call: 5 });
    expect(view.caps).toEqual({ sms: 10, call: 5 });
    farmer.box.close();
  });
});

describe("an account's pumps share its caps; each pump keeps its own deliveries", () => {
  it("two pumps' alerts at once, one SMS left today: one is sent, the other kept capped in its own hub", async () => {
    const farmer = await verifiedFarmerWithBox();
    const second = await provisionDevice(farmer.user.id);
    await takenToday(farmer.user.id, "sms", 9);
    const alert = { kind: "power", state: "back" } as const;
    const sent = await Promise.all([
      sendFromHub(farmer.device.deviceId, alert, crypto.randomUUID()),
      sendFromHub(second.deviceId, alert, crypto.randomUUID()),
    ]);
    expect(
      sent
        .flat()
        .map((delivery) => delivery.outcome)
        .sort(),
    ).toEqual(["capped", "sent"]);
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    const statuses = [
      ...(await deliveriesOf(farmer.device.deviceId, farmer.user.id)),
      ...(await deliveriesOf(second.deviceId, farmer.user.id)),
    ].map((row) => row.status === "capped");
    expect(statuses.sort()).toEqual([false, true]);
    const view = await readJson(await getJson("/api/alerts/channels", farmer.token), alertChannelsResponseSchema);
    expect(view.today.sms).toBe(10);
    farmer.box.close();
  });

  it("a status or key whose reference names another delivery, or another pump's hub, changes nothing", async () => {
    const { farmer, call, keyUrl } = await motorBackOnDuringCall();
    const other = await farmerWithDevice();
    const ours = (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).find((row) => row.channel === "call");
    // The box's opened enclosure sends its SMS beside the call; nothing below may add one.
    await waitForSms(farmer.user.mobileNo);
    const forge = (url: string, code: string) => {
      const forged = new URL(url);
      forged.searchParams.set("ref", code);
      return forged.toString();
    };
    // Signed as the provider signs (a holder of our token could), but naming what we did not give this call.
    for (const code of [
      `alert:${farmer.device.deviceId}:${ours!.id + 1000}`,
      `alert:${other.device.deviceId}:${ours!.id}`,
      `alert:${ours!.id}`,
    ]) {
      const pressed = await pressKey(forge(keyUrl, code), call, "1");
      expect(pressed).toEqual({ status: 200, spoken: ["आपने 1 दबाया। आपका जवाब मिल गया। धन्यवाद।"] });
      const status = await twilioPost(forge(call.statusCallback!, code), { CallSid: call.id, CallStatus: "busy" });
      expect(status.status).toBe(204);
    }
    await farmer.box.expectNone("switch");
    expect(await motorStatus(farmer.device.deviceId)).toBe("on");
    await settle();
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);
    expect(await hubAlertDeliveries(other.device.deviceId)).toEqual([]);
    const calls = (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).filter((row) => row.channel === "call");
    expect(calls.map((row) => [row.status, row.outcome])).toEqual([["answered", null]]);
    farmer.box.close();
  });
});

describe("the month's costs", () => {
  it("count the SMS sent and the call with its started minutes, the call's duration once however often it comes", async () => {
    const farmer = await verifiedFarmerWithBox();
    farmer.box.send({ type: "event", event: "powerRestored", relay: "off" });
    await waitForSms(farmer.user.mobileNo);
    const { call } = await answeredDryRunCall(farmer.box, farmer.user.mobileNo);
    await callProgress(call, "completed", 61);
    // The hub records a call's duration once: the same status again (an alarm or a webhook run twice) adds nothing.
    const ours = (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).find((row) => row.channel === "call")!;
    const again = { id: ours.id, provider: "twilio" as const, providerId: call.id };
    expect(await hubStub(farmer.device.deviceId).alertCallStatus(again, "completed", 61)).toBe(true);
    const sms = (await deliveriesOf(farmer.device.deviceId, farmer.user.id)).find((row) => row.channel === "sms")!;
    const token = await adminToken();
    const usage = await readJson(
      await getJson(`/api/admin/telephony-usage?month=${istMonth(Date.now())}`, token),
      telephonyUsageResponseSchema,
    );
    expect(usage.accounts.find((row) => row.userId === farmer.user.id)).toMatchObject({
      sms: 1,
      smsParts: sms.segments,
      calls: 1,
      answeredCalls: 1,
      callSeconds: 61,
      callMinutes: 2,
      capped: 0,
    });
    farmer.box.close();
  });
});

/**
 * One more operator, invited and accepted, whose number is no longer verified: an invitation
 * waits for a verified number, so only a member from before verification, or one whose
 * verification was withdrawn, is in this state.
 */
async function sharePumpWithOneMore(deviceId: string, ownerToken: string) {
  const operator = await createUser();
  await addMember(deviceId, ownerToken, operator, "operator", "Shyam");
  await getDb(env.DB).update(users).set({ numberVerifiedAt: null }).where(eq(users.id, operator.id));
  return { operator };
}
