// Theft and tamper at the hub (docs/device-protocol.md §7, "Theft and tamper"), with real boxes
// over sockets and the local provider's Twilio half played in Node (tests/telephony-outbound.ts):
// a supply that goes on a box's battery while its motor runs is a cut cable when boxes of the
// same feeder tag still have supply, and a power cut when they lost it too or none can say; a
// cut cable and an opened enclosure call and text the owner and operators once per event. Each
// test makes its own accounts, boxes and feeder tag: it reads no fleet-wide total.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  type NeighbourSupply,
  ownSupplySince,
  SAME_CUT_WINDOW_MS,
  supplyCutVerdict,
} from "../../durable-objects/device-hub/supply-cut.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, installations } from "../../worker/db/schema.ts";
import { createUser } from "../worker/helpers/accounts.ts";
import { farmerWithDevice } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { fireTimer, motorLogRows } from "../worker/helpers/hub-state.ts";
import { addMember } from "../worker/helpers/sharing.ts";
import { connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";
import { answerCall, callsTo, smsTo, verifyNumber, waitForCalls, waitForSms } from "../worker/telephony-support.ts";

const CABLE_CUT_SMS = "सिंचाई: पंप कुएँ वाला पंप की बिजली मोटर चलते हुए गई, पर आसपास बिजली है। केबल कटी हो सकती है।";
const CABLE_CUT_CALL =
  "नमस्ते, सिंचाई से कॉल है। पंप कुएँ वाला पंप की बिजली मोटर चलते हुए चली गई, पर आसपास के पंपों पर बिजली है। केबल कटी हो सकती है, पंप पर जाकर देखें।";
const TAMPER_SMS = "सिंचाई: पंप कुएँ वाला पंप के डिवाइस का ढक्कन खोला गया। चोरी हो सकती है, पंप पर जाकर देखें।";
const TAMPER_CALL = "नमस्ते, सिंचाई से कॉल है। पंप कुएँ वाला पंप के डिवाइस का ढक्कन खोला गया। चोरी हो सकती है, पंप पर जाकर देखें।";
const SUPPLY_CUT_TIMER = "supply-cut";

describe("the verdict (supply-cut.ts)", () => {
  const verdict = (...neighbours: NeighbourSupply[]) => supplyCutVerdict(neighbours);

  it("is a cable cut only when a neighbour vouches for its supply and none lost it", () => {
    expect(verdict("present")).toBe("cableCut");
    expect(verdict("present", "unknown", "present")).toBe("cableCut");
    expect(verdict("present", "lost")).toBe("powerCut");
    expect(verdict("lost", "lost")).toBe("powerCut");
    expect(verdict("unknown", "unknown")).toBe("powerCut");
    // No feeder tag, or nobody on it: nothing to compare with, so a power cut.
    expect(verdict()).toBe("powerCut");
  });

  it("takes a neighbour's supply only with a sign of life after the cut, and its loss only near the cut", () => {
    const cutAt = 1_000_000;
    const alive = { supply: true, supplyLostAt: null, connected: true };
    expect(ownSupplySince({ ...alive, heardAt: cutAt + 1 }, cutAt)).toBe("present");
    // Heard from before the cut only: a box without a battery that lost supply looks just so.
    expect(ownSupplySince({ ...alive, heardAt: cutAt - 1 }, cutAt)).toBe("unknown");
    expect(ownSupplySince({ ...alive, connected: false, heardAt: cutAt + 1 }, cutAt)).toBe("unknown");
    const lost = { supply: false, connected: false, heardAt: cutAt };
    expect(ownSupplySince({ ...lost, supplyLostAt: cutAt + 3_000 }, cutAt)).toBe("lost");
    expect(ownSupplySince({ ...lost, supplyLostAt: cutAt - 3_000 }, cutAt)).toBe("lost");
    // Out since long before: says nothing about this cut.
    expect(ownSupplySince({ ...lost, supplyLostAt: cutAt - SAME_CUT_WINDOW_MS - 1 }, cutAt)).toBe("unknown");
  });
});

/** A box of `feeder` (null: no tag) whose owner's number is verified, connected; answering like a healthy box unless `silent`. */
async function boxOnFeeder(feeder: string | null, options: { silent?: boolean } = {}) {
  const farmer = await farmerWithDevice();
  await verifyNumber(farmer.user);
  const db = getDb(env.DB);
  await db.update(devices).set({ name: "कुएँ वाला पंप" }).where(eq(devices.id, farmer.device.deviceId));
  const now = Date.now();
  await db.insert(installations).values({
    deviceId: farmer.device.deviceId,
    installerName: "Ramesh Electricals",
    installerMobileNo: "9876500000",
    farmerUserId: farmer.user.id,
    installedAt: now,
    handedOverAt: now,
    feeder,
  });
  const box = await connectDevice(farmer.device);
  if (!options.silent) box.autoAck({ runningCurrent: 8 });
  return { ...farmer, box };
}

const uniqueFeeder = () => `feeder-${crypto.randomUUID().slice(0, 8)}`;

async function runMotor(farmer: { token: string }) {
  expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
}

/** The box's supply goes: its last frame, on its battery (`times` over: doubled on its way), and the hub has it. */
async function supplyGoes(peer: { box: DevicePeer; device: { deviceId: string } }, times = 1) {
  for (let sent = 0; sent < times; sent++)
    peer.box.send({ type: "event", event: "powerLost", relay: "off", battery: true, voltages: [0, 0, 0] });
  await expect.poll(() => logKinds(peer.device.deviceId)).toContain("powerLost");
}

async function logKinds(deviceId: string) {
  return (await motorLogRows(deviceId)).map((row) => row.kind);
}

/** Nothing more arrives within a moment. */
async function settle() {
  await new Promise((resolve) => setTimeout(resolve, 500));
}

describe("a supply cut while the motor ran", () => {
  it("is a cable cut when the feeder's other boxes still have supply: logged, the owner and an operator called and sent an SMS, once", async () => {
    const feeder = uniqueFeeder();
    const cut = await boxOnFeeder(feeder);
    const [neighbour, idle] = [await boxOnFeeder(feeder), await boxOnFeeder(feeder)];
    const operator = await createUser();
    await verifyNumber(operator);
    await addMember(cut.device.deviceId, cut.token, operator, "operator", "राम");
    await runMotor(cut);
    await runMotor(neighbour);

    await supplyGoes(cut, 2);
    await fireTimer(cut.device.deviceId, SUPPLY_CUT_TIMER);

    const [call] = await waitForCalls(cut.user.mobileNo);
    expect((await answerCall(call!)).prompt[0]).toBe(CABLE_CUT_CALL);
    const [sms] = await waitForSms(cut.user.mobileNo);
    expect(sms!.text).toBe(CABLE_CUT_SMS);
    await waitForCalls(operator.mobileNo);
    // The operator also holds the invitation's SMS: only the alert's text counts here.
    await expect
      .poll(async () => (await smsTo(operator.mobileNo)).filter((one) => one.text === CABLE_CUT_SMS).length)
      .toBe(1);
    expect((await logKinds(cut.device.deviceId)).filter((kind) => kind === "cableCut")).toHaveLength(1);

    // The alarm delivered again: nothing more.
    await fireTimer(cut.device.deviceId, SUPPLY_CUT_TIMER);
    await settle();
    expect(await callsTo(cut.user.mobileNo)).toHaveLength(1);
    expect(await smsTo(cut.user.mobileNo)).toHaveLength(1);
    expect((await logKinds(cut.device.deviceId)).filter((kind) => kind === "cableCut")).toHaveLength(1);
    // The neighbours were asked; nothing was said to their people.
    expect(await callsTo(neighbour.user.mobileNo)).toEqual([]);
    expect(await smsTo(idle.user.mobileNo)).toEqual([]);
    for (const peer of [cut, neighbour, idle]) peer.box.close();
  });

  it("is a power cut when the feeder's other boxes lost supply too, or cannot say: logged as one, nobody called", async () => {
    const feeder = uniqueFeeder();
    const cut = await boxOnFeeder(feeder);
    const withBattery = await boxOnFeeder(feeder);
    // A box without a battery: its socket still looks open, but it answers nothing.
    const withoutBattery = await boxOnFeeder(feeder, { silent: true });
    await runMotor(cut);
    await runMotor(withBattery);

    await supplyGoes(cut);
    await supplyGoes(withBattery);
    await fireTimer(cut.device.deviceId, SUPPLY_CUT_TIMER);
    await fireTimer(withBattery.device.deviceId, SUPPLY_CUT_TIMER);
    await settle();

    for (const peer of [cut, withBattery, withoutBattery]) {
      expect(await callsTo(peer.user.mobileNo)).toEqual([]);
      expect(await smsTo(peer.user.mobileNo)).toEqual([]);
      expect(await logKinds(peer.device.deviceId)).not.toContain("cableCut");
    }
    expect(await logKinds(cut.device.deviceId)).toContain("powerLost");
    for (const peer of [cut, withBattery, withoutBattery]) peer.box.close();
  });

  it("is a power cut when the box has no feeder tag, and no question at all while the motor was OFF", async () => {
    const untagged = await boxOnFeeder(null);
    await runMotor(untagged);
    await supplyGoes(untagged);
    await fireTimer(untagged.device.deviceId, SUPPLY_CUT_TIMER);

    const feeder = uniqueFeeder();
    const idleCut = await boxOnFeeder(feeder);
    const neighbour = await boxOnFeeder(feeder);
    await supplyGoes(idleCut);
    await fireTimer(idleCut.device.deviceId, SUPPLY_CUT_TIMER);
    await settle();
    for (const peer of [untagged, idleCut]) {
      expect(await callsTo(peer.user.mobileNo)).toEqual([]);
      expect(await logKinds(peer.device.deviceId)).not.toContain("cableCut");
    }
    for (const peer of [untagged, idleCut, neighbour]) peer.box.close();
  });
});

describe("the enclosure opened", () => {
  it("is logged and calls and texts the owner once, however often the box says it before it is closed", async () => {
    const farmer = await boxOnFeeder(null);
    farmer.box.send({ type: "event", event: "tamper", relay: "off" });
    farmer.box.send({ type: "event", event: "tamper", relay: "off" });

    const [call] = await waitForCalls(farmer.user.mobileNo);
    expect((await answerCall(call!)).prompt[0]).toBe(TAMPER_CALL);
    const [sms] = await waitForSms(farmer.user.mobileNo);
    expect(sms!.text).toBe(TAMPER_SMS);
    await settle();
    expect(await callsTo(farmer.user.mobileNo)).toHaveLength(1);
    expect(await smsTo(farmer.user.mobileNo)).toHaveLength(1);

    // Closed, then opened again: a new event, logged again.
    farmer.box.send({ type: "event", event: "tamperOk", relay: "off" });
    farmer.box.send({ type: "event", event: "tamper", relay: "off" });
    await expect
      .poll(async () => (await logKinds(farmer.device.deviceId)).filter((kind) => kind.startsWith("tamper")))
      .toEqual(["tamper", "tamperOk", "tamper"]);
    farmer.box.close();
  });
});
