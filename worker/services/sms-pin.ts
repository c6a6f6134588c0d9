// The owner's SMS PIN, set or removed (worker/phone-control/sms-pin.ts keeps and checks it): one
// way for PUT /api/pumps/{deviceId}/sms-pin and the settings page's form, the owner's alone
// (the callers check the role, `phoneStart`). The SMS path reads it from D1 at every command.
import { eq } from "drizzle-orm";
import { SMS_PIN_PATTERN } from "../../common/phone-commands.ts";
import { getDb } from "../db/client.ts";
import { devices } from "../db/schema.ts";
import { smsPinHash } from "../phone-control/sms-pin.ts";

/** Sets (a 4-digit `pin`) or removes (null) box `deviceId`'s SMS PIN; whether one is set now. */
export async function setSmsPin(
  env: Pick<Env, "DB" | "JWT_SECRET">,
  deviceId: string,
  pin: string | null,
): Promise<boolean> {
  if (pin !== null && !SMS_PIN_PATTERN.test(pin)) throw new Error("An SMS PIN is 4 digits.");
  const [saved] = await getDb(env.DB)
    .update(devices)
    .set({ smsPin: pin === null ? null : await smsPinHash(env, deviceId, pin) })
    .where(eq(devices.id, deviceId))
    .returning({ smsPin: devices.smsPin });
  return (saved?.smsPin ?? null) !== null;
}
