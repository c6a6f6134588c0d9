// Answers of the admin area's own calls, /api/admin/* (common/api-responses/refusals.ts says how
// these are used). Its logins, recharge list and motor settings answer as the farmer's calls do:
// ./accounts.ts, ./recharges.ts, ./motor.ts.

import { connectionTypeSchema, deviceKindSchema } from "../device-enums.ts";
import { COMMAND_STEPS, type CommandStep } from "../hub-contract.ts";
import type { MotorLogParam } from "../motor-log-event.ts";
import { deviceStatusSchema } from "../realtime-protocol.ts";
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

/** SPEC §3's three current limits, in every admin answer that shows a motor config. */
const currentLimitFields = {
  defaultCurrent: z.number(),
  dryRunThreshold: z.number(),
  overCurrentThreshold: z.number(),
};

// ─── Devices and firmware ────────────────────────────────────────────────────────────────

/** GET /api/admin/devices. */
export const deviceListResponseSchema = successSchema({
  devices: z.array(
    z.object({
      id: z.string(),
      kind: deviceKindSchema,
      connection: z.nullable(connectionTypeSchema),
      ownerMobileNo: z.nullable(z.string()),
      /** The owner's account, for a link to its page; null for a box in stock. */
      ownerUserId: z.nullable(z.int()),
      online: z.boolean(),
      lastSeenAt: z.nullable(z.string()),
      firmware: z.nullable(z.string()),
    }),
  ),
});

/** POST /api/admin/devices (201): the key, shown this once. */
export const provisionResponseSchema = successSchema({
  message: z.string(),
  device: z.object({ id: z.string(), kind: deviceKindSchema, ownerMobileNo: z.nullable(z.string()) }),
  key: z.string(),
});

/** POST /api/admin/devices/{id}/rotate-key: the new key, shown this once (PUT .../owner answers accessChangeResponseSchema). */
export const keyRotatedResponseSchema = successSchema({ message: z.string(), key: z.string() });

/**
 * A step of a command in the hub: ms (deployed, 0 for pure CPU: the runtime's clock moves only on
 * I/O there; locally it moves with CPU too), storage writes, bytes, frames.
 */
const stepCostSchema = z.object({ ms: z.number(), writes: z.int(), bytes: z.int(), frames: z.int() });
/**
 * The steps a command took (common/hub-contract.ts, COMMAND_STEPS), each optional: built from
 * the list with `z.object`, as zod's record and enum would add to the zod file every page loads.
 */
const commandStepsSchema = z.object(
  Object.fromEntries(COMMAND_STEPS.map((step) => [step, z.optional(stepCostSchema)])) as Record<
    CommandStep,
    z.ZodMiniOptional<typeof stepCostSchema>
  >,
);

/** GET /api/admin/devices/{id}/hub-stats: how often the hub woke and how many box frames it handled. */
export const hubStatsResponseSchema = successSchema({
  stats: z.object({
    /** Constructions after the first: wakes from hibernation or eviction. */
    wakes: z.int(),
    deviceFrames: z.int(),
    /** When the last 20 constructions happened (ms). */
    recentWakes: z.array(z.number()),
    /** D1 round trips the hub has made (worker/db/query-count.ts). */
    d1Queries: z.int(),
    /** The last person's switch, step by step (common/hub-contract.ts, COMMAND_STEPS); null before the first. */
    lastCommand: z.nullable(z.object({ steps: commandStepsSchema, total: stepCostSchema })),
  }),
});

/** PUT /api/admin/device-config: debug mode switched, or a new mobile number sent. */
export const deviceConfigResponseSchema = z.union([
  successSchema({ message: z.string(), debug: z.boolean() }),
  successSchema({ message: z.string(), mobileNo: z.string(), deliveredToDevice: z.boolean() }),
]);

const firmwareTypeSchema = z.enum(["wifi", "sim"]);

/** GET /api/admin/firmware: every image, without where R2 keeps it. */
export const firmwareListResponseSchema = successSchema({
  firmware: z.array(
    z.object({
      id: z.int(),
      deviceType: firmwareTypeSchema,
      version: z.string(),
      sha256: z.string(),
      size: z.int(),
      uploadedByUserId: z.nullable(z.int()),
      uploadedAt: z.string(),
    }),
  ),
});

