// Fuzzing every HTTP route (docs/security.md, "Fuzzing"): thousands of generated bad inputs,
// sent as the caller each route is for, so that input validation and not authentication is
// what answers. For every input: never a 5xx (503 only where it means "the box is offline",
// as the API documents), every 4xx is `{ success: false, message, code }`, and an input the route
// must refuse is refused. For every route: D1, the hubs' storage and R2 are exactly as before.
//
// Whether an input is acceptable is decided by the route's own schemas (imported, never
// copied), and the path and query are read back by a one-route Hono app exactly as the API
// reads them. Inputs a route would accept are never sent to a route that writes.
//
// The route table below must name exactly the routes the router has: a new route fails
// "covers every route" until it is added here, and is fuzzed from then on.

import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { Hono } from "hono";
import { parseBody } from "hono/utils/body";
import { beforeAll, describe, expect, it } from "vitest";
import {
  adminMotorConfigRequestSchema,
  adminMotorLogsQuerySchema,
  auditQuerySchema,
  deleteUserRequestSchema,
  telephonyUsageQuerySchema,
  updateUserRoleRequestSchema,
  userIdSchema,
} from "../../../common/admin-schemas.ts";
import { saveAlertChannelsSchema } from "../../../common/alert-channel-schemas.ts";
import { parseAnswer, readJson } from "../../../common/api-client.ts";
import { firmwareUploadResponseSchema } from "../../../common/api-responses/admin.ts";
import { rechargeRequestResponseSchema } from "../../../common/api-responses/recharges.ts";
import { type ApiErrorBody, apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { scheduleResponseSchema } from "../../../common/api-responses/schedules.ts";
import {
  changePasswordRequestSchema,
  codeLoginRequestSchema,
  codeRequestSchema,
  deviceConfigRequestSchema,
  loginRequestSchema,
  mobileNoSchema,
  motorCommandRequestSchema,
  motorConfigRequestSchema,
  otaRequestSchema,
  paymentCheckoutRequestSchema,
  rechargeRequestSchema,
  rechargeStatusRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  verifyNumberRequestSchema,
} from "../../../common/api-schemas.ts";
import { MOBILE_NO_PATTERN } from "../../../common/constants.ts";
import { boxRegionRequestSchema, installerRequestSchema } from "../../../common/installer-schemas.ts";
import { PROTECTION_SETTINGS } from "../../../common/protection-changes.ts";
import {
  deviceIdSchema,
  memberChangeRequestSchema,
  memberInviteRequestSchema,
  pumpNameRequestSchema,
  pumpOtaRequestSchema,
  pumpPhoneStartRequestSchema,
  pumpSmsPinRequestSchema,
} from "../../../common/pump-schemas.ts";
import { endpointQuerySchema, saveSubscriptionSchema } from "../../../common/push-schemas.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../../common/schedule-schemas.ts";
import { formatClock } from "../../../common/schedule-time.ts";
import { z } from "../../../common/zod.ts";
import { ownerSchema, provisionSchema } from "../../../worker/api/admin/devices.ts";
import { MAX_FIRMWARE_BYTES, uploadSchema } from "../../../worker/api/admin/firmware.ts";
import { apiApp } from "../../../worker/api/app.ts";
import { firmwareIdSchema } from "../../../worker/api/device-socket.ts";
import { motorLogsQuery, powerLogsQuery } from "../../../worker/api/logs.ts";
import { rechargeIdSchema } from "../../../worker/api/recharges.ts";
import { pumpUsageQuery } from "../../../worker/api/usage.ts";
import { startSession } from "../../../worker/auth/sessions.ts";
import {
  baseSeed,
  brokenObject,
  d1Snapshot,
  extraKey,
  hubStorageSnapshot,
  hugeString,
  junkObject,
  malformedJson,
  nastyString,
  nonObjectJson,
  numericString,
  type Rows,
  seedFor,
  smallJson,
  toJsonText,
  weirdNumber,
} from "../fuzz-support.ts";
import { createUser, loginToken, type TestUser, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { api, getJson, ORIGIN, postJson } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import type { TestDevice } from "../helpers/sockets.ts";
import { basicAuth } from "../helpers/sockets.ts";

freshStorageForThisFile();

/** Generated inputs per route; 74 routes make 11,100. */
const RUNS_PER_ROUTE = 150;
const MIN_HTTP_INPUTS = 6_000;
/** readJsonBody refuses bodies longer than this (worker/api/input.ts). */
const MAX_JSON_BODY = 16 * 1024;
/** What a motor call answers while the box is offline (503, docs/architecture.md). */
const OFFLINE_MESSAGE = "Device is offline. Check its power and network, then try again.";
/** The two WebSocket upgrades: fuzzed frame by frame in tests/durable-objects/device-hub.fuzz.test.ts. */
const SOCKET_ROUTES = ["GET /api/device/connect", "GET /api/realtime"];

type Fixtures = {
  owner: TestUser;
  ownerDevice: TestDevice;
  ownerToken: string;
  other: TestUser;
  otherDevice: TestDevice;
  spareDevice: TestDevice;
  admin: TestUser;
  adminToken: string;
  scheduleId: number;
  /** Its minute of the IST day: another schedule at that minute is refused (409). */
  scheduleMinute: number;
  rechargeId: number;
  firmwareId: number;
  firmwareVersion: string;
  /** A number the owner let use their box (not registered): the member routes act on it only. */
  memberMobileNo: string;
};

/** Who sends the inputs. The logout callers get a fresh session per input: each call ends one. */
type Caller = "anonymous" | "owner" | "admin" | "device" | "ownerLogout" | "adminLogout";

/**
 * What the route does with an input it accepts. "write" routes change state, so they never
 * get an input they would act on (but do get valid ones naming nothing that exists: 404);
 * "read" routes get acceptable inputs too (and answer 2xx or 404); "device" routes need the
 * box, which stays offline: 503; "session" is logout, which reads no input and ends the
 * session each input brings (the one change allowed, see stateSnapshot).
 */
type Effect = "read" | "write" | "device" | "session";

/** The input as the route sees it: decoded path parameters, query (first value wins), body text. */
type Seen = { params: Record<string, string>; query: Record<string, string>; text: string; request: Request };

type Spec = {
  caller: Caller;
  effect: Effect;
  /** A value the route accepts for each path parameter, mixed in so other parts get the blame. */
  params?: Record<string, (f: Fixtures) => string>;
  query?: { template: Record<string, string>; fields: readonly string[] };
  body?: { template: (f: Fixtures) => Record<string, unknown>; fields: readonly string[] } | "multipart";
  /**
   * Would the route accept this input and go on to do its work (for a route that writes: would
   * it change something)? Decided by the route's own schemas and the fixtures that exist. Any
   * input it would not accept must get a 4xx.
   */
  accepts: (seen: Seen, f: Fixtures) => boolean | Promise<boolean>;
};

// ---- what a route accepts -------------------------------------------------------------------

/** readJsonBody's verdict (worker/api/input.ts): the parsed body, or undefined if refused. */
function jsonBody<T>(
  seen: Seen,
  schema: { safeParse: (data: unknown) => { success: boolean; data?: T } },
): T | undefined {
  if (seen.text.length > MAX_JSON_BODY) return undefined;
  let json: unknown;
  try {
    json = seen.text.length === 0 ? {} : JSON.parse(seen.text);
  } catch {
    return undefined;
  }
  const result = schema.safeParse(json);
  return result.success ? result.data : undefined;
}

const ok = (schema: { safeParse: (data: unknown) => { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

/** The parsed value, or undefined when the schema refuses it. */
function parsed<T>(
  schema: { safeParse: (data: unknown) => { success: boolean; data?: T } },
  value: unknown,
): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Every account of this file, and every device: the routes that write find nothing else. */
const userNumbers = (f: Fixtures) => [f.owner.mobileNo, f.other.mobileNo, f.admin.mobileNo];
const userIds = (f: Fixtures) => [f.owner.id, f.other.id, f.admin.id];
const deviceIds = (f: Fixtures) => [f.ownerDevice.deviceId, f.otherDevice.deviceId, f.spareDevice.deviceId];

/** The `{mobileNo}` is the caller's own (anything else is a 400 or a 403). */
function ownNumber(value: string | undefined, f: Fixtures): boolean {
  const parsed = mobileNoSchema.safeParse(value);
  return parsed.success && parsed.data === f.owner.mobileNo;
}

const motorConfigTemplate = {
  defaultCurrent: 9,
  dryRunThreshold: 30,
  overCurrentThreshold: 30,
  underVoltage: 340,
  overVoltage: 460,
  voltageUnbalance: 6,
};
const motorConfigFields = [...PROTECTION_SETTINGS, "token"] as const;
const scheduleTemplate = { time: "6:30 AM", action: "ON", repeat: "daily", durationMinutes: 30 };
const scheduleFields = ["time", "action", "repeat", "durationMinutes"] as const;
const pushEndpoint = "https://push.invalid/none";
const pushSubscriptionTemplate = {
  subscription: { endpoint: pushEndpoint, keys: { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) } },
  kinds: ["dryRun", "phase"],
  language: "hi",
};

// ---- every route ------------------------------------------------------------------------------

/**
 * A route of the owner's own number (`:mobileNo`, the owner calling): it accepts the owner's
 * number only, and then what `alsoAccepts` accepts of the rest of the input.
 */
function ownNumberRoute(
  effect: Effect,
  input: Pick<Spec, "query" | "body"> = {},
  alsoAccepts: (seen: Seen) => boolean = () => true,
): Spec {
  return {
    caller: "owner",
    effect,
    params: { mobileNo: (f) => f.owner.mobileNo },
    ...input,
    accepts: (seen, f) => ownNumber(seen.params.mobileNo, f) && alsoAccepts(seen),
  };
}

/**
 * A route of the owner's box by its id (`:deviceId`, the owner calling): it acts on that box
 * only (the other boxes are not theirs: 404), and then on what `alsoAccepts` accepts.
 */
function ownPumpRoute(
  effect: Effect,
  input: Pick<Spec, "query" | "body"> & { params?: Record<string, (f: Fixtures) => string> } = {},
  alsoAccepts: (seen: Seen, f: Fixtures) => boolean = () => true,
): Spec {
  return {
    caller: "owner",
    effect,
    ...input,
    params: { deviceId: (f) => f.ownerDevice.deviceId, ...input.params },
    accepts: (seen, f) =>
      parsed(deviceIdSchema, seen.params.deviceId) === f.ownerDevice.deviceId && alsoAccepts(seen, f),
  };
}

const memberTemplate = (f: Fixtures) => ({ mobileNo: f.memberMobileNo, role: "viewer", label: "Sita" });
const memberFields = ["mobileNo", "role", "label"] as const;
/** The member the fixtures made: the change and removal routes act on that number only. */
const isMember = (seen: Seen, f: Fixtures) => parsed(mobileNoSchema, seen.params.mobileNo) === f.memberMobileNo;

/**
 * A telephony provider's webhook, as a stranger sends it: none of these inputs is signed, so the
 * route accepts none (telephony-webhooks.test.ts sends signed ones).
 */
const telephonyWebhook: Spec = {
  caller: "anonymous",
  effect: "write",
  params: { provider: () => "twilio", kind: () => "keypress" },
  query: { template: { lang: "hi", ref: "stop:SNC-AB12CD34", at: "1" }, fields: ["lang", "ref", "at"] },
  body: { template: () => ({ CallSid: "CA1", Digits: "1" }), fields: ["CallSid", "Digits", "AccountSid"] },
  accepts: () => false,
};

const ROUTES: Record<string, Spec> = {
  "GET /api/pumps": { caller: "owner", effect: "read", accepts: () => true },
  "GET /api/pumps/:deviceId/status": ownPumpRoute("read"),
  "POST /api/pumps/:deviceId/motor": ownPumpRoute(
    "device",
    { body: { template: () => ({ action: "on" }), fields: ["action", "token"] } },
    (seen) => jsonBody(seen, motorCommandRequestSchema) !== undefined,
  ),
  "POST /api/pumps/:deviceId/config": ownPumpRoute(
    "write",
    { body: { template: () => motorConfigTemplate, fields: motorConfigFields } },
    (seen) => jsonBody(seen, motorConfigRequestSchema) !== undefined,
  ),
  "POST /api/pumps/:deviceId/power": ownPumpRoute("device"),
  "POST /api/pumps/:deviceId/health": ownPumpRoute("device"),
  "POST /api/pumps/:deviceId/ask-again": ownPumpRoute("device"),
  "POST /api/pumps/:deviceId/ota": ownPumpRoute(
    "device", // the wifi image exists: an acceptable input reaches the offline box
    { body: { template: () => ({ deviceType: "wifi" }), fields: ["deviceType"] } },
    (seen) => jsonBody(seen, pumpOtaRequestSchema) !== undefined,
  ),
  "PUT /api/pumps/:deviceId/name": ownPumpRoute(
    "write",
    { body: { template: () => ({ name: "कुएँ वाला पंप" }), fields: ["name"] } },
    (seen) => jsonBody(seen, pumpNameRequestSchema) !== undefined,
  ),
  "PUT /api/pumps/:deviceId/phone-start": ownPumpRoute(
    "write",
    { body: { template: () => ({ enabled: false }), fields: ["enabled"] } },
    (seen) => jsonBody(seen, pumpPhoneStartRequestSchema) !== undefined,
  ),
  "PUT /api/pumps/:deviceId/sms-pin": ownPumpRoute(
    "write",
    { body: { template: () => ({ pin: "2468" }), fields: ["pin"] } },
    (seen) => jsonBody(seen, pumpSmsPinRequestSchema) !== undefined,
  ),
  "GET /api/pumps/:deviceId/logs": ownPumpRoute(
    "read",
    { query: { template: { limit: "20", before: "5" }, fields: ["limit", "before"] } },
    (seen) => ok(motorLogsQuery, seen.query),
  ),
  "GET /api/pumps/:deviceId/usage": ownPumpRoute(
    "read",
    { query: { template: { days: "30", format: "csv" }, fields: ["days", "format"] } },
    (seen) => ok(pumpUsageQuery, seen.query),
  ),
  "GET /api/pumps/:deviceId/schedules": ownPumpRoute("read"),
  "POST /api/pumps/:deviceId/schedules": ownPumpRoute(
    "write",
    { body: { template: () => scheduleTemplate, fields: scheduleFields } },
    (seen, f) => {
      const body = jsonBody(seen, scheduleRequestSchema);
      return body !== undefined && body.minuteOfDay !== f.scheduleMinute; // the fixture's minute: 409
    },
  ),
  "PUT /api/pumps/:deviceId/schedules/:id": ownPumpRoute(
    "write",
    { params: { id: (f) => String(f.scheduleId) }, body: { template: () => scheduleTemplate, fields: scheduleFields } },
    (seen, f) =>
      parsed(scheduleIdSchema, seen.params.id) === f.scheduleId && jsonBody(seen, scheduleRequestSchema) !== undefined,
  ),
  "DELETE /api/pumps/:deviceId/schedules/:id": ownPumpRoute(
    "write",
    { params: { id: (f) => String(f.scheduleId) } },
    (seen, f) => parsed(scheduleIdSchema, seen.params.id) === f.scheduleId,
  ),
  // The owner has no invitation to answer, on their box or any other: every input is refused.
  "POST /api/pumps/:deviceId/invitation": {
    caller: "owner",
    effect: "write",
    params: { deviceId: (f) => f.otherDevice.deviceId },
    body: { template: () => ({ answer: "accept" }), fields: ["answer"] },
    accepts: () => false,
  },
  "GET /api/pumps/:deviceId/members": ownPumpRoute("read"),
  "GET /api/pumps/:deviceId/installation": ownPumpRoute("read"),
  "POST /api/pumps/:deviceId/installation/seen": ownPumpRoute("write"),
  // The owner is no installer: every input is refused (installer-visits.test.ts calls them as one).
  "GET /api/installer/boxes": { caller: "owner", effect: "read", accepts: () => false },
  "POST /api/installer/claims": {
    caller: "owner",
    effect: "write",
    body: {
      template: (f) => ({
        deviceId: f.ownerDevice.deviceId,
        claimCode: "2222222222",
        farmerMobileNo: f.owner.mobileNo,
      }),
      fields: ["deviceId", "claimCode", "farmerMobileNo"],
    },
    accepts: () => false,
  },
  "POST /api/installer/claims/confirm": {
    caller: "owner",
    effect: "write",
    body: {
      template: (f) => ({ deviceId: f.ownerDevice.deviceId, farmerMobileNo: f.owner.mobileNo, code: "123456" }),
      fields: ["deviceId", "farmerMobileNo", "code"],
    },
    accepts: () => false,
  },
  "POST /api/installer/boxes/:deviceId/supply": {
    caller: "owner",
    effect: "write",
    params: { deviceId: (f) => f.ownerDevice.deviceId },
    accepts: () => false,
  },
  "POST /api/installer/boxes/:deviceId/test-run": {
    caller: "owner",
    effect: "write",
    params: { deviceId: (f) => f.ownerDevice.deviceId },
    body: { template: () => ({ seconds: 5 }), fields: ["seconds"] },
    accepts: () => false,
  },
  "POST /api/installer/boxes/:deviceId/dry-run-check": {
    caller: "owner",
    effect: "write",
    params: { deviceId: (f) => f.ownerDevice.deviceId },
    body: { template: () => ({ seconds: 30 }), fields: ["seconds"] },
    accepts: () => false,
  },
  "POST /api/installer/boxes/:deviceId/commissioning": {
    caller: "owner",
    effect: "write",
    params: { deviceId: (f) => f.ownerDevice.deviceId },
    body: {
      template: () => ({ defaultCurrent: 8.9, dryRunThreshold: 30, overCurrentThreshold: 30, feeder: "Rampur" }),
      fields: ["defaultCurrent", "dryRunThreshold", "overCurrentThreshold", "feeder"],
    },
    accepts: () => false,
  },
  "POST /api/installer/boxes/:deviceId/hand-over": {
    caller: "owner",
    effect: "write",
    params: { deviceId: (f) => f.ownerDevice.deviceId },
    accepts: () => false,
  },
  "POST /api/pumps/:deviceId/members": ownPumpRoute(
    "write",
    { body: { template: memberTemplate, fields: memberFields } },
    (seen, f) => {
      const body = jsonBody(seen, memberInviteRequestSchema);
      // The owner's own number: 400; a number already in: 409.
      return body !== undefined && ![f.owner.mobileNo, f.memberMobileNo].includes(body.mobileNo);
    },
  ),
  "PUT /api/pumps/:deviceId/members/:mobileNo": ownPumpRoute(
    "write",
    {
      params: { mobileNo: (f) => f.memberMobileNo },
      body: { template: () => ({ role: "operator", label: "Ram" }), fields: ["role", "label"] },
    },
    (seen, f) => isMember(seen, f) && jsonBody(seen, memberChangeRequestSchema) !== undefined,
  ),
  "DELETE /api/pumps/:deviceId/members/:mobileNo": ownPumpRoute(
    "write",
    { params: { mobileNo: (f) => f.memberMobileNo } },
    isMember,
  ),
  "GET /api/health": { caller: "anonymous", effect: "read", accepts: () => true },
  // Takes no input; with no notice pending (the fixtures' hubs confirmed theirs) it changes nothing.
  "POST /api/hub-notices": { caller: "anonymous", effect: "read", accepts: () => true },
  "GET /api/telephony/:provider/:kind": telephonyWebhook,
  "POST /api/telephony/:provider/:kind": telephonyWebhook,
  "POST /api/auth/register": {
    caller: "anonymous",
    effect: "write",
    body: {
      template: () => ({ mobileNo: "9123456789", password: "a long enough passphrase" }),
      fields: ["mobileNo", "password"],
    },
    accepts: (seen) => jsonBody(seen, registerRequestSchema) !== undefined,
  },
  "POST /api/auth/login": {
    caller: "anonymous",
    effect: "write", // a valid login attempt counts towards the throttle
    body: {
      template: (f) => ({ mobileNo: f.owner.mobileNo, password: "wrong password" }),
      fields: ["mobileNo", "password"],
    },
    accepts: (seen) => jsonBody(seen, loginRequestSchema) !== undefined,
  },
  "POST /api/admin/login": {
    caller: "anonymous",
    effect: "write",
    body: {
      template: (f) => ({ mobileNo: f.admin.mobileNo, password: "wrong password" }),
      fields: ["mobileNo", "password"],
    },
    accepts: (seen) => jsonBody(seen, loginRequestSchema) !== undefined,
  },
  // A code accepted for any number is a row in D1 (and perhaps an SMS): never sent one it accepts.
  "POST /api/auth/codes": {
    caller: "anonymous",
    effect: "write",
    body: { template: (f) => ({ purpose: "signIn", mobileNo: f.owner.mobileNo }), fields: ["purpose", "mobileNo"] },
    accepts: (seen) => jsonBody(seen, codeRequestSchema) !== undefined,
  },
  "POST /api/auth/verify-number": {
    caller: "owner",
    effect: "write",
    body: { template: () => ({ code: "123456" }), fields: ["code"] },
    accepts: (seen) => jsonBody(seen, verifyNumberRequestSchema) !== undefined,
  },
  "POST /api/auth/login-code": {
    caller: "anonymous",
    effect: "write", // a well-formed code counts a try, and the address's throttle
    body: { template: (f) => ({ mobileNo: f.owner.mobileNo, code: "123456" }), fields: ["mobileNo", "code"] },
    accepts: (seen) => jsonBody(seen, codeLoginRequestSchema) !== undefined,
  },
  "POST /api/auth/reset-password": {
    caller: "anonymous",
    effect: "write",
    body: {
      template: (f) => ({ mobileNo: f.owner.mobileNo, code: "123456", newPassword: "a long enough passphrase" }),
      fields: ["mobileNo", "code", "newPassword"],
    },
    accepts: (seen) => jsonBody(seen, resetPasswordRequestSchema) !== undefined,
  },
  "POST /api/auth/logout": { caller: "ownerLogout", effect: "session", accepts: () => true },
  "POST /api/auth/change-password": {
    caller: "owner",
    effect: "write",
    body: {
      template: () => ({ currentPassword: "wrong password", newPassword: "a long enough passphrase" }),
      fields: ["currentPassword", "newPassword"],
    },
    accepts: (seen) => jsonBody(seen, changePasswordRequestSchema) !== undefined,
  },
  "POST /api/admin/logout": { caller: "adminLogout", effect: "session", accepts: () => true },
  "POST /api/devices/motor": {
    caller: "owner",
    effect: "device",
    body: { template: () => ({ action: "on" }), fields: ["action", "token"] },
    accepts: (seen) => jsonBody(seen, motorCommandRequestSchema) !== undefined,
  },
  "GET /api/devices/motor/status/:mobileNo": ownNumberRoute("read"),
  "POST /api/devices/motor/config/:mobileNo": ownNumberRoute(
    "write",
    { body: { template: () => motorConfigTemplate, fields: motorConfigFields } },
    (seen) => jsonBody(seen, motorConfigRequestSchema) !== undefined,
  ),
  "POST /api/devices/motor/power/:mobileNo": ownNumberRoute("device"),
  "POST /api/devices/motor/health/:mobileNo": ownNumberRoute("device"),
  "GET /api/logs/motor/:mobileNo": ownNumberRoute(
    "read",
    { query: { template: { limit: "20", before: "5" }, fields: ["limit", "before"] } },
    (seen) => ok(motorLogsQuery, seen.query),
  ),
  "GET /api/logs/power/:mobileNo": ownNumberRoute(
    "read",
    { query: { template: { limit: "100" }, fields: ["limit"] } },
    (seen) => ok(powerLogsQuery, seen.query),
  ),
  "POST /api/mqtt/ota": {
    caller: "owner",
    effect: "device", // the wifi image exists: an acceptable input reaches the offline box
    body: { template: (f) => ({ mobileNo: f.owner.mobileNo, deviceType: "wifi" }), fields: ["mobileNo", "deviceType"] },
    accepts: (seen, f) => {
      const body = jsonBody(seen, otaRequestSchema);
      return body !== undefined && body.mobileNo === f.owner.mobileNo;
    },
  },
  "POST /api/recharge/request": {
    caller: "owner",
    effect: "write",
    body: {
      template: (f) => ({ mobileNo: f.owner.mobileNo, plan: "1month", paymentMethod: "upi", amount: 1 }),
      fields: ["mobileNo", "plan", "paymentMethod", "amount"],
    },
    accepts: (seen, f) => {
      const body = jsonBody(seen, rechargeRequestSchema);
      return body !== undefined && (body.mobileNo === undefined || body.mobileNo === f.owner.mobileNo); // another number: 403
    },
  },
  "GET /api/recharge/requests": { caller: "owner", effect: "read", accepts: () => true },
  // A valid plan opens a checkout at the gateway (the tests' local gateway, tests/payments-outbound.ts).
  "POST /api/payments/checkout": {
    caller: "owner",
    effect: "write",
    body: { template: () => ({ plan: "1month", amount: 1 }), fields: ["plan", "pump", "amount"] },
    accepts: (seen) => {
      const body = jsonBody(seen, paymentCheckoutRequestSchema);
      return body !== undefined && body.pump === undefined; // a box that is not the owner's: 404
    },
  },
  "GET /api/payments": { caller: "owner", effect: "read", accepts: () => true },
  "GET /api/payments/:id": {
    caller: "owner",
    effect: "read",
    params: { id: () => "999999999" },
    accepts: () => false, // no payment of the owner's has that id: 404
  },
  // Only a body signed with the webhook secret is read (tests/integration/payments-against-worker.test.ts sends them).
  "POST /api/payments/razorpay/webhook": {
    caller: "anonymous",
    effect: "write",
    body: {
      template: () => ({ entity: "event", event: "payment.captured", payload: {} }),
      fields: ["entity", "event", "payload"],
    },
    accepts: () => false,
  },
  "GET /api/recharge/plan": { caller: "owner", effect: "read", accepts: () => true },
  "PUT /api/recharge/status/:id": {
    caller: "admin",
    effect: "write",
    params: { id: (f) => String(f.rechargeId) },
    body: { template: () => ({ status: "paid" }), fields: ["status"] },
    accepts: (seen, f) =>
      parsed(rechargeIdSchema, seen.params.id) === f.rechargeId &&
      jsonBody(seen, rechargeStatusRequestSchema) !== undefined,
  },
  "DELETE /api/recharge/:id": {
    caller: "admin",
    effect: "write",
    params: { id: (f) => String(f.rechargeId) },
    accepts: (seen, f) => parsed(rechargeIdSchema, seen.params.id) === f.rechargeId, // any other id: 404
  },
  "GET /api/schedule": { caller: "owner", effect: "read", accepts: () => true },
  "POST /api/schedule": {
    caller: "owner",
    effect: "write",
    body: { template: () => scheduleTemplate, fields: scheduleFields },
    accepts: (seen, f) => {
      const body = jsonBody(seen, scheduleRequestSchema);
      return body !== undefined && body.minuteOfDay !== f.scheduleMinute; // the fixture's minute: 409
    },
  },
  "PUT /api/schedule/:id": {
    caller: "owner",
    effect: "write",
    params: { id: (f) => String(f.scheduleId) },
    body: { template: () => scheduleTemplate, fields: scheduleFields },
    accepts: (seen, f) =>
      parsed(scheduleIdSchema, seen.params.id) === f.scheduleId && jsonBody(seen, scheduleRequestSchema) !== undefined,
  },
  "DELETE /api/schedule/:id": {
    caller: "owner",
    effect: "write",
    params: { id: (f) => String(f.scheduleId) },
    accepts: (seen, f) => parsed(scheduleIdSchema, seen.params.id) === f.scheduleId,
  },
  "GET /api/push/subscriptions": {
    caller: "owner",
    effect: "read",
    query: { template: { endpoint: pushEndpoint }, fields: ["endpoint"] },
    accepts: (seen) => ok(endpointQuerySchema, seen.query),
  },
  "PUT /api/push/subscriptions": {
    caller: "owner",
    effect: "write",
    body: { template: () => pushSubscriptionTemplate, fields: ["subscription", "kinds", "language"] },
    accepts: (seen) => jsonBody(seen, saveSubscriptionSchema) !== undefined,
  },
  // No browser of this file subscribed: even a valid address names nothing (404), so these
  // routes accept no input, and every one must be refused.
  "DELETE /api/push/subscriptions": {
    caller: "owner",
    effect: "write",
    body: { template: () => ({ endpoint: pushEndpoint }), fields: ["endpoint"] },
    accepts: () => false,
  },
  "POST /api/push/subscriptions/renew": {
    caller: "owner",
    effect: "write",
    body: {
      template: () => ({ oldEndpoint: pushEndpoint, subscription: pushSubscriptionTemplate.subscription }),
      fields: ["oldEndpoint", "subscription"],
    },
    accepts: () => false,
  },
  "POST /api/push/test": {
    caller: "owner",
    effect: "write",
    body: { template: () => ({ endpoint: pushEndpoint }), fields: ["endpoint"] },
    accepts: () => false,
  },
  "GET /api/alerts/channels": { caller: "owner", effect: "read", accepts: () => true },
  // The owner's number is not verified here: only "app" choices are taken.
  "PUT /api/alerts/channels": {
    caller: "owner",
    effect: "write",
    body: {
      template: () => ({ channels: { dryRun: "app", powerBack: "app" }, language: "hi" }),
      fields: ["channels", "language"],
    },
    accepts: (seen) => {
      const body = jsonBody(seen, saveAlertChannelsSchema);
      return (
        body !== undefined &&
        Object.values(body.channels).every((channel) => channel === undefined || channel === "app")
      );
    },
  },
  "GET /api/device/firmware/:id": {
    caller: "device",
    effect: "read",
    params: { id: (f) => String(f.firmwareId) },
    accepts: (seen) => ok(firmwareIdSchema, seen.params.id),
  },
  "GET /api/admin/dashboard-stats": { caller: "admin", effect: "read", accepts: () => true },
  "GET /api/admin/telephony-usage": {
    caller: "admin",
    effect: "read",
    query: { template: { month: "2026-11" }, fields: ["month"] },
    accepts: (seen) => ok(telephonyUsageQuerySchema, seen.query),
  },
  "GET /api/admin/device-statuses": { caller: "admin", effect: "read", accepts: () => true },
  "GET /api/admin/devices": { caller: "admin", effect: "read", accepts: () => true },
  "POST /api/admin/devices": {
    caller: "admin",
    effect: "write",
    body: { template: (f) => ({ kind: "3phase", ownerMobileNo: f.other.mobileNo }), fields: ["kind", "ownerMobileNo"] },
    accepts: (seen, f) => {
      const body = jsonBody(seen, provisionSchema);
      // Any registered number may own one more box; a number nobody registered is a 404.
      return body !== undefined && (body.ownerMobileNo === undefined || userNumbers(f).includes(body.ownerMobileNo));
    },
  },
  "GET /api/admin/devices/:id/hub-stats": {
    caller: "admin",
    effect: "read",
    params: { id: (f) => f.ownerDevice.deviceId },
    accepts: (seen) => ok(deviceIdSchema, seen.params.id),
  },
  "POST /api/admin/devices/:id/rotate-key": {
    caller: "admin",
    effect: "write",
    params: { id: (f) => f.spareDevice.deviceId },
    accepts: (seen, f) => deviceIds(f).includes(parsed(deviceIdSchema, seen.params.id) ?? ""),
  },
  "PUT /api/admin/devices/:id/owner": {
    caller: "admin",
    effect: "write",
    params: { id: (f) => f.spareDevice.deviceId },
    body: { template: () => ({ mobileNo: null }), fields: ["mobileNo"] },
    accepts: (seen, f) =>
      deviceIds(f).includes(parsed(deviceIdSchema, seen.params.id) ?? "") && jsonBody(seen, ownerSchema) !== undefined,
  },
  "GET /api/admin/firmware": { caller: "admin", effect: "read", accepts: () => true },
  "POST /api/admin/firmware": {
    caller: "admin",
    effect: "write",
    body: "multipart",
    accepts: async (seen, f) => {
      if (!seen.request.headers.get("Content-Type")?.startsWith("multipart/form-data")) return false;
      let form: unknown;
      try {
        form = await parseBody(seen.request.clone());
      } catch {
        return false;
      }
      const upload = uploadSchema.safeParse(form);
      if (!upload.success) return false;
      const { deviceType, version, file } = upload.data;
      if (file.size === 0 || file.size > MAX_FIRMWARE_BYTES) return false;
      return !(deviceType === "wifi" && version === f.firmwareVersion); // that one exists: 409
    },
  },
  "PUT /api/admin/device-config": {
    caller: "admin",
    effect: "write",
    body: {
      template: (f) => ({ mobileNo: f.owner.mobileNo, newMobile: "9999999999" }),
      fields: ["mobileNo", "newMobile", "debug"],
    },
    accepts: (seen, f) => {
      const body = jsonBody(seen, deviceConfigRequestSchema);
      if (body === undefined) return false;
      if (body.mobileNo !== f.owner.mobileNo && body.mobileNo !== f.other.mobileNo) return false; // no device: 404
      if ("debug" in body) return true;
      // The route checks the new number itself: a number, not the same, nobody else's (400, 409).
      const newMobile = body.newMobile.trim();
      return MOBILE_NO_PATTERN.test(newMobile) && newMobile !== body.mobileNo && !userNumbers(f).includes(newMobile);
    },
  },
  "GET /api/admin/motor-config-history/:mobileNo": {
    caller: "admin",
    effect: "read",
    params: { mobileNo: (f) => f.owner.mobileNo },
    accepts: (seen) => ok(mobileNoSchema, seen.params.mobileNo),
  },
  "GET /api/admin/audit": {
    caller: "admin",
    effect: "read",
    query: {
      template: { page: "1", limit: "20", adminId: "1", target: "x" },
      fields: ["page", "limit", "adminId", "target"],
    },
    accepts: (seen) => ok(auditQuerySchema, seen.query),
  },
  "GET /api/admin/motor-logs": {
    caller: "admin",
    effect: "read",
    // One farmer or one box, never both or neither; an unknown one is a 404.
    query: { template: { deviceId: "SNC-AB23CD45", before: "5" }, fields: ["mobileNo", "deviceId", "before"] },
    accepts: (seen) => ok(adminMotorLogsQuerySchema, seen.query),
  },
  "GET /api/admin/recharge-requests": { caller: "admin", effect: "read", accepts: () => true },
  "GET /api/admin/payments": { caller: "admin", effect: "read", accepts: () => true },
  "GET /api/admin/payments/:id": {
    caller: "admin",
    effect: "read",
    params: { id: () => "999999999" },
    accepts: () => false, // no payment has that id: 404
  },
  "GET /api/admin/installers": { caller: "admin", effect: "read", accepts: () => true },
  "POST /api/admin/installers": {
    caller: "admin",
    effect: "write",
    body: { template: (f) => ({ mobileNo: f.other.mobileNo, name: "Ramesh" }), fields: ["mobileNo", "name"] },
    accepts: (seen, f) => userNumbers(f).includes(jsonBody(seen, installerRequestSchema)?.mobileNo ?? ""),
  },
  // Nobody in the fixtures is an installer: every input is refused.
  "POST /api/admin/installers/:userId/stock": {
    caller: "admin",
    effect: "write",
    params: { userId: (f) => String(f.other.id) },
    body: { template: (f) => ({ deviceIds: [f.ownerDevice.deviceId] }), fields: ["deviceIds"] },
    accepts: () => false,
  },
  "DELETE /api/admin/installers/:userId/stock": {
    caller: "admin",
    effect: "write",
    params: { userId: (f) => String(f.other.id) },
    body: { template: (f) => ({ deviceIds: [f.ownerDevice.deviceId] }), fields: ["deviceIds"] },
    accepts: () => false,
  },
  "PUT /api/admin/installers/:userId/region": {
    caller: "admin",
    effect: "write",
    params: { userId: (f) => String(f.other.id) },
    body: { template: () => ({ region: "barabanki" }), fields: ["region"] },
    accepts: () => false,
  },
  // Tags only boxes waiting for a farmer: any well-formed body is accepted (and never sent).
  "PUT /api/admin/box-regions": {
    caller: "admin",
    effect: "write",
    body: {
      template: (f) => ({ deviceIds: [f.ownerDevice.deviceId], region: "sitapur" }),
      fields: ["deviceIds", "region"],
    },
    accepts: (seen) => jsonBody(seen, boxRegionRequestSchema) !== undefined,
  },
  "GET /api/admin/user/:id": {
    caller: "admin",
    effect: "read",
    params: { id: (f) => String(f.owner.id) },
    accepts: (seen) => ok(userIdSchema, seen.params.id),
  },
  "GET /api/admin/users": { caller: "admin", effect: "read", accepts: () => true },
  // Reads no body: any input naming an account of this file would send its number a code, so
  // the id mixed in names none (404) and only the generated ids are tried.
  "POST /api/admin/users/:id/sign-in-code": {
    caller: "admin",
    effect: "write",
    params: { id: () => "999999999" },
    accepts: (seen, f) => userIds(f).includes(parsed(userIdSchema, seen.params.id) ?? 0),
  },
  "PUT /api/admin/update-motor-config": {
    caller: "admin",
    effect: "write",
    body: {
      template: (f) => ({ mobileNo: f.owner.mobileNo, ...motorConfigTemplate }),
      fields: ["mobileNo", ...motorConfigFields],
    },
    accepts: (seen, f) => userNumbers(f).includes(jsonBody(seen, adminMotorConfigRequestSchema)?.mobileNo ?? ""),
  },
  "PUT /api/admin/update-user-role": {
    caller: "admin",
    effect: "write",
    body: { template: (f) => ({ userId: f.other.id, isAdmin: true }), fields: ["userId", "isAdmin"] },
    accepts: (seen, f) => userIds(f).includes(jsonBody(seen, updateUserRoleRequestSchema)?.userId ?? 0),
  },
  "DELETE /api/admin/delete-user": {
    caller: "admin",
    effect: "write",
    body: { template: (f) => ({ mobileNo: f.other.mobileNo }), fields: ["mobileNo"] },
    accepts: (seen, f) => {
      const mobileNo = jsonBody(seen, deleteUserRequestSchema)?.mobileNo;
      return mobileNo === f.owner.mobileNo || mobileNo === f.other.mobileNo; // unknown: 404; the caller's own: 409
    },
  },
};

// ---- generated requests ------------------------------------------------------------------------

type BodySpec = { text: string } | { bytes: number[] } | { form: FormSpec } | null;
type FormSpec = {
  deviceType?: string;
  version?: string;
  file?: { bytes: number[] } | { oversized: true } | { text: string };
  extra: [string, string][];
};
type HttpCase = { path: string; query: [string, string][]; contentType: string | null; body: BodySpec };

/** encodeURIComponent, which throws on lone surrogates: those go as U+FFFD, as a browser sends them. */
function encodeComponent(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(new TextDecoder().decode(new TextEncoder().encode(text)));
  }
}

/** Path segments: garbage, numbers in disguise, near-miss numbers and ids, dot segments, bad escapes. */
const badSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: nastyString.map(encodeComponent) },
  { weight: 3, arbitrary: numericString.map(encodeComponent) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.stringMatching(/^[0-9]{1,15}$/),
        fc.constantFrom(
          "0987654321",
          "+919876543210",
          "98765 43210",
          "98765-43210",
          "９８７６５４３２１０",
          "987654321",
          "98765432100",
          " 9876543210 ",
        ),
      )
      .map(encodeComponent),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        fc.stringMatching(/^SNC-[0-9A-Z]{6,10}$/),
        fc.stringMatching(/^SNC-[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{8}$/), // well-formed, but no such device
        fc.constantFrom(
          "SNC-00000000",
          "SNC-11111111",
          "snc-abcdefgh",
          "SNC-ABCDEFG",
          "SNC-ABCDEFGHJ",
          "SNC_ABCDEFGH",
          "SNC-ABCDEFGI",
          " SNC-ABCDEFGH",
        ),
      )
      .map(encodeComponent),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ".",
      "..",
      "%2e",
      "%2E%2E",
      "%",
      "%zz",
      "%E0%A4%A",
      "%00",
      "%2F",
      "%252F",
      "~",
      "!$&'()*+,;=:@",
      "%C0%AE",
      "%uFFFF",
    ),
  },
);

