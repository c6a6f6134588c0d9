// Boxes for tests that run inside workerd: a fresh box provisioned in D1, a farmer who owns one
// (signed in, and with the box connected), and the state a new box reports.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { provisionResponseSchema } from "../../../common/api-responses/admin.ts";
import { generateDeviceId, generateDeviceKey, hashDeviceKey } from "../../../common/credentials.ts";
import type { DeviceKind } from "../../../common/device-protocol.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { createUser, loginToken } from "./accounts.ts";
import { postJson } from "./http.ts";
import { type ConnectOptions, connectDevice, type TestDevice } from "./sockets.ts";

export async function provisionDevice(ownerUserId: number | null, kind: DeviceKind = "3phase"): Promise<TestDevice> {
  const deviceId = generateDeviceId();
  const key = generateDeviceKey();
  await getDb(env.DB)
    .insert(devices)
    .values({ id: deviceId, ownerUserId, kind, keyHash: await hashDeviceKey(key), createdAt: Date.now() });
  return { deviceId, key };
}

/** An admin provisions a box through the API (POST /api/admin/devices with `body`): 201, with its key shown once. */
export async function provisionThroughApi(adminToken: string, body: object) {
  const response = await postJson("/api/admin/devices", body, adminToken);
  expect(response.status).toBe(201);
  return readJson(response, provisionResponseSchema);
}

/** A farmer with a provisioned device and a user token; `verified: false` for an unverified number. */
export async function farmerWithDevice(kind: DeviceKind = "3phase", options: { verified?: boolean } = {}) {
  const user = await createUser(options);
  const device = await provisionDevice(user.id, kind);
  const token = await loginToken(user);
  return { user, device, token };
}

/**
 * A farmer whose box is connected and has said hello. With `autoAck` the box answers every command
 * like a healthy one (DevicePeer.autoAck); without it the test answers for the box.
 */
export async function farmerWithBox(
  options: ConnectOptions & { autoAck?: boolean | { runningCurrent?: number } } = {},
) {
  const { autoAck, ...connect } = options;
  const farmer = await farmerWithDevice();
  const box = await connectDevice(farmer.device, connect);
  if (autoAck) box.autoAck(autoAck === true ? {} : autoAck);
  return { ...farmer, box };
}

/** The pump state of a box that has just said hello with its relay open, as the status API answers it. */
export const FRESH_PUMP_STATE = {
  status: "off",
  statusSince: expect.any(Number),
  statusSource: "hello",
  deviceStatus: "online",
  lastSeenAt: expect.any(Number),
  pendingCommand: null,
  cooldownUntil: 0,
  faults: [],
  powerDataAt: expect.any(Number),
  stopsAt: null,
} as const;

/** A fresh box's pump state as the realtime socket and the dashboard carry it: who started the run too (none). */
export const FRESH_LIVE_PUMP_STATE = { ...FRESH_PUMP_STATE, startedBy: null } as const;
