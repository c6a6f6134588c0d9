// How a service says no: a value, never a throw. A page's action turns a refusal into its form's
// message by `code` (app/auth-form.server.ts and each page), the API into its one JSON error
// answer (`refusalError`, thrown to the API's onError). The code is the API catalogue's
// `error.{code}` (common/i18n/api-en.ts), or "noDevice".
import { translateApi } from "../../common/i18n/api.ts";
import { apiEn } from "../../common/i18n/api-en.ts";
import type { MessageValues } from "../../common/i18n/catalogue.ts";
import type { Language } from "../../common/i18n/language.ts";
import { type ApiErrorCode, apiError, HttpError } from "../http/http-error.ts";
import { hubFailureText, isHubFailureCode, noDeviceError } from "../hubs/hub-failures.ts";

export type RefusalCode = ApiErrorCode | "noDevice";

export type Refusal = {
  ok: false;
  status: HttpError["status"];
  code: RefusalCode;
  params: MessageValues;
  /** What the API's answer carries besides (a throttle's Retry-After). */
  headers: Record<string, string>;
};

/** A refusal by the API catalogue's code. */
export function refuse(
  status: HttpError["status"],
  code: RefusalCode,
  params: MessageValues = {},
  headers: Record<string, string> = {},
): Refusal {
  return { ok: false, status, code, params, headers };
}

/**
 * Runs work of the layers below (worker/auth, worker/db), which refuse by throwing the API's
 * errors, and gives their refusal back as a value. Anything else is a fault, not a refusal, and
 * goes on up.
 */
export async function settle<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | Refusal> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return refusalOf(error);
  }
}

/** A thrown refusal as a value; anything else thrown is a fault, thrown on. */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof HttpError) return refuse(error.status, error.code as RefusalCode, error.params, error.headers);
  throw error;
}

/**
 * As `settle`, for forms that answer a fault with a message of their own rather than an error
 * page (the sign-in forms): the fault is logged here and answers "internal" (500).
 */
export async function settleOrInternal<T>(work: () => Promise<T>): Promise<{ ok: true; value: T } | Refusal> {
  try {
    return await settle(work);
  } catch (error) {
    console.error("service failed", error);
    return refuse(500, "internal");
  }
}

/** Whether a failure thrown in a page's load is one of the API's refusals (expected) rather than a fault. */
export function isRefusalError(error: unknown): boolean {
  return error instanceof HttpError;
}

/** A refusal as the API's error: thrown in a route, its onError answers the one JSON error shape. */
export function refusalError(refusal: Refusal): HttpError {
  if (refusal.code === "noDevice") return noDeviceError();
  return apiError(refusal.status, refusal.code, refusal.params, refusal.headers);
}

/**
 * A refusal kept by its code and parameters (the audit trail's), worded for `language` as its
 * answer was: the API catalogue's, a hub's, or "noDevice"; null for a code of none of them.
 */
export function refusalWords(code: string, params: MessageValues, language: Language): string | null {
  if (`error.${code}` in apiEn) return translateApi(language, `error.${code}` as keyof typeof apiEn, params);
  if (isHubFailureCode(code)) {
    return hubFailureText(
      {
        ok: false,
        code,
        error: typeof params.error === "string" ? params.error : undefined,
        version: typeof params.version === "string" ? params.version : undefined,
      },
      language,
    );
  }
  if (code === "noDevice") return translateApi(language, "failure.noDevice");
  return null;
}
