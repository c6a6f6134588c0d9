// The SMS a command from a phone is answered with (docs/telephony.md, "Switching from any
// phone"): a DLT template in the language the account chose for its alerts, within a cap per
// pump (`phoneReplyPump`, any 24 hours) and, for the help SMS that names no pump, per number
// (`phoneHelpNumber`). Over the cap the command still acts; only its SMS stays unsent. A failure
// is logged and swallowed: the motor already did what it did.

import { type PhoneAlertEnv, providerOf } from "../alerts/phone-alerts.ts";
import { type ThrottleEnv, tryAttempt } from "../auth/throttle.ts";
import type { SmsRequest } from "../telephony/provider.ts";
import type { SmsLanguage, SmsTemplateCode, SmsValues } from "../telephony/sms-templates.ts";

export type PhoneReplyEnv = PhoneAlertEnv & ThrottleEnv;

/** A template with its values, checked together for each template. */
export type PhoneReply = { [Code in SmsTemplateCode]: { template: Code; values: SmsValues<Code> } }[SmsTemplateCode];

/** Sends `reply` to `to` if the cap of `deviceId`'s replies (or, with none, of `to`'s help SMS) allows; whether it went. */
export async function sendPhoneReply(
  env: PhoneReplyEnv,
  to: string,
  deviceId: string | null,
  language: SmsLanguage,
  reply: PhoneReply,
): Promise<boolean> {
  const provider = providerOf(env);
  if (!provider) return false;
  const allowed =
    deviceId === null
      ? await tryAttempt(env, "phoneHelpNumber", to)
      : await tryAttempt(env, "phoneReplyPump", deviceId);
  if (!allowed) {
    console.warn(`A reply by SMS for ${deviceId ?? "a help request"} is over its daily cap and was not sent`);
    return false;
  }
  try {
    await provider.sendSms({ to, language, ...reply } as SmsRequest);
    return true;
  } catch (error) {
    console.error(`A reply by SMS (${reply.template}) was not sent`, error);
    return false;
  }
}
