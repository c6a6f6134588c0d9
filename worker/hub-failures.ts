import { translateApi } from "../app/i18n/api.ts";
import type { Language } from "../app/i18n/catalogue.ts";
import { commandFailureText } from "../app/i18n/motor-log.ts";
import type { HubFailure } from "../durable-objects/device-hub.ts";
import { HttpError } from "./http-error.ts";

const STATUS: Record<HubFailure["code"], HttpError["status"]> = {
  offline: 503,
  cooldown: 429,
  busy: 409,
  timeout: 504,
  linkLost: 504,
  rejected: 409,
  phaseFault: 409,
  noSupply: 409,
  otaBusy: 409,
  otaRejected: 409,
};

/** Why the hub refused, as a sentence in `language`. */
export function hubFailureText(failure: HubFailure, language: Language): string {
  switch (failure.code) {
    case "otaBusy":
      return translateApi(language, "failure.otaBusy", { version: failure.version ?? "" });
    case "otaRejected":
      return translateApi(language, "failure.otaRejected", { hasError: failure.error ? "yes" : "no", error: failure.error ?? "" });
    default:
      return commandFailureText({ code: failure.code, error: failure.error ?? null }, language);
  }
}

/**
 * Turns a refusal from a DeviceHub into the API's error answer: its `code` and parameters
 * for programs, and the `message` in the caller's language.
 */
export function hubFailureError(failure: HubFailure, language: Language): HttpError {
  const retryAfter = failure.retryAfterMs ? Math.ceil(failure.retryAfterMs / 1000) : null;
  const params: Record<string, unknown> = {};
  if (failure.error) params.error = failure.error;
  if (failure.version) params.version = failure.version;
  if (retryAfter !== null) params.retryAfterSeconds = retryAfter;
  return new HttpError(STATUS[failure.code], hubFailureText(failure, language), retryAfter === null ? {} : { "Retry-After": String(retryAfter) }, {
    code: failure.code,
    params,
  });
}

/** The caller has no device: 404, in their language. */
export function noDeviceError(language: Language): HttpError {
  return new HttpError(404, translateApi(language, "failure.noDevice"), {}, { code: "noDevice", params: {} });
}
