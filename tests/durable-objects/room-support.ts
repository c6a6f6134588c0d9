// The hub's rooms driven directly, without the Worker, a box or a browser: a test opens a
// DeviceHub of its own (a unique name), wires the rooms over that object's storage as the hub
// does (durable-objects/device-hub/rooms.ts) and calls the room it is about. The instance the
// runtime made for the name stays idle meanwhile; sockets a test opens here are plain pairs.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { openHubContext } from "../../durable-objects/device-hub/context.ts";
import { type HubRooms, openRooms } from "../../durable-objects/device-hub/rooms.ts";
import type { SocketAttachment } from "../../durable-objects/device-hub/sockets.ts";
import type { HubState } from "../../durable-objects/device-hub/state.ts";
import { INITIAL_STATE } from "../../durable-objects/device-hub/state.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";

/** A frame allowance that never runs out: these tests are not about the box's rate. */
const UNLIMITED = { take: () => true, grant: () => {} };

export function uniqueHubName(): string {
  return `room-test-${crypto.randomUUID()}`;
}

/** Runs `use` with the rooms of a fresh hub (or of the hub `name`, e.g. a provisioned device's id). */
export function withRooms<T>(
  use: (rooms: HubRooms, state: DurableObjectState) => T | Promise<T>,
  name = uniqueHubName(),
): Promise<T> {
  return runInDurableObject(hubStub(name), (_hub: DeviceHub, state) =>
    use(openRooms(openHubContext(state, env), UNLIMITED), state),
  );
}

/** A hub state with `changes`, for the plain functions over it. */
export function stateWith(changes: Partial<HubState>): HubState {
  return { ...INITIAL_STATE, ...changes };
}

/** A socket pair whose server end the hub holds (tagged, with `attachment`); the test reads the client end. */
export function openSocket(state: DurableObjectState, tags: string[], attachment: SocketAttachment) {
  const { 0: client, 1: server } = new WebSocketPair();
  state.acceptWebSocket(server, tags);
  client.accept();
  server.serializeAttachment(attachment);
  const received: unknown[] = [];
  client.addEventListener("message", (event) => received.push(JSON.parse(event.data as string)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    client.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })),
  );
  return { server, received, closed };
}