const queryValue: fc.Arbitrary<string> = fc.oneof(
  numericString,
  nastyString,
  weirdNumber.map((value) => toJsonText(value)),
);

/** Junk query parameters: any route must ignore or refuse them. */
function junkQuery(fields: readonly string[]): fc.Arbitrary<[string, string][]> {
  const key = fields.length ? fc.oneof(fc.constantFrom(...fields), extraKey) : extraKey;
  return fc.array(fc.tuple(key, queryValue), { maxLength: 4 });
}

/** A valid query with something broken; a repeated key goes first or last (the first one counts). */
function brokenQuery(template: Record<string, string>, fields: readonly string[]): fc.Arbitrary<[string, string][]> {
  return fc
    .tuple(
      fc.array(fc.tuple(fc.constantFrom(...fields), queryValue), { minLength: 1, maxLength: 3 }),
      fc.constantFrom("replace", "before", "after", "drop"),
    )
    .map(([changes, how]) => {
      const base = Object.entries(template);
      if (how === "drop") return base.filter(([key]) => !changes.some(([changed]) => changed === key));
      if (how === "before") return [...changes, ...base];
      if (how === "after") return [...base, ...changes];
      const replaced = new Map(base);
      for (const [key, value] of changes) replaced.set(key, value);
      return [...replaced];
    });
}