/** POST /api/admin/firmware (201). */
export const firmwareUploadResponseSchema = successSchema({
  message: z.string(),
  firmware: z.object({
    id: z.int(),
    deviceType: firmwareTypeSchema,
    version: z.string(),
    sha256: z.string(),
    size: z.int(),
  }),
});

// ─── Accounts, logs, counts, the audit trail ─────────────────────────────────────────────

/** GET /api/admin/dashboard-stats (SPEC §3 "Dashboard stats"). */
export const dashboardStatsResponseSchema = successSchema({
  stats: z.object({
    totalUsers: z.int(),
    devicesOnline: z.int(),
    totalLogs: z.int(),
    /** Devices with a motor action since midnight India time. */
    activeDevices: z.int(),
    /** Beyond SPEC: linked boxes the server cannot hear now. */
    devicesOffline: z.int(),
    /** Boxes in stock, linked to nobody. */
    devicesUnlinked: z.int(),
    /** Online boxes in a phase fault that is not over. */
    phaseFaultsNow: z.int(),
    /** Boxes that tripped since midnight India time. */
    devicesTrippedToday: z.int(),
    /** Theft alerts (a box opened, a cable cut) in the last 7 days. */
    theftAlertsWeek: z.int(),
    /** Recharge requests waiting for a decision. */
    rechargesPending: z.int(),
    /** Linked boxes whose connectivity ends within 7 days. */
    plansEndingSoon: z.int(),
    /** Linked boxes whose connectivity has ended. */
    plansLapsed: z.int(),
  }),
});

/** SPEC §3's user as every admin answer about an account starts it. */
const accountFields = {
  id: z.int(),
  mobileNo: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  lastLogin: z.nullable(z.string()),
};

/** GET /api/admin/users. */
export const userListResponseSchema = successSchema({
  users: z.array(z.object({ ...accountFields, deviceId: z.nullable(z.string()) })),
});

/** GET /api/admin/device-statuses: every account's number → its device's presence (SPEC §3). */
export const deviceStatusesResponseSchema = successSchema({
  statuses: z.catchall(z.object({}), deviceStatusSchema),
});

/** GET /api/admin/user/{id}: SPEC §3 "User (admin view)", with the device the page addresses. */
export const adminUserResponseSchema = successSchema({
  user: z.object({
    ...accountFields,
    /** When the holder proved the number with a code; null: not verified (docs/decisions/027-verified-numbers.md). */
    numberVerifiedAt: z.nullable(z.string()),
    ...currentLimitFields,
    /** Beyond SPEC §3: the first box's voltage limits in force (its kind's defaults where none was set). */
    underVoltage: z.number(),
    overVoltage: z.number(),
    voltageUnbalance: z.number(),
    deviceInfo: z.object({
      signal: z.nullable(z.number()),
      imei: z.nullable(z.string()),
      sim: z.nullable(z.string()),
      chipId: z.nullable(z.string()),
      firmware: z.nullable(z.string()),
    }),
    device: z.nullable(
      z.object({
        id: z.string(),
        kind: deviceKindSchema,
        connection: z.nullable(connectionTypeSchema),
        online: z.boolean(),
        lastSeenAt: z.nullable(z.string()),
        activatedAt: z.nullable(z.string()),
      }),
    ),
    /** Every box the account owns, its first box (the one above) first. */
    boxes: z.array(z.object({ id: z.string(), kind: deviceKindSchema, online: z.boolean() })),
    /** The boxes others let this number use, with its role and the owner's name for it. */
    shared: z.array(
      z.object({
        id: z.string(),
        role: z.enum(["operator", "viewer"]),
        label: z.string(),
        ownerMobileNo: z.nullable(z.string()),
        online: z.boolean(),
      }),
    ),
  }),
});

/** PUT /api/admin/update-user-role; `signedOut`: the caller removed their own role (DELETE /api/admin/delete-user answers accessChangeResponseSchema). */
export const userRoleResponseSchema = successSchema({
  message: z.string(),
  user: z.object({ id: z.int(), isAdmin: z.boolean() }),
  signedOut: z.boolean(),
});

