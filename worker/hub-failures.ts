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
};

/** Turns a refusal from a DeviceHub into the API's error answer. */
export function hubFailureError(failure: HubFailure): HttpError {
  const headers: Record<string, string> = failure.retryAfterMs
    ? { "Retry-After": String(Math.ceil(failure.retryAfterMs / 1000)) }
    : {};
  return new HttpError(STATUS[failure.code], failure.message, headers);
}