const CONTENT_TYPES: (string | null)[] = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  null,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
  "application/xml",
  "application/octet-stream",
  "",
  "application/json; charset=utf-16",
  "*/*",
  "json",
];

/** JSON bodies for a route that reads one: mostly a valid body with something broken. */
function badJsonBody(template: Record<string, unknown>, fields: readonly string[]): fc.Arbitrary<BodySpec> {
  const validText = toJsonText(template);
  return fc.oneof(
    { weight: 10, arbitrary: brokenObject(template, fields).map((value) => ({ text: toJsonText(value) })) },
    { weight: 3, arbitrary: junkObject(fields).map((value) => ({ text: toJsonText(value) })) },
    { weight: 2, arbitrary: malformedJson(validText).map((text) => ({ text })) },
    { weight: 1, arbitrary: nonObjectJson.map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.constant({ text: "" }) },
    {
      // Valid fields, but past the size limit: 413.
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: MAX_JSON_BODY + 1, max: 200_000 }), fc.constantFrom("x", "é", "😀"))
        .map(([length, unit]) => ({ text: toJsonText({ ...template, padding: unit.repeat(length) }) })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ bytes: [...bytes] })) },
  );
}

/** A body on a route that reads none: it must be ignored. */
const ignoredBody: fc.Arbitrary<BodySpec> = fc.oneof(
  fc.constant(null),
  smallJson.map((value) => ({ text: JSON.stringify(value) })),
  malformedJson("{}").map((text) => ({ text })),
  hugeString.map((text) => ({ text })),
);

