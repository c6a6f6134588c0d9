// The owner's switch for the start number (PUT /api/pumps/{deviceId}/phone-start,
// docs/decisions/028-switching-by-phone.md): off by default, the owner's alone (an operator, a
// viewer, an invitee, someone removed, a stranger and an admin are refused as the pump's name
// route refuses them, nothing saved), a body that is not `{enabled: boolean}` is a 400 with the
// house's JSON refusal; the missed-call path reads what was saved, so a missed call to the start
// number from the owner starts the pump only once it is on, and not after it is off again. A
// box linked to another owner loses it: the new owner never turned it on.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { pumpPhoneStartResponseSchema } from "../../../common/api-responses/pumps.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { ORIGIN, putJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { sharePump } from "../helpers/sharing.ts";
import { connectDevice } from "../helpers/sockets.ts";
import { smsTo, twilioPost } from "../telephony-support.ts";

const savedValue = async (deviceId: string) =>
  (await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) }))!.startByMissedCall;

const setPhoneStart = (deviceId: string, body: unknown, token?: string) =>
  putJson(`/api/pumps/${deviceId}/phone-start`, body, token);

/** A missed call to the start number, as Twilio asks while it rings. */
function startNumberCalled(from: string) {
  return twilioPost(`${ORIGIN}/api/telephony/twilio/inbound-call?line=start`, {
    CallSid: `CA${crypto.randomUUID().replace(/-/g, "")}`,
    From: `+91${from}`,
    To: "+918000000003",
    CallStatus: "ringing",
    Direction: "inbound",
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describe("PUT /api/pumps/{deviceId}/phone-start", () => {
  it("is off for a new pump; the owner turns it on and off, and is answered the value saved", async () => {
    const { device, token } = await farmerWithDevice();
    expect(await savedValue(device.deviceId)).toBe(false);

    const on = await setPhoneStart(device.deviceId, { enabled: true }, token);
    expect(on.status).toBe(200);
    expect(await readJson(on, pumpPhoneStartResponseSchema)).toEqual({
      success: true,
      message: "A missed call from your number to the start number now starts the motor.",
      enabled: true,
    });
    expect(await savedValue(device.deviceId)).toBe(true);
    // Again: the same answer, nothing else changes.
    expect((await setPhoneStart(device.deviceId, { enabled: true }, token)).status).toBe(200);
    expect(await savedValue(device.deviceId)).toBe(true);

    const off = await putJson(`/api/pumps/${device.deviceId}/phone-start`, { enabled: false }, token);
    expect(await readJson(off, pumpPhoneStartResponseSchema)).toMatchObject({ enabled: false });
    expect(await savedValue(device.deviceId)).toBe(false);
  });

  it("refuses everyone but the owner as the name route does, and saves nothing", async () => {
    const { device, token } = await farmerWithDevice();
    const people = await sharePump(device.deviceId, token);
    const stranger = await farmerWithDevice();
    const callers = {
      operator: await loginToken(people.operator),
      viewer: await loginToken(people.viewer),
      exMember: await loginToken(people.exMember),
      invitee: await loginToken(people.invitee),
      stranger: stranger.token,
      admin: await adminToken(),
    };
    for (const [who, callerToken] of Object.entries(callers)) {
      const asked = await setPhoneStart(device.deviceId, { enabled: true }, callerToken);
      const named = await putJson(`/api/pumps/${device.deviceId}/name`, { name: "x" }, callerToken);
      const answer = async (response: Response) => {
        const { success, code, message } = (await response.json()) as Record<string, unknown>;
        return { status: response.status, success, code, message };
      };
      expect({ who, ...(await answer(asked)) }).toEqual({ who, ...(await answer(named)) });
      expect([403, 404]).toContain(asked.status);
    }
    expect((await setPhoneStart(device.deviceId, { enabled: true })).status).toBe(401);
    expect(await savedValue(device.deviceId)).toBe(false);
  });

  it("answers a body that is not {enabled: boolean} with 400 and the house's refusal, nothing saved", async () => {
    const { device, token } = await farmerWithDevice();
    for (const body of [{}, { enabled: "true" }, { enabled: "on" }, { enabled: 1 }, { enabled: null }, [true]]) {
      const response = await setPhoneStart(device.deviceId, body, token);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        success: false,
        code: "invalidInput",
        message: expect.any(String),
      });
    }
    // A form's `enabled=true` is not JSON.
    const form = await setPhoneStart(device.deviceId, "enabled=true", token);
    expect(form.status).toBe(400);
    expect(await form.json()).toEqual({
      success: false,
      code: "invalidJson",
      message: "Request body must be valid JSON.",
      params: {},
    });
    expect(await savedValue(device.deviceId)).toBe(false);
  });

  it("is what a missed call to the start number reads: the owner's call starts the pump only while it is on", async () => {
    const { user, device, token } = await farmerWithDevice();
    const box = await connectDevice(device);
    box.autoAck({ runningCurrent: 8.4 });
    const switches = () =>
      box.raw.filter((text) => text.includes('"type":"switch"')).map((text) => JSON.parse(text).relay);
    const status = async () => (await hubStub(device.deviceId).getSnapshot()).pump.status;

    await startNumberCalled(user.mobileNo);
    await settle();
    expect(switches()).toEqual([]);
    expect(await smsTo(user.mobileNo)).toEqual([]);

    expect((await setPhoneStart(device.deviceId, { enabled: true }, token)).status).toBe(200);
    await startNumberCalled(user.mobileNo);
    expect(await status()).toBe("on");
    expect(switches()).toEqual(["on"]);

    await expect.poll(async () => (await smsTo(user.mobileNo)).length).toBe(1);

    // Off again: the next call is ignored, not even refused by the hub's pause after a command
    // (which an ON would get now, with an SMS saying so).
    expect((await setPhoneStart(device.deviceId, { enabled: false }, token)).status).toBe(200);
    await startNumberCalled(user.mobileNo);
    await settle();
    expect(switches()).toEqual(["on"]);
    expect(await smsTo(user.mobileNo)).toHaveLength(1);
    box.close();
  });

  it("is off again when the box is linked to another owner", async () => {
    const { user, device, token } = await farmerWithDevice();
    expect((await setPhoneStart(device.deviceId, { enabled: true }, token)).status).toBe(200);
    const admin = await adminToken();
    const linkTo = (mobileNo: string) => putJson(`/api/admin/devices/${device.deviceId}/owner`, { mobileNo }, admin);
    // Linked again to the same owner: nothing changes.
    expect((await linkTo(user.mobileNo)).status).toBe(200);
    expect(await savedValue(device.deviceId)).toBe(true);
    expect((await linkTo((await createUser()).mobileNo)).status).toBe(200);
    expect(await savedValue(device.deviceId)).toBe(false);
  });
});
