// Helpers for tests that run inside workerd. Storage is isolated per test FILE, so every
// helper makes fresh, unique users and devices: tests never share state or depend on order.
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { type AnswerSchema, readJson } from "../../common/api-client.ts";
import { adminLoginResponseSchema, loginResponseSchema } from "../../common/api-responses/accounts.ts";
import { apiErrorSchema } from "../../common/api-responses/refusals.ts";
import { generateDeviceId, generateDeviceKey, hashDeviceKey, hashPassword } from "../../common/credentials.ts";
import type { DeviceKind, DeviceMessage, ServerToDeviceMessage } from "../../common/device-protocol.ts";
import { DEVICE_PROTOCOL_VERSION, serverToDeviceMessageSchema } from "../../common/device-protocol.ts";
import { type RealtimeMessage, realtimeMessageSchema } from "../../common/realtime-protocol.ts";
import { FrameBudget } from "../../durable-objects/device-hub/socket-caps.ts";
import { readStoredState, writeStoredState } from "../../durable-objects/device-hub/state.ts";
import { localProviderClient } from "../../telephony-sim/client.ts";
import { startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, motorLogs, users } from "../../worker/db/schema.ts";

export const ORIGIN = "http://sinchai.test";

/** The motor config a 3-phase box starts with: SPEC §3's defaults and the kind's voltage limits. */
export const THREE_PHASE_DEFAULT_CONFIG = {
  defaultCurrent: 1,
  dryRunThreshold: 30,
  overCurrentThreshold: 30,
  underVoltage: 340,
  overVoltage: 460,
  voltageUnbalance: 6,
} as const;

export function uniqueMobileNo(): string {
  const first = 6 + Math.floor(Math.random() * 4);
  const rest = String(Math.floor(Math.random() * 1e9)).padStart(9, "0");
  return `${first}${rest}`;
}

export type TestUser = { id: number; mobileNo: string; password: string };

/**
 * A new account, its number verified by a code (as every account that is invited or gets SMS
 * must be) unless `verified: false`: an account from before verification, or whose holder has
 * not entered the code yet.
 */