const formText = fc.oneof(
  nastyString,
  fc.constantFrom("wifi", "sim", "1.0.0", "2.0.0-rc.1"),
  fc.stringMatching(/^[0-9A-Za-z][0-9A-Za-z._-]{0,40}$/),
);

/** Firmware uploads: forms with a field missing, wrong, empty or too big, and bodies that are no form. */
const firmwareBody: fc.Arbitrary<{ contentType: string | null; body: BodySpec }> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        deviceType: fc.option(formText, { nil: undefined }),
        version: fc.option(formText, { nil: undefined }),
        file: fc.option(
          fc.oneof(
            { weight: 4, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes: [...bytes] })) },
            { weight: 1, arbitrary: fc.constant({ oversized: true as const }) },
            { weight: 2, arbitrary: nastyString.map((text) => ({ text })) },
          ),
          { nil: undefined },
        ),
        // workerd cannot write a form field whose name ends with a backslash (a client limit).
        extra: fc.array(
          fc.tuple(
            extraKey.filter((key) => !key.endsWith("\\")),
            nastyString,
          ),
          { maxLength: 2 },
        ),
      })
      .map((form) => ({ contentType: null, body: { form } })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...CONTENT_TYPES),
        badJsonBody({ deviceType: "wifi", version: "9.9.9" }, ["deviceType", "version", "file"]),
      )
      .map(([contentType, body]) => ({ contentType, body })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("multipart/form-data; boundary=fuzz", "multipart/form-data", "multipart/form-data; boundary="),
        fc.oneof(nastyString, malformedJson("--fuzz\r\n")),
      )
      .map(([contentType, text]) => ({ contentType, body: { text } })),
  },
);

