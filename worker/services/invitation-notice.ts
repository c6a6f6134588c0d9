// The SMS that tells a person an owner invited them (docs/decisions/027-verified-numbers.md),
// sent only to a verified number: to anyone else it could go to a stranger holding a number
// someone typed, and whether it goes must not tell the owner who is registered or verified. So
// it is decided after the invitation's answer, never before: the owner's answer, its time and
// what D1 keeps are alike for every number.
import { getDb } from "../db/client.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { configuredProvider } from "../telephony/config.ts";

/**
 * Sends the `invitation` SMS to `mobileNo` if its account is verified. It names who invited and
 * the box by its printed id, never the names the owner typed (an invitation shows none of them
 * before it is accepted), and the app's address. Hindi: the invitee's language is not known,
 * and Hindi is the app's default. A failure is logged; the invitation waits in the app anyway.
 */
export async function tellInvitee(
  env: Env,
  invitation: { mobileNo: string; ownerMobileNo: string; deviceId: string },
): Promise<void> {
  // Not a step before the answer is on its way.
  await new Promise((resolve) => setTimeout(resolve, 0));
  try {
    const account = await findUserByMobileNo(getDb(env.DB), invitation.mobileNo);
    if (!account?.numberVerifiedAt) return;
    await configuredProvider(env).sendSms({
      to: invitation.mobileNo,
      template: "invitation",
      language: "hi",
      values: { mobileNo: invitation.ownerMobileNo, pumpName: invitation.deviceId, url: env.TELEPHONY_WEBHOOK_ORIGIN },
    });
  } catch (error) {
    console.error("The invitation notice could not be sent", error);
  }
}
