// Reads the forms before sign-in (login, register, a code, a new password) with the same zod
// schemas as the JSON API, and names problems by message key so they show in either language.

import { data } from "react-router";
import type { CodePurposeName } from "../common/api-schemas.ts";
import {
  changePasswordRequestSchema,
  loginRequestSchema,
  mobileNoSchema,
  oneTimeCodeSchema,
  registerRequestSchema,
} from "../common/api-schemas.ts";
import { sendCode } from "../worker/services/accounts.ts";
import type { Refusal } from "../worker/services/refusal.ts";
import type { CodeStep, PageError } from "./components/code-forms.tsx";
import { field } from "./form.server.ts";
import type { MessageKey } from "./i18n/i18n.ts";

export type Credentials = { mobileNo: string; password: string };

export function readCredentialsForm(
  form: FormData,
  purpose: "login" | "register",
): { ok: true; credentials: Credentials } | { ok: false; error: MessageKey } {
  const mobileNo = form.get("mobileNo");
  const password = form.get("password");
  if (typeof mobileNo !== "string" || typeof password !== "string" || !mobileNo.trim() || !password) {
    return { ok: false, error: "auth.required" };
  }
  const schema = purpose === "login" ? loginRequestSchema : registerRequestSchema;
  const result = schema.safeParse({ mobileNo, password });
  if (result.success) return { ok: true, credentials: result.data };
  const field = result.error.issues[0]?.path[0];
  return { ok: false, error: field === "mobileNo" ? "auth.mobileInvalid" : "auth.passwordLength" };
}

/** The password change form, read with the API's schema; problems named by message key. */
export function readPasswordChangeForm(
  form: FormData,
): { ok: true; input: { currentPassword: string; newPassword: string } } | { ok: false; error: MessageKey } {
  const currentPassword = form.get("currentPassword");
  const newPassword = form.get("newPassword");
  const confirmPassword = form.get("confirmPassword");
  if (
    typeof currentPassword !== "string" ||
    typeof newPassword !== "string" ||
    typeof confirmPassword !== "string" ||
    !currentPassword ||
    !newPassword
  ) {
    return { ok: false, error: "password.required" };
  }
  if (newPassword !== confirmPassword) return { ok: false, error: "password.mismatch" };
  const result = changePasswordRequestSchema.safeParse({ currentPassword, newPassword });
  if (!result.success) return { ok: false, error: "auth.passwordLength" };
  return { ok: true, input: result.data };
}

/** The message key for a refusal of a sign-in, a registration, a password change or a code. */
export function accountErrorKey(refusal: Refusal, fallback: MessageKey): MessageKey {
  switch (refusal.code) {
    case "loginFailed":
      return "login.invalid";
    case "duplicateRegistration":
      return "register.duplicate";
    case "throttled":
      return "auth.throttled";
    case "wrongCurrentPassword":
      return "password.wrongCurrent";
    case "samePassword":
      return "password.same";
    case "passwordBlank":
      return "auth.passwordBlank";
    case "passwordIsMobile":
      return "auth.passwordIsMobile";
    case "passwordRepeated":
      return "auth.passwordRepeated";
    case "commonPassword":
      return "auth.passwordCommon";
    case "noCode":
      return "code.dead";
    // A fault, not a refusal (logged where it happened, worker/services/refusal.ts).
    case "internal":
      return "error.generic";
    default:
      return fallback;
  }
}

/** Headers for a successful login: the session cookie and the known-device cookie. */
export function loginCookieHeaders(cookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/**
 * A page's refusal with its values: a wrong code says how many tries are left; a throttle of
 * codes (`asking` one or checking one) says from when, as an instant the page writes with Intl.
 */
export function pageErrorOf(
  refusal: Refusal,
  fallback: MessageKey,
  limited: "asking" | "checking" = "checking",
  now = Date.now(),
): PageError {
  if (refusal.code === "wrongCode") return { key: "code.wrong", values: refusal.params };
  const wait = refusal.params.retryAfterSeconds;
  if (refusal.code === "throttled" && typeof wait === "number") {
    return { key: limited === "asking" ? "code.limited" : "code.triesLimited", retryAt: now + wait * 1000 };
  }
  return { key: accountErrorKey(refusal, fallback) };
}

/** The mobile number a code form names, read with the API's schema. */
export function readMobileNo(form: FormData): string | null {
  const parsed = mobileNoSchema.safeParse(form.get("mobileNo"));
  return parsed.success ? parsed.data : null;
}

/** The code a form carries, read with the API's schema (spaces between the digits dropped). */
export function readCode(form: FormData): string | null {
  const parsed = oneTimeCodeSchema.safeParse(form.get("code"));
  return parsed.success ? parsed.data : null;
}

/** The code step again, saying why what came with it was refused. */
export function codeRefused(mobileNo: string, error: PageError, status: number) {
  return data<CodeStep>({ step: "code", mobileNo, error }, { status });
}

/**
 * What the action of a page that proves a number with a code (sign in with a code, a new
 * password) does first: a number that is not one goes back to the number step; with
 * intent=send, a code for `purpose` goes to the number and the page shows the code step (or why
 * not: too many asked for, and one that came earlier may still work). Otherwise: the number,
 * for the page to check the code that came with it.
 */
export async function numberOrCodeSent(
  form: FormData,
  request: Request,
  sending: { env: Env; purpose: CodePurposeName; waitUntil: Parameters<typeof sendCode>[2]["waitUntil"] },
): Promise<{ answer: ReturnType<typeof data<CodeStep>> } | { mobileNo: string }> {
  const mobileNo = readMobileNo(form);
  if (!mobileNo) {
    const error = { key: "auth.mobileInvalid" } as const;
    const number = field(form, "mobileNo").slice(0, 10);
    return { answer: data<CodeStep>({ step: "number", mobileNo: number, error }, { status: 400 }) };
  }
  if (field(form, "intent") !== "send") return { mobileNo };
  const { env, purpose, waitUntil } = sending;
  const sent = await sendCode(env, request, { purpose, mobileNo, waitUntil });
  if (!sent.ok) return { answer: codeRefused(mobileNo, pageErrorOf(sent, "error.generic", "asking"), sent.status) };
  return { answer: data<CodeStep>({ step: "code", mobileNo, error: null }) };
}