function caseArbitrary(route: string, spec: Spec, f: Fixtures): fc.Arbitrary<HttpCase> {
  const [method, pattern] = route.split(" ") as [string, string];
  const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const segments = names.map((name) => {
    const valid = spec.params?.[name];
    if (!valid) throw new Error(`${route}: no valid value for :${name}`);
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant(encodeComponent(valid(f))) },
      { weight: 3, arbitrary: badSegment },
    );
  });
  const path = fc.tuple(...segments).map((values) => {
    let index = 0;
    return pattern.replace(/:(\w+)/g, () => values[index++]!);
  });
  const query = spec.query
    ? fc.oneof(
        { weight: 3, arbitrary: brokenQuery(spec.query.template, spec.query.fields) },
        { weight: 1, arbitrary: junkQuery(spec.query.fields) },
      )
    : fc.oneof(
        { weight: 2, arbitrary: fc.constant([] as [string, string][]) },
        { weight: 1, arbitrary: junkQuery([]) },
      );
  const payload: fc.Arbitrary<{ contentType: string | null; body: BodySpec }> =
    method === "GET"
      ? fc.constantFrom(...CONTENT_TYPES).map((contentType) => ({ contentType, body: null }))
      : spec.body === "multipart"
        ? firmwareBody
        : fc.record({
            contentType: fc.constantFrom(...CONTENT_TYPES),
            body: spec.body ? badJsonBody(spec.body.template(f), spec.body.fields) : ignoredBody,
          });
  return fc.record({ path, query, payload }).map(({ path, query, payload }) => ({ path, query, ...payload }));
}

