import { HUB_HEADERS, type HubSocketRefusal } from "../../common/hub-contract.ts";
import { z } from "../../common/zod.ts";
import { apiError, refusalResponse } from "../http/http-error.ts";

/** The DeviceHub of a device. Hubs are addressed by the stable device id, never a mobile number. */
export function deviceHub(env: Pick<Env, "DEVICE_HUB">, deviceId: string) {
  return env.DEVICE_HUB.get(env.DEVICE_HUB.idFromName(deviceId));
}

type HubSocketIdentity =
  | { role: "device" }
  | { role: "browser"; viewerId: number; viewerRole: "user" | "admin"; sessionId: string; sessionExpiresAt: number };

/**
 * A fresh upgrade request for a hub, carrying only what the Worker has verified. Nothing of
 * the client's own headers is passed on, so no client can claim an identity.
 */
export function hubSocketRequest(identity: HubSocketIdentity): Request {
  const headers = new Headers({ Upgrade: "websocket", [HUB_HEADERS.socketRole]: identity.role });
  if (identity.role === "browser") {
    headers.set(HUB_HEADERS.viewerId, String(identity.viewerId));
    headers.set(HUB_HEADERS.viewerRole, identity.viewerRole);
    headers.set(HUB_HEADERS.sessionId, identity.sessionId);
    headers.set(HUB_HEADERS.sessionExpiresAt, String(identity.sessionExpiresAt));
  }
  return new Request("https://device-hub.internal/socket", { headers });
}

const seconds = z.number().int().positive();
const hubSocketRefusalSchema = z.discriminatedUnion("code", [
  z.object({ code: z.literal("tooManyFrames"), seconds }),
  z.object({ code: z.literal("tooManyViewers"), seconds }),
]) satisfies z.ZodType<HubSocketRefusal>;

/**
 * The hub's answer to a forwarded upgrade, as the client gets it: the socket, or the hub's
 * refusal (a code) as the API's worded refusal. In English, as a box reads it; a browser's
 * WebSocket never shows a refused upgrade's body to the page, only API clients read it.
 */
export async function hubSocketAnswer(response: Response): Promise<Response> {
  if (response.status !== 429) return response;
  const refusal = hubSocketRefusalSchema.parse(await response.json());
  const params: Record<string, number> = refusal.code === "tooManyFrames" ? { seconds: refusal.seconds } : {};
  return refusalResponse(apiError(429, refusal.code, params, { "Retry-After": String(refusal.seconds) }), "en");
}
