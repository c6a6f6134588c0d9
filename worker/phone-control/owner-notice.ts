// The owner hears of every start by phone that someone else made (docs/telephony.md, "Switching
// from any phone"): an operator's SMS, missed call or voice menu may start the owner's motor, and
// the owner, who agreed to share the pump and perhaps to the start number, must not learn of it
// only at the well. Sent once the box confirmed the ON, in the owner's language, to a verified
// number only, and never to the person who started it (they have their own reply). Counted in
// the pump's reply cap; a failure is logged and swallowed, as every reply's is.
import { istMinuteOfDay } from "../../common/schedule-time.ts";
import { alertSettingsOf } from "../db/alert-settings.ts";
import { getDb } from "../db/client.ts";
import { messageTime } from "../services/message-time.ts";
import { type PhoneCaller, type PhonePump, pumpLabel } from "./phone-callers.ts";
import { type PhoneReplyEnv, sendPhoneReply } from "./phone-replies.ts";

/** Tells `pump`'s owner that `who` started its motor at `at`, unless `who` is the owner. */
export async function tellOwnerOfStart(env: PhoneReplyEnv, who: PhoneCaller, pump: PhonePump, at: number) {
  const ownerId = pump.access.device.ownerUserId;
  if (pump.access.role === "owner" || ownerId === null || ownerId === who.caller.id) return;
  const db = getDb(env.DB);
  const owner = await db.query.users.findFirst({ where: (users, { eq }) => eq(users.id, ownerId) });
  if (!owner || owner.numberVerifiedAt === null || owner.mobileNo === who.caller.mobileNo) return;
  const { language } = await alertSettingsOf(db, owner.id);
  await sendPhoneReply(env, owner.mobileNo, pump.deviceId, language, {
    template: "phoneStartedByOther",
    values: {
      pumpName: pumpLabel(pump),
      time: messageTime(istMinuteOfDay(at), language),
      mobileNo: who.caller.mobileNo,
    },
  });
}