// ---- sending ------------------------------------------------------------------------------------

function buildForm(spec: FormSpec): FormData {
  const form = new FormData();
  if (spec.deviceType !== undefined) form.set("deviceType", spec.deviceType);
  if (spec.version !== undefined) form.set("version", spec.version);
  if (spec.file && "bytes" in spec.file) form.set("file", new File([new Uint8Array(spec.file.bytes)], "fw.bin"));
  if (spec.file && "oversized" in spec.file)
    form.set("file", new File([new Uint8Array(MAX_FIRMWARE_BYTES + 1)], "fw.bin"));
  if (spec.file && "text" in spec.file) form.set("file", spec.file.text);
  for (const [key, value] of spec.extra) if (!["deviceType", "version", "file"].includes(key)) form.append(key, value);
  return form;
}

function bodyOf(body: BodySpec): BodyInit | undefined {
  if (body === null) return undefined;
  if ("text" in body) return body.text;
  if ("bytes" in body) return new Uint8Array(body.bytes);
  return buildForm(body.form);
}

const createdSessions = new Set<string>();

function sessionIdOf(token: string): string {
  return z
    .object({ sid: z.string() })
    .parse(JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")))).sid;
}

async function credentials(caller: Caller, f: Fixtures): Promise<Record<string, string>> {
  switch (caller) {
    case "anonymous":
      return {};
    case "owner":
      return { Authorization: `Bearer ${f.ownerToken}` };
    case "admin":
      return { Authorization: `Bearer ${f.adminToken}` };
    case "device":
      return { Authorization: basicAuth(f.ownerDevice.deviceId, f.ownerDevice.key) };
    case "ownerLogout":
    case "adminLogout": {
      const { token } = await startSession(
        env,
        caller === "ownerLogout" ? f.owner.id : f.admin.id,
        caller === "ownerLogout" ? "user" : "admin",
      );
      createdSessions.add(sessionIdOf(token));
      return { Authorization: `Bearer ${token}` };
    }
    default: {
      const unreachable: never = caller;
      throw new Error(String(unreachable));
    }
  }
}

function requestFor(method: string, input: HttpCase, headers: Record<string, string>): Request {
  const query = input.query.map(([key, value]) => `${encodeComponent(key)}=${encodeComponent(value)}`).join("&");
  const allHeaders = { ...headers, ...(input.contentType === null ? {} : { "Content-Type": input.contentType }) };
  return new Request(`${ORIGIN}${input.path}${query ? `?${query}` : ""}`, {
    method,
    headers: allHeaders,
    body: bodyOf(input.body),
  });
}

const probeAnswerSchema = z.object({
  params: z.record(z.string(), z.string()),
  query: z.record(z.string(), z.string()),
});

/** Reads path and query back the way the API does: the same router, the same decoding. */
async function seenBy(method: string, pattern: string, request: Request): Promise<Seen | null> {
  const probe = new Hono().on(method, pattern, (c) => c.json({ params: c.req.param(), query: c.req.query() }));
  const response = await probe.fetch(new Request(request.url, { method }));
  if (response.status === 404) return null; // the path no longer reaches this route (e.g. "..")
  const { params, query } = probeAnswerSchema.parse(await response.json());
  // Decoded as Request.text() does (UTF-8, U+FFFD for bad bytes, BOM dropped), without its
  // warning about non-text content types.
  const text = method === "GET" ? "" : new TextDecoder().decode(await request.clone().arrayBuffer());
  return { params, query, text, request };
}

// ---- the state to keep --------------------------------------------------------------------------

let fixtures: Fixtures;

async function stateSnapshot(): Promise<Record<string, unknown>> {
  const d1 = await d1Snapshot();
  // The harness's own logout sessions are the one thing allowed to appear; and the admin audit
  // trail, whose whole point is to record admin writes, refused ones included
  // (admin-audit.test.ts checks what it records).
  const sessions = (d1.sessions ?? []).filter((row: Rows[number]) => !createdSessions.has(String(row.id)));
  delete d1.admin_audit;
  const r2 = (await env.FIRMWARE.list()).objects.map((object) => [object.key, object.size, object.etag]);
  return {
    d1: { ...d1, sessions },
    r2,
    ownerHub: await hubStorageSnapshot(fixtures.ownerDevice.deviceId),
    otherHub: await hubStorageSnapshot(fixtures.otherDevice.deviceId),
    spareHub: await hubStorageSnapshot(fixtures.spareDevice.deviceId),
  };
}

/** The IST minute of the day twelve hours from now: the fixture schedule never comes due during the run. */
function farFromNow(): number {
  return (Math.floor((Date.now() + 5.5 * 3_600_000) / 60_000) + 720) % 1440;
}

beforeAll(async () => {
  const owner = await farmerWithDevice();
  const other = await farmerWithDevice();
  const spareDevice = await provisionDevice(null);
  const admin = await createUser({ isAdmin: true });
  const adminToken = await loginToken(admin, "admin");

  const scheduleMinute = farFromNow();
  const schedule = await postJson(
    "/api/schedule",
    { time: formatClock(scheduleMinute), action: "ON", repeat: "daily" },
    owner.token,
  );
  expect(schedule.status).toBe(201);
  const recharge = await postJson("/api/recharge/request", { plan: "1month", paymentMethod: "upi" }, owner.token);
  expect(recharge.status).toBe(201);
  const config = await postJson(`/api/devices/motor/config/${owner.user.mobileNo}`, motorConfigTemplate, owner.token);
  expect(config.status).toBe(200);
  const memberMobileNo = uniqueMobileNo();
  const member = await postJson(
    `/api/pumps/${owner.device.deviceId}/members`,
    { mobileNo: memberMobileNo, role: "viewer", label: "Sita" },
    owner.token,
  );
  expect(member.status).toBe(201);
  const form = new FormData();
  form.set("deviceType", "wifi");
  form.set("version", "1.0.0");
  form.set("file", new File([new TextEncoder().encode("firmware image")], "fw.bin"));
  const firmware = await api("/api/admin/firmware", {
    method: "POST",
    headers: { Authorization: `Bearer ${adminToken}` },
    body: form,
  });
  expect(firmware.status).toBe(201);

  fixtures = {
    owner: owner.user,
    ownerDevice: owner.device,
    ownerToken: owner.token,
    other: other.user,
    otherDevice: other.device,
    spareDevice,
    admin,
    adminToken,
    scheduleId: (await readJson(schedule, scheduleResponseSchema)).schedule.id,
    scheduleMinute,
    rechargeId: (await readJson(recharge, rechargeRequestResponseSchema)).request.id,
    firmwareId: (await readJson(firmware, firmwareUploadResponseSchema)).firmware.id,
    firmwareVersion: "1.0.0",
    memberMobileNo,
  };
  // Fill the hubs' caches (the last logs are read from D1 once), so that a first read
  // during the run does not count as a change.
  for (const device of [owner.device, other.device, spareDevice]) await hubStub(device.deviceId).getSnapshot();
});

function routeList(): string[] {
  return [
    ...new Set(apiApp.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`)),
  ].sort();
}

const sent: Record<string, number> = {};
/** Status codes seen per route, printed at the end: shows what the inputs reached. */
const answers: Record<string, Record<number, number>> = {};

describe("HTTP fuzzing", () => {
  it("covers every route the router has but the two socket upgrades, and no route it does not", () => {
    const routes = routeList();
    expect(SOCKET_ROUTES.filter((route) => routes.includes(route))).toEqual(SOCKET_ROUTES);
    expect(Object.keys(ROUTES).sort()).toEqual(routes.filter((route) => !SOCKET_ROUTES.includes(route)));
    console.log(`HTTP fuzzing: base seed ${baseSeed()} (set FUZZ_SEED to change it)`);
  });

  for (const [route, spec] of Object.entries(ROUTES)) {
    it(`${route}: bad input is refused with a 4xx and changes nothing`, async () => {
      const [method, pattern] = route.split(" ") as [string, string];
      const before = await stateSnapshot();
      sent[route] = 0;
      await fc.assert(
        fc.asyncProperty(caseArbitrary(route, spec, fixtures), async (input) => {
          const request = requestFor(method, input, await credentials(spec.caller, fixtures));
          const seen = await seenBy(method, pattern, request);
          const accepted = seen !== null && (await spec.accepts(seen, fixtures));
          // Never send a route that writes an input it would act on: that change is allowed.
          fc.pre(!(accepted && spec.effect === "write"));
          sent[route]! += 1;
          const response = await exports.default.fetch(request);
          // The firmware route answers bytes: decoded without the runtime's warning for text() on them.
          const text = new TextDecoder().decode(await response.arrayBuffer());
          const tally = answers[route] ?? {};
          answers[route] = tally;
          tally[response.status] = (tally[response.status] ?? 0) + 1;
          const outcome = `${route} ${request.url.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`;
          let body: ApiErrorBody | null = null;
          if (response.status >= 400) {
            // The one refusal shape, strictly: nothing missing, nothing undeclared.
            body = parseAnswer(apiErrorSchema, JSON.parse(text), outcome);
            expect(body.message.length > 0, outcome).toBe(true);
          }
          if (response.status === 503 && spec.effect === "device")
            expect([body!.code, body!.message], outcome).toEqual(["offline", OFFLINE_MESSAGE]);
          else expect(response.status, outcome).toBeLessThan(500);
          if (!accepted) {
            expect(response.status, outcome).toBeGreaterThanOrEqual(400);
            expect(response.status, outcome).toBeLessThan(500);
          }
        }),
        { numRuns: RUNS_PER_ROUTE, seed: seedFor(route), maxSkipsPerRun: 20 },
      );
      expect(await stateSnapshot()).toEqual(before);
    });
  }

  it(`sent at least ${MIN_HTTP_INPUTS.toLocaleString("en")} bad inputs, and the API still answers valid calls`, async () => {
    const total = Object.values(sent).reduce((sum, count) => sum + count, 0);
    for (const [route, tally] of Object.entries(answers)) console.log(`${route}: ${JSON.stringify(tally)}`);
    console.log(`HTTP fuzzing: ${total} inputs over ${Object.keys(sent).length} routes`);
    expect(Object.keys(sent).sort()).toEqual(Object.keys(ROUTES).sort());
    expect(total).toBeGreaterThanOrEqual(MIN_HTTP_INPUTS);
    expect((await getJson(`/api/devices/motor/status/${fixtures.owner.mobileNo}`, fixtures.ownerToken)).status).toBe(
      200,
    );
    expect((await getJson("/api/admin/users", fixtures.adminToken)).status).toBe(200);
    expect(
      (await postJson("/api/auth/login", { mobileNo: fixtures.owner.mobileNo, password: fixtures.owner.password }))
        .status,
    ).toBe(200);
  });
});
