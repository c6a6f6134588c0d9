// Codes to a farmer's number (docs/telephony.md, "Verified numbers"; decision 027): which account
// may get a code for which purpose, and the SMS it goes by. The request is answered alike for
// every number by one-time-codes.ts; only afterwards is the account read and the SMS sent.
import type { CodePurposeName } from "../../common/api-schemas.ts";
import { getDb } from "../db/client.ts";
import type { UserRow } from "../db/schema.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { configuredProvider, type TelephonyEnv } from "../telephony/config.ts";
import type { SmsLanguage } from "../telephony/sms-templates.ts";
import { type CodeEnv, type CodeRequestAnswer, requestCode } from "./one-time-codes.ts";
import type { AuthClient } from "./throttle.ts";

export type CodeDeliveryEnv = CodeEnv & TelephonyEnv;

/** How a code leaves after the answer: the request's `waitUntil`, and the language of its SMS. */
export type CodeSending = { waitUntil: (promise: Promise<unknown>) => void; language: SmsLanguage };

/**
 * Who gets a code for what. Signing in: only a verified number, since a code must never open
 * an account whose password someone else may have chosen before the number was proven (the
 * password reset is the way in for an unverified one, and it ends every session). A new
 * password: any account. Verifying: an account whose number is not verified yet.
 */
export function mayReceiveCode(purpose: CodePurposeName, account: UserRow | undefined): boolean {
  switch (purpose) {
    case "signIn":
      return account !== undefined && account.numberVerifiedAt !== null;
    case "resetPassword":
      return account !== undefined;
    case "verifyNumber":
      return account !== undefined && account.numberVerifiedAt === null;
  }
}

/**
 * Makes a code for `purpose` and answers at once, the same for every number (429 when the
 * number or the client address asked too often); the SMS goes out afterwards only if the
 * number's account may receive it.
 */
export function sendAccountCode(
  env: CodeDeliveryEnv,
  request: { purpose: CodePurposeName; mobileNo: string; client: AuthClient | null } & CodeSending,
): Promise<CodeRequestAnswer> {
  const { purpose, mobileNo, language } = request;
  return requestCode(env, {
    purpose,
    mobileNo,
    client: request.client,
    waitUntil: request.waitUntil,
    mayReceive: async () => mayReceiveCode(purpose, await findUserByMobileNo(getDb(env.DB), mobileNo)),
    deliver: async (code) => {
      await configuredProvider(env).sendSms({
        to: mobileNo,
        template: purpose === "resetPassword" ? "passwordResetCode" : "signInCode",
        language,
        values: { code },
      });
    },
  });
}
