// Reads the mobile number and password of the login and register forms, with the same zod
// schemas as the JSON API, and names problems by message key so they show in either language.
import { changePasswordRequestSchema, loginRequestSchema, registerRequestSchema } from "../common/api-schemas.ts";
import {
  DUPLICATE_REGISTRATION_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  SAME_PASSWORD_MESSAGE,
  WRONG_CURRENT_PASSWORD_MESSAGE,
} from "../worker/auth/accounts.ts";
import {
  BLANK_PASSWORD_MESSAGE,
  COMMON_PASSWORD_MESSAGE,
  MOBILE_NO_PASSWORD_MESSAGE,
  REPEATED_PASSWORD_MESSAGE,
  type WeakPasswordMessage,
} from "../common/password-policy.ts";
import { THROTTLED_MESSAGE } from "../worker/auth/throttle.ts";
import { HttpError } from "../worker/http-error.ts";
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
  if (typeof currentPassword !== "string" || typeof newPassword !== "string" || typeof confirmPassword !== "string" || !currentPassword || !newPassword) {
    return { ok: false, error: "password.required" };
  }
  if (newPassword !== confirmPassword) return { ok: false, error: "password.mismatch" };
  const result = changePasswordRequestSchema.safeParse({ currentPassword, newPassword });
  if (!result.success) return { ok: false, error: "auth.passwordLength" };
  return { ok: true, input: result.data };
}

/** The page's words for each way a new password can be refused. */
export const WEAK_PASSWORD_KEYS: Record<WeakPasswordMessage, MessageKey> = {
  [BLANK_PASSWORD_MESSAGE]: "auth.passwordBlank",
  [MOBILE_NO_PASSWORD_MESSAGE]: "auth.passwordIsMobile",
  [REPEATED_PASSWORD_MESSAGE]: "auth.passwordRepeated",
  [COMMON_PASSWORD_MESSAGE]: "auth.passwordCommon",
};

function isWeakPasswordMessage(message: string): message is WeakPasswordMessage {
  return Object.hasOwn(WEAK_PASSWORD_KEYS, message);
}

/** The message key for an error thrown by logIn/registerAccount. */
export function accountErrorKey(error: unknown, fallback: MessageKey): MessageKey {
  if (error instanceof HttpError) {
    if (error.message === LOGIN_FAILED_MESSAGE) return "login.invalid";
    if (error.message === DUPLICATE_REGISTRATION_MESSAGE) return "register.duplicate";
    if (error.message === THROTTLED_MESSAGE) return "auth.throttled";
    if (error.message === WRONG_CURRENT_PASSWORD_MESSAGE) return "password.wrongCurrent";
    if (error.message === SAME_PASSWORD_MESSAGE) return "password.same";
    if (isWeakPasswordMessage(error.message)) return WEAK_PASSWORD_KEYS[error.message];
    return fallback;
  }
  console.error(error);
  return "error.generic";
}

/** The HTTP status an account error answers a form post with. */
export function accountErrorStatus(error: unknown): number {
  return error instanceof HttpError ? error.status : 500;
}

/** Headers for a successful login: the session cookie and the known-device cookie. */
export function loginCookieHeaders(sessionCookieValue: string, extraCookies: string[]): Headers {
  const headers = new Headers();
  headers.append("Set-Cookie", sessionCookieValue);
  for (const cookie of extraCookies) headers.append("Set-Cookie", cookie);
  return headers;
}
