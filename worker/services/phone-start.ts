// The owner's switch for the start number (docs/decisions/028-switching-by-phone.md), one way
// for the JSON API (PUT /api/pumps/{deviceId}/phone-start) and the owner's settings page. Off by
// default: a missed call from the owner's phone would start the motor with nobody at the well,
// so only the owner turns it on (the callers check the role, `phoneStart`); a missed call to the
// stop number stops the pump whatever this says. The missed-call path reads it from D1 at every
// call (worker/phone-control/sms-and-missed-calls.ts), so a change holds from the next call on.
import { eq } from "drizzle-orm";
import { getDb } from "../db/client.ts";
import { devices } from "../db/schema.ts";

/** Saves whether a missed call to the start number may start `deviceId`'s motor; answers the value saved. */
export async function setStartByMissedCall(env: Env, deviceId: string, enabled: boolean): Promise<boolean> {
  const [saved] = await getDb(env.DB)
    .update(devices)
    .set({ startByMissedCall: enabled })
    .where(eq(devices.id, deviceId))
    .returning({ enabled: devices.startByMissedCall });
  return saved?.enabled ?? false;
}
