// Reads the mobile number and password of the login and register forms, with the same zod
// schemas as the JSON API, and names problems by message key so they show in either language.
import {
  changePasswordRequestSchema,
  loginRequestSchema,
  mobileNoSchema,
  oneTimeCodeSchema,
  registerRequestSchema,
} from "../common/api-schemas.ts";
import type { Refusal } from "../worker/services/refusal.ts";
import type { MessageKey, MessageValues } from "./i18n/i18n.ts";

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

/** A page's refusal with its values: a wrong code says how many tries are left. */
export function pageErrorOf(refusal: Refusal, fallback: MessageKey): { key: MessageKey; values?: MessageValues } {
  if (refusal.code === "wrongCode") return { key: "code.wrong", values: refusal.params };
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
