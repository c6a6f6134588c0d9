// Who a phone number is to the pumps (docs/decisions/028-switching-by-phone.md): the verified
// account that holds it and the pumps it may switch (owner or operator, accepted), read from D1
// at every command through the same rules as the app (worker/services/pump-access.ts). Anyone
// else (a number nobody verified, a stranger, a viewer, an invitee) gets nothing here that
// could tell them a pump exists.
import { roleMay } from "../../common/pump-roles.ts";
import { alertSettingsOf, type PhoneLanguage } from "../db/alert-settings.ts";
import type { Db } from "../db/client.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { listPumpsOf, type PumpAccess, type PumpCaller } from "../services/pump-access.ts";

/** A pump as a phone names it: its box id, the owner's name for it, and its access. */
export type PhonePump = { deviceId: string; name: string | null; access: PumpAccess };

export type PhoneCaller = {
  caller: PumpCaller;
  /** The language the account chose for its alerts (Hindi until it chooses). */
  language: PhoneLanguage;
  /** The pumps it may switch, first box first; empty for a viewer or someone with none. */
  pumps: PhonePump[];
};

/** The name a reply gives a pump: the owner's, or the box's printed id. */
export function pumpLabel(pump: PhonePump): string {
  return pump.name ?? pump.deviceId;
}

/** The verified account of `mobileNo` and the pumps it may switch; null for any number not verified. */
export async function phoneCallerOf(db: Db, mobileNo: string | null): Promise<PhoneCaller | null> {
  if (mobileNo === null) return null;
  const user = await findUserByMobileNo(db, mobileNo);
  if (!user || user.numberVerifiedAt === null || user.isAdmin) return null;
  const caller: PumpCaller = { id: user.id, mobileNo: user.mobileNo, audience: "user" };
  const [pumps, settings] = await Promise.all([listPumpsOf(db, caller), alertSettingsOf(db, user.id)]);
  return {
    caller,
    language: settings.language,
    pumps: pumps
      .filter((access) => roleMay(access.role, "switch"))
      .map((access) => ({ deviceId: access.device.id, name: access.device.name, access })),
  };
}