export async function createUser(
  options: { isAdmin?: boolean; password?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const mobileNo = uniqueMobileNo();
  const password = options.password ?? `pw-${crypto.randomUUID()}`;
  const [row] = await getDb(env.DB)
    .insert(users)
    .values({
      mobileNo,
      passwordHash: await hashPassword(password),
      isAdmin: options.isAdmin ?? false,
      createdAt: Date.now(),
      numberVerifiedAt: (options.verified ?? true) ? Date.now() : null,
    })
    .returning();
  return { id: row!.id, mobileNo, password };
}

/** The tests' phone: every SMS and call the Worker sent, as the local provider received them (tests/telephony-outbound.ts). */
export function testPhone() {
  return localProviderClient(env.TELEPHONY_LOCAL_URL);
}

/** The code of the first SMS to `mobileNo` sent after `since` (a Date.now() before asking), waiting for it. */
export async function codeSentTo(mobileNo: string, since: number): Promise<{ code: string; text: string }> {
  const sms = await testPhone().waitForSms(
    mobileNo,
    (candidate) => candidate.at >= since && /\b[0-9]{6}\b/.test(candidate.text),
  );
  return { code: /\b([0-9]{6})\b/.exec(sms.text)![1]!, text: sms.text };
}

/** The SMS the phone got for `mobileNo` since `since`, after waiting `ms` for any still on their way. */
export async function smsSince(mobileNo: string, since: number, ms = 300) {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return (await testPhone().records()).sms.filter((sms) => sms.to === mobileNo && sms.at >= since);
}

export type TestDevice = { deviceId: string; key: string };

export async function provisionDevice(ownerUserId: number | null, kind: DeviceKind = "3phase"): Promise<TestDevice> {
  const deviceId = generateDeviceId();
  const key = generateDeviceKey();
  await getDb(env.DB)
    .insert(devices)
    .values({ id: deviceId, ownerUserId, kind, keyHash: await hashDeviceKey(key), createdAt: Date.now() });
  return { deviceId, key };
}

export function api(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

function bearer(token?: string): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * A JSON request: a string body goes as it is (for malformed JSON), anything else as JSON;
 * without a body (undefined), a bare request.
 */
function sendJson(method: string, path: string, body: unknown, token?: string): Promise<Response> {
  if (body === undefined) return api(path, { method, headers: bearer(token) });
  return api(path, {
    method,
    headers: { "Content-Type": "application/json", ...bearer(token) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function postJson(path: string, body: unknown, token?: string): Promise<Response> {
  return sendJson("POST", path, body, token);
}

export async function loginToken(user: TestUser, audience: "user" | "admin" = "user"): Promise<string> {
  const path = audience === "admin" ? "/api/admin/login" : "/api/auth/login";
  const response = await postJson(path, { mobileNo: user.mobileNo, password: user.password });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return (await readJson(response, audience === "admin" ? adminLoginResponseSchema : loginResponseSchema)).token;
}

/** A WebSocket peer that queues what it receives, so tests can await the next message. */
export class SocketPeer<Incoming extends { type: string }> {
  readonly received: Incoming[] = [];
  readonly raw: string[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  readonly ws: WebSocket;

  /** Every frame is read with the protocol's schema: a frame off the contract fails the test. */
  constructor(ws: WebSocket, schema: { parse(value: unknown): Incoming }) {
    this.ws = ws;
    ws.addEventListener("message", (event) => {
      const text = typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data as ArrayBuffer);
      this.raw.push(text);
      if (text !== "pong") this.received.push(schema.parse(JSON.parse(text)));
      this.notify();
    });
    ws.addEventListener("close", (event) => {
      this.closed = { code: event.code, reason: event.reason };
      this.notify();
    });
  }

  private notify() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves with the first received message of `type` not taken before, waiting if needed. */
  async next<T extends Incoming["type"]>(type: T, timeoutMs = 3_000): Promise<Extract<Incoming, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((message) => message.type === type);
      if (index !== -1) return this.received.splice(index, 1)[0] as Extract<Incoming, { type: T }>;
      if (this.closed) throw new Error(`socket closed (${this.closed.code}) while waiting for ${type}`);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no ${type} within ${timeoutMs} ms; got ${JSON.stringify(this.received)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Asserts nothing of `type` arrives within `ms`. */
  async expectNone(type: Incoming["type"], ms = 300): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    const found = this.received.find((message) => message.type === type);
    if (found) throw new Error(`unexpected ${type}: ${JSON.stringify(found)}`);
  }

  async waitForClose(timeoutMs = 3_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error("socket did not close");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed;
  }

  sendRaw(text: string) {
    this.ws.send(text);
  }

  close() {
    try {
      this.ws.close(1000, "test done");
    } catch {
      // already closed
    }
  }
}

export class DevicePeer extends SocketPeer<ServerToDeviceMessage> {
  constructor(ws: WebSocket) {
    super(ws, serverToDeviceMessageSchema);
  }

  send(message: DeviceMessage) {
    this.sendRaw(JSON.stringify(message));
  }

  /**
   * Answers every command like a healthy box: switches and reports the new current,
   * acknowledges settings and restarts, answers requests for health and power.
   */
  autoAck(options: { runningCurrent?: number } = {}) {
    let relay: "on" | "off" = "off";
    const current = () => (relay === "on" ? (options.runningCurrent ?? 8.9) : 0);
    this.ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string" || event.data === "pong") return;
      const message = serverToDeviceMessageSchema.parse(JSON.parse(event.data));
      switch (message.type) {
        case "switch":
          relay = message.relay;
          this.send({ type: "ack", id: message.id, ok: true, relay });
          this.send({ type: "power", current: current(), wattage: Math.round(current() * 575) });
          return;
        case "config":
        case "restart":
        case "ota":
          this.send({ type: "ack", id: message.id, ok: true, relay });
          return;
        case "request":
          this.send({ type: "ack", id: message.id, ok: true, relay });
          if (message.what === "power")
            this.send({ type: "power", current: current(), wattage: Math.round(current() * 575) });
          else
            this.send({
              type: "health",
              uptime: 42,
              signal: -71,
              relay,
              connection: "connected",
              version: "test-1.0.0",
              imei: "866000000000001",
            });
          return;
        default:
          return;
      }
    });
    return this;
  }
}

export class BrowserPeer extends SocketPeer<RealtimeMessage> {
  constructor(ws: WebSocket) {
    super(ws, realtimeMessageSchema);
  }
}

async function upgrade(path: string, headers: Record<string, string>): Promise<Response> {
  return api(path, { headers: { Upgrade: "websocket", ...headers } });
}

export function basicAuth(deviceId: string, key: string): string {
  return `Basic ${btoa(`${deviceId}:${key}`)}`;
}

type ConnectOptions = {
  hello?: boolean;
  relay?: "on" | "off";
  kind?: DeviceKind;
  firmware?: string;
  phaseFault?: boolean;
  supply?: boolean;
};

/** Opens the device socket; with `hello`, also says hello and waits for the welcome. */
export async function connectDevice(device: TestDevice, options: ConnectOptions = {}): Promise<DevicePeer> {
  const response = await upgrade("/api/device/connect", {
    Authorization: basicAuth(device.deviceId, device.key),
  });
  if (response.status !== 101 || !response.webSocket) {
    throw new Error(`device upgrade failed: ${response.status} ${await response.text()}`);
  }
  response.webSocket.accept();
  const peer = new DevicePeer(response.webSocket);
  if (options.hello ?? true) {
    peer.send({
      type: "hello",
      protocol: DEVICE_PROTOCOL_VERSION,
      firmware: options.firmware ?? "test-1.0.0",
      kind: options.kind ?? "3phase",
      relay: options.relay ?? "off",
      imei: "866000000000001",
      ...(options.phaseFault === undefined ? {} : { phaseFault: options.phaseFault }),
      ...(options.supply === undefined ? {} : { supply: options.supply }),
    });
    await peer.next("welcome");
  }
  return peer;
}

/** Opens a browser's realtime socket: the first box of a number, or `{ deviceId }` a box by its id. */
export async function connectBrowser(
  target: string | { deviceId: string },
  auth: { token: string } | { cookie: string; origin?: string },
): Promise<BrowserPeer> {
  const headers: Record<string, string> =
    "token" in auth ? bearer(auth.token) : { Cookie: auth.cookie, Origin: auth.origin ?? ORIGIN };
  const query = typeof target === "string" ? `mobileNo=${target}` : `deviceId=${target.deviceId}`;
  const response = await upgrade(`/api/realtime?${query}`, headers);
  if (response.status !== 101 || !response.webSocket) {
    throw new Error(`browser upgrade failed: ${response.status} ${await response.text()}`);
  }
  response.webSocket.accept();
  return new BrowserPeer(response.webSocket);
}

/** Opens a browser's socket and takes its initialData, so what it receives next is news. */
export async function browserWatching(...args: Parameters<typeof connectBrowser>): Promise<BrowserPeer> {
  const browser = await connectBrowser(...args);
  await browser.next("initialData");
  return browser;
}

export function hubStub(deviceId: string) {
  return env.DEVICE_HUB.get(env.DEVICE_HUB.idFromName(deviceId));
}

/**
 * The hub's snapshot without its clocks (when it was taken, when the box was last heard: a
 * heartbeat moves that), to compare the state at two moments.
 */
export async function snapshotWithoutClocks(deviceId: string) {
  const { pump, ...rest } = await hubStub(deviceId).getSnapshot();
  const { at: _at, lastSeenAt: _lastSeenAt, ...stable } = pump;
  return { ...rest, pump: stable };
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

export async function adminToken(): Promise<string> {
  return loginToken(await createUser({ isAdmin: true }), "admin");
}

export function putJson(path: string, body: unknown, token?: string): Promise<Response> {
  return sendJson("PUT", path, body, token);
}

/** An admin saves a farmer's motor settings (PUT /api/admin/update-motor-config). */
export function updateMotorConfig(mobileNo: string, config: Record<string, unknown>, token: string) {
  return putJson("/api/admin/update-motor-config", { mobileNo, ...config }, token);
}

/** A DELETE; with a body, sent as JSON like postJson's (a string as it is), without one a bare request. */
export function deleteJson(path: string, body: unknown, token?: string): Promise<Response> {
  return sendJson("DELETE", path, body, token);
}

export function getJson(path: string, token?: string): Promise<Response> {
  return api(path, { headers: bearer(token) });
}

/** GETs `path` as `token`, expects 200 and reads the answer with `schema`. */
export async function getOk<Schema extends AnswerSchema>(path: string, token: string, schema: Schema) {
  const response = await getJson(path, token);
  expect(response.status).toBe(200);
  return readJson(response, schema);
}

/**
 * Rewrites the hub's stored state, then evicts it so the next instance loads the change (the
 * running instance keeps its state cached in memory). For moving a hub's clock back.
 */
export async function rewriteHubState(
  deviceId: string,
  change: (state: Record<string, unknown>) => Record<string, unknown>,
) {
  const stub = hubStub(deviceId);
  // The hub writes its log to D1 after it answers, and saves its recent list when D1 has it: a
  // write behind its back while that is under way would be overwritten by its copy in memory.
  await stub.flushLogs();
  await runInDurableObject(stub, (_hub: unknown, state) => {
    writeStoredState(state.storage.kv, change(readStoredState(state.storage.kv) as Record<string, unknown>));
  });
  await evictDurableObject(stub, { webSockets: "hibernate" });
}

/** Makes a named hub timer due now and runs the alarm. */
export async function fireTimer(deviceId: string, name: string) {
  const stub = hubStub(deviceId);
  await runInDurableObject(stub, (_hub: unknown, state) => {
    state.storage.sql.exec("UPDATE timers SET due_at = ? WHERE name = ?", Date.now() - 1, name);
  });
  return runDurableObjectAlarm(stub);
}

/** The pump state of a box that has just said hello with its relay open, as API and browsers get it. */
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

/**
 * Lifts the box's frame-rate cap on a running hub, for suites about what frames say rather than
 * how many come (the fuzzers send thousands back to back). The cap's own tests: caps.test.ts.
 */
export async function liftFrameRateCap(deviceId: string) {
  await runInDurableObject(hubStub(deviceId), (hub: unknown) => {
    (hub as { deviceFrameBudget: FrameBudget }).deviceFrameBudget = new FrameBudget(Number.MAX_SAFE_INTEGER, 0);
  });
}

/**
 * A refusal's whole body as the API sends it (common/api-responses/refusals.ts), for comparing
 * with toEqual or toMatchObject: the words for people, the code and params for programs.
 */
export function refusal(message: unknown, code: string, params: Record<string, unknown> = {}) {
  return { success: false, message, code, params };
}

/** The code of a refusal the API answered (common/api-responses/refusals.ts). */
export async function refusalCode(response: Response): Promise<string | undefined> {
  return (await readJson(response, apiErrorSchema)).code;
}

/**
 * The motor logs D1 holds for a device, oldest first, once its hub has written what waits in its
 * outbox (the hub answers before it writes to D1; a farmer's log read flushes the same way).
 */
export async function motorLogRows(deviceId: string) {
  await hubStub(deviceId).flushLogs();
  return getDb(env.DB).select().from(motorLogs).where(eq(motorLogs.deviceId, deviceId)).orderBy(motorLogs.id);
}

/** A device's motor logs as `[action, message]`, oldest first. */
export async function motorLogLines(deviceId: string) {
  return (await motorLogRows(deviceId)).map((row) => [row.action, row.message]);
}

/** The switch-offs of schedule runs a hub still owes, as its storage holds them. */
export function owedSwitchOffs(deviceId: string) {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) =>
    state.storage.sql
      .exec<{ scheduleId: number; dueAt: number }>(
        "SELECT schedule_id AS scheduleId, due_at AS dueAt FROM schedule_offs",
      )
      .toArray(),
  );
}

/** `user` accepts the owner's invitation to `deviceId` through the API, with a session of their own. */
export async function acceptInvitation(deviceId: string, user: TestUser): Promise<void> {
  const { token } = await startSession(env, user.id, "user");
  const response = await postJson(`/api/pumps/${deviceId}/invitation`, { answer: "accept" }, token);
  expect(response.status).toBe(200);
}

/** POST /api/pumps/{deviceId}/members with `body` as the holder of `token`: an owner's invitation, or a try at one. */
export function invite(deviceId: string, body: object, token: string): Promise<Response> {
  return postJson(`/api/pumps/${deviceId}/members`, body, token);
}

/** The owner invites `user` to `deviceId` as `role`, and `user` accepts: one of the box's people. */
export async function addMember(
  deviceId: string,
  ownerToken: string,
  user: TestUser,
  role: "operator" | "viewer",
  label: string,
): Promise<void> {
  const response = await invite(deviceId, { mobileNo: user.mobileNo, role, label }, ownerToken);
  expect(response.status).toBe(201);
  await acceptInvitation(deviceId, user);
}

/**
 * The owner of `deviceId` lets three new farmers use it: an operator, a viewer, and one they
 * remove again at once (an ex-member); and invites a fourth who has not answered (an invitee).
 * Through the API, as an owner and the people would.
 */
export async function sharePump(deviceId: string, ownerToken: string) {
  const [operator, viewer, exMember, invitee] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  await addMember(deviceId, ownerToken, operator, "operator", "Ram");
  await addMember(deviceId, ownerToken, viewer, "viewer", "Sita");
  await addMember(deviceId, ownerToken, exMember, "operator", "Mohan");
  expect((await deleteJson(`/api/pumps/${deviceId}/members/${exMember.mobileNo}`, undefined, ownerToken)).status).toBe(
    200,
  );
  const invited = await invite(deviceId, { mobileNo: invitee.mobileNo, role: "operator", label: "Gopal" }, ownerToken);
  expect(invited.status).toBe(201);
  return { operator, viewer, exMember, invitee };
}
