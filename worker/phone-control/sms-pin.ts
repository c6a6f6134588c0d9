// The owner's SMS PIN (docs/telephony.md, "Switching from any phone"; docs/security.md, "Caller
// ID"): off by default; once set, an SMS ON must begin with it ("1234 चालू 30"), so a spoofed
// sender id alone starts nothing. OFF and STATUS never need it: stopping is never blocked.
// Kept as an HMAC of the box id and the PIN under a key derived from the Worker's secret, so
// D1 alone does not give the PIN away (4 digits are few: without the key, a copy of D1 would be
// 10,000 hashes from it). Wrong PINs are counted per pump (`smsPinPump`): after 5 in a day, an
// ON by SMS waits, PIN or not, so guessing from a spoofed number stops there.
import { fromHex, secretMacKey, toHex } from "../auth/secret-mac.ts";
import { countAttempt, withinLimit } from "../auth/throttle.ts";

type PinEnv = Pick<Env, "DB" | "JWT_SECRET" | "AUTH_THROTTLE">;

const pinKey = (env: Pick<Env, "JWT_SECRET">) => secretMacKey(env.JWT_SECRET, "sinchai sms pin v1");

const message = (deviceId: string, pin: string) => new TextEncoder().encode(`${deviceId}\u0000${pin}`);

/** What D1 keeps of box `deviceId`'s PIN `pin`. */
export async function smsPinHash(env: Pick<Env, "JWT_SECRET">, deviceId: string, pin: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", await pinKey(env), message(deviceId, pin)));
}

/**
 * Whether an SMS ON for box `device` may go on with `pin` (the SMS's, null for none): `ok` when
 * the owner set no PIN or this is it; `pin` when it is missing or wrong (counted against the
 * pump); `pinLocked` when the pump's wrong PINs of the day are used up, right or not.
 */
export async function smsPinCheck(
  env: PinEnv,
  device: { id: string; smsPin: string | null },
  pin: string | null,
): Promise<"ok" | "pin" | "pinLocked"> {
  if (device.smsPin === null) return "ok";
  // Compared by WebCrypto's verify, in constant time.
  const right =
    pin !== null &&
    (await crypto.subtle.verify("HMAC", await pinKey(env), fromHex(device.smsPin), message(device.id, pin)));
  if (!right) {
    await countAttempt(env, "smsPinPump", device.id);
    return "pin";
  }
  // A right PIN counts nothing, but after 5 wrong ones in a day it waits too.
  return (await withinLimit(env, "smsPinPump", device.id)) ? "ok" : "pinLocked";
}
