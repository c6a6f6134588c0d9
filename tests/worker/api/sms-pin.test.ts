// The owner's SMS PIN (worker/phone-control/sms-pin.ts; docs/security.md, "Caller ID"), tested as
// a spoofed sender would try it: a sender id is only a claim, so once the owner sets a PIN an ON
// by SMS must begin with it ("1234 चालू 30"). Without it, or with a wrong one, nothing starts and
// the real number is told why; after 5 wrong PINs in a day even the right one waits; OFF never
// needs it. Only the owner sets it (PUT /api/pumps/{deviceId}/sms-pin, and the settings page's
// form); a relink to another owner removes it.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { pumpSmsPinResponseSchema } from "../../../common/api-responses/pumps.ts";
import { readPhoneCommand } from "../../../common/phone-commands.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { ORIGIN, postJson, putJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { addMember } from "../helpers/sharing.ts";
import { connectDevice } from "../helpers/sockets.ts";
import { smsTo, twilioPost } from "../telephony-support.ts";

const sid = () => `SM${crypto.randomUUID().replace(/-/g, "")}`;

/** An SMS to our number from `from`, as Twilio delivers it (the sender id is whatever the network says). */
const sms = (from: string, text: string) =>
  twilioPost(`${ORIGIN}/api/telephony/twilio/inbound-sms`, {
    MessageSid: sid(),
    From: `+91${from}`,
    To: "+918000000001",
    Body: text,
  });

const setPin = (deviceId: string, pin: string | null, token: string) =>
  putJson(`/api/pumps/${deviceId}/sms-pin`, { pin }, token);

async function ownerWithPinnedPump() {
  const farmer = await farmerWithDevice();
  const box = await connectDevice(farmer.device);
  box.autoAck({ runningCurrent: 8.4 });
  const answer = await setPin(farmer.device.deviceId, "2468", farmer.token);
  expect(answer.status).toBe(200);
  expect(await readJson(answer, pumpSmsPinResponseSchema)).toMatchObject({ success: true, pinSet: true });
  const switches = () =>
    box.raw.filter((text) => text.includes('"type":"switch"')).map((text) => JSON.parse(text).relay);
  const status = async () => (await hubStub(farmer.device.deviceId).getSnapshot()).pump.status;
  return { ...farmer, box, switches, status };
}

/** Waits for the `count`th SMS to `mobileNo` and gives its text. */
async function nthSmsTo(mobileNo: string, count: number): Promise<string> {
  await expect.poll(async () => (await smsTo(mobileNo)).length).toBe(count);
  return (await smsTo(mobileNo)).at(-1)!.text;
}

describe("the SMS PIN", () => {
  it("is read before the command word, in either script", () => {
    expect(readPhoneCommand("2468 चालू ३०")).toEqual({ action: { kind: "on", minutes: 30 }, pump: null, pin: "2468" });
    expect(readPhoneCommand("२४६८ on kuan")).toEqual({
      action: { kind: "on", minutes: null },
      pump: "kuan",
      pin: "2468",
    });
    expect(readPhoneCommand("ON 30")).toMatchObject({ pin: null });
    expect(readPhoneCommand("24689 ON")).toBeNull();
  });

  it("once set, an ON without it or with a wrong one starts nothing and tells the number why; the right one starts", async () => {
    const { user, switches, status, box } = await ownerWithPinnedPump();
    expect((await sms(user.mobileNo, "चालू")).status).toBe(200);
    expect(await nthSmsTo(user.mobileNo, 1)).toContain("पिन गलत है या लिखा नहीं");
    expect((await sms(user.mobileNo, "1357 चालू")).status).toBe(200);
    expect(await nthSmsTo(user.mobileNo, 2)).toContain("पिन गलत है या लिखा नहीं");
    expect(switches()).toEqual([]);
    expect((await sms(user.mobileNo, "2468 चालू 30")).status).toBe(200);
    expect(await status()).toBe("on");
    // OFF never needs it.
    expect((await sms(user.mobileNo, "बंद")).status).toBe(200);
    expect(await status()).toBe("off");
    expect(switches()).toEqual(["on", "off"]);
    box.close();
  });

  it("after 5 wrong PINs in a day, even the right one waits; OFF still stops", async () => {
    const { user, token, device, switches, status, box } = await ownerWithPinnedPump();
    for (let guess = 0; guess < 5; guess++) await sms(user.mobileNo, `${1000 + guess} चालू`);
    await expect.poll(async () => (await smsTo(user.mobileNo)).length).toBe(5);
    expect((await sms(user.mobileNo, "2468 चालू")).status).toBe(200);
    expect(await nthSmsTo(user.mobileNo, 6)).toContain("पिन कई बार गलत, बाद में भेजें");
    expect(switches()).toEqual([]);
    // Started from the app, stopped by SMS without a PIN.
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, token)).status).toBe(200);
    expect(await status()).toBe("on");
    expect((await sms(user.mobileNo, "OFF")).status).toBe(200);
    expect(await status()).toBe("off");
    box.close();
  });

  it("is the owner's alone to set, 4 digits or null, and goes with a relink to another owner", async () => {
    const { device, token } = await farmerWithDevice();
    const operator = await createUser();
    await addMember(device.deviceId, token, operator, "operator", "Ram");
    const byOperator = await setPin(device.deviceId, "1111", await loginToken(operator));
    expect(byOperator.status).toBe(403);
    const byAdmin = await setPin(device.deviceId, "1111", await adminToken());
    expect(byAdmin.status).toBe(403);
    for (const pin of ["123", "12345", "abcd", 1234]) {
      const refused = await putJson(`/api/pumps/${device.deviceId}/sms-pin`, { pin }, token);
      expect([pin, refused.status]).toEqual([pin, 400]);
    }
    const stored = async () =>
      (await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, device.deviceId) }))!.smsPin;
    expect(await stored()).toBeNull();
    expect((await setPin(device.deviceId, "1111", token)).status).toBe(200);
    // Kept as an HMAC, never the digits.
    expect(await stored()).toMatch(/^[0-9a-f]{64}$/);
    const next = await createUser();
    expect(
      (await putJson(`/api/admin/devices/${device.deviceId}/owner`, { mobileNo: next.mobileNo }, await adminToken()))
        .status,
    ).toBe(200);
    expect(await stored()).toBeNull();
  });
});