/**
 * POST /api/admin/users/{id}/sign-in-code: a code went to the account's number (never to the
 * admin): a sign-in code, or, for a number not verified yet, a code to set a new password.
 */
export const signInCodeResponseSchema = successSchema({
  message: z.string(),
  purpose: z.enum(["signIn", "resetPassword"]),
  expiresInSeconds: z.int(),
});

/** GET /api/admin/motor-config-history/{mobileNo}: SPEC §3 entries, with who made each change. */
export const configHistoryResponseSchema = successSchema({
  history: z.array(
    z.object({
      id: z.int(),
      ...currentLimitFields,
      /** Beyond SPEC §3: the voltage limits the change set; null: the kind's default, or an entry from before them. */
      underVoltage: z.nullable(z.number()),
      overVoltage: z.nullable(z.number()),
      voltageUnbalance: z.nullable(z.number()),
      changeNote: z.string(),
      changedBy: z.nullable(z.string()),
      createdAt: z.string(),
    }),
  ),
});

/** Where a page of the audit trail stands in the whole. */
const pageFields = { page: z.int(), pageSize: z.int(), total: z.int(), totalPages: z.int() };

/**
 * GET /api/admin/motor-logs?mobileNo= or ?deviceId= (and `before`): SPEC §3 "Motor log (admin
 * list)" of one farmer's boxes or one box, 20 a page, newest first by id, each entry naming its
 * box. `nextBefore`: the `before` of the next page, null at the end. No total: counting would
 * read every row of a box's history (docs/decisions/045-history-lives-with-its-box.md).
 */
export const adminMotorLogsResponseSchema = successSchema({
  logs: z.array(
    z.object({
      id: z.int(),
      deviceId: z.string(),
      /** The owner's name for the box; null when they gave none. */
      boxName: z.nullable(z.string()),
      /** The number the box was under when the entry was written. */
      mobileNo: z.nullable(z.string()),
      action: z.enum(["on", "off", "other"]),
      /** In the caller's language. */
      message: z.string(),
      createdAt: z.string(),
      kind: z.string(),
      params: z.catchall(z.object({}), z.custom<MotorLogParam>()),
    }),
  ),
  pageSize: z.int(),
  nextBefore: z.nullable(z.int()),
});

/** GET /api/admin/audit: the audit trail, newest first, 20 a page by number (docs/decisions/007-admin-audit-trail.md). */
export const auditPageResponseSchema = successSchema({
  entries: z.array(
    z.object({
      id: z.int(),
      createdAt: z.string(),
      adminUserId: z.nullable(z.int()),
      adminMobileNo: z.nullable(z.string()),
      action: z.string(),
      target: z.nullable(z.string()),
      status: z.int(),
      /** The validated, non-secret request fields, or why the write was refused. */
      details: z.catchall(z.object({}), z.unknown()),
      clientIp: z.nullable(z.string()),
      userAgent: z.nullable(z.string()),
    }),
  ),
  ...pageFields,
});

// ─── Alerts by SMS and call ──────────────────────────────────────────────────────────────

const telephonyCountsSchema = z.object({
  /** SMS sent, and the parts they were billed as. */
  sms: z.number(),
  smsParts: z.number(),
  /** Calls placed, those answered, and their started minutes. */
  calls: z.number(),
  answeredCalls: z.number(),
  callMinutes: z.number(),
  /** Alerts not sent by phone past the daily caps. */
  capped: z.number(),
  /** At the environment's prices; null when a price is not set. */
  estimatedPaise: z.nullable(z.number()),
});

/** GET /api/admin/telephony-usage?month=2026-11: each account's SMS and calls in an IST month, and what they cost. */
export const telephonyUsageResponseSchema = successSchema({
  month: z.string(),
  prices: z.object({
    smsPartPaise: z.nullable(z.number()),
    callMinutePaise: z.nullable(z.number()),
    asOf: z.nullable(z.string()),
  }),
  accounts: z.array(
    z.extend(telephonyCountsSchema, { userId: z.number(), mobileNo: z.string(), callSeconds: z.number() }),
  ),
  totals: telephonyCountsSchema,
});
