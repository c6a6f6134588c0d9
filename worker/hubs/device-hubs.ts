import { HUB_HEADERS } from "../../common/hub-contract.ts";

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
