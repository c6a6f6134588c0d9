import type { HubFailure } from "../../common/hub-contract.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import type { Language } from "../../common/i18n/language.ts";
import { commandFailureText } from "../../common/i18n/motor-log.ts";
import { HttpError } from "../http/http-error.ts";

const STATUS: Record<HubFailure["code"], HttpError["status"]> = {
  offline: 503,
  cooldown: 429,
  busy: 409,
  timeout: 504,
  linkLost: 504,
  rejected: 409,
  phaseFault: 409,
  noSupply: 409,
  underVoltage: 409,
  overVoltage: 409,
  voltageUnbalance: 409,
  otaBusy: 409,
  otaRejected: 409,
  notAllowed: 403,
};

export function isHubFailureCode(code: string): code is HubFailure["code"] {
  return Object.hasOwn(STATUS, code);
}

/** Why the hub refused, as a sentence in `language`. */
export function hubFailureText(failure: HubFailure, language: Language): string {
  switch (failure.code) {
    case "otaBusy":
      return translateApi(language, "failure.otaBusy", { version: failure.version ?? "" });
    case "otaRejected":
      return translateApi(language, "failure.otaRejected", {
        hasError: failure.error ? "yes" : "no",
        error: failure.error ?? "",
      });
    case "notAllowed":
      return translateApi(language, "failure.notAllowed");
    default:
      return commandFailureText({ code: failure.code, error: failure.error ?? null }, wordsIn(language));
  }
}

/**
 * Turns a refusal from a DeviceHub into the API's error answer: its `code` and parameters
 * for programs, and the `message` in the caller's language.
 */
export function hubFailureError(failure: HubFailure): HttpError {
  const retryAfter = failure.retryAfterMs ? Math.ceil(failure.retryAfterMs / 1000) : null;
  const params: Record<string, string | number> = {};
  if (failure.error) params.error = failure.error;
  if (failure.version) params.version = failure.version;
  if (retryAfter !== null) params.retryAfterSeconds = retryAfter;
  const headers: Record<string, string> = retryAfter === null ? {} : { "Retry-After": String(retryAfter) };
  return new HttpError(STATUS[failure.code], failure.code, params, headers, (language) =>
    hubFailureText(failure, language),
  );
}

/** The caller has no device: 404. */
export function noDeviceError(): HttpError {
  return new HttpError(404, "noDevice", {}, {}, (language) => translateApi(language, "failure.noDevice"));
}
