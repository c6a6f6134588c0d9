// Answers of /api/pumps (docs/decisions/018-shared-pumps.md; common/api-responses/refusals.ts
// says how these are used). A box's status, switch, settings and logs answer with the same
// schemas as SPEC §7's routes keyed by number (./devices.ts, ./logs.ts, ./schedules.ts).
import { motorStatusSchema } from "../pump-state.ts";
import { deviceStatusSchema } from "../realtime-protocol.ts";
import { z } from "../zod-mini.ts";
import { successSchema } from "./refusals.ts";

const pumpRoleSchema = z.enum(["owner", "operator", "viewer", "admin"]);
const memberRoleSchema = z.enum(["operator", "viewer"]);

/** One box a caller may see, as the pump switcher shows it. */
export const pumpSummarySchema = z.object({
  deviceId: z.string(),
  /** The owner's name for it; null until they give one. */
  name: z.nullable(z.string()),
  kind: z.enum(["1phase", "3phase"]),
  /** What the caller is to it. */
  role: pumpRoleSchema,
  /** The owner's number, for a box shared with the caller (null for their own). */
  ownerMobileNo: z.nullable(z.string()),
  status: motorStatusSchema,
  deviceStatus: deviceStatusSchema,
});

/**
 * An owner's invitation waiting for the caller's answer: which box, as what, from whom. Nothing
 * the owner typed (the box's name, their name for the caller) shows before the caller accepts.
 */
export const pumpInvitationSchema = z.object({
  deviceId: z.string(),
  role: memberRoleSchema,
  ownerMobileNo: z.string(),
  invitedAt: z.string(),
});

/**
 * GET /api/pumps: the caller's own boxes (first box first), then those shared with them; and
 * the invitations waiting for their answer (POST /api/pumps/{deviceId}/invitation).
 */
export const pumpListResponseSchema = successSchema({
  pumps: z.array(pumpSummarySchema),
  invitations: z.array(pumpInvitationSchema),
});

/** PUT /api/pumps/{deviceId}/name. */
export const pumpNameResponseSchema = successSchema({
  message: z.string(),
  name: z.nullable(z.string()),
});

/** PUT /api/pumps/{deviceId}/phone-start: whether a missed call to the start number may now start the motor. */
export const pumpPhoneStartResponseSchema = successSchema({
  message: z.string(),
  enabled: z.boolean(),
});

/** PUT /api/pumps/{deviceId}/sms-pin: whether an SMS ON to the box must now begin with a PIN. */
export const pumpSmsPinResponseSchema = successSchema({
  message: z.string(),
  pinSet: z.boolean(),
});

/** One person besides the owner who may use a box, or who is invited to. */
export const pumpMemberSchema = z.object({
  mobileNo: z.string(),
  role: memberRoleSchema,
  label: z.string(),
  /**
   * When they accepted; null while the invitation waits for their answer (whether or not the
   * number has an account: the owner is not told which).
   */
  acceptedAt: z.nullable(z.string()),
  createdAt: z.string(),
});
export type PumpMember = z.infer<typeof pumpMemberSchema>;

/** GET /api/pumps/{deviceId}/members. */
export const pumpMembersResponseSchema = successSchema({ members: z.array(pumpMemberSchema) });

/** POST /api/pumps/{deviceId}/members (201): the invitation, the same whoever the number is. */
export const pumpMemberResponseSchema = successSchema({
  message: z.string(),
  member: pumpMemberSchema,
});

/**
 * PUT /api/pumps/{deviceId}/members/{mobileNo}: the member as changed, and whether the box's hub
 * has confirmed (as `accessChangeResponseSchema`, ./refusals.ts; DELETE and the invitation's
 * answer answer with that).
 */
export const pumpMemberChangeResponseSchema = successSchema({
  message: z.string(),
  member: pumpMemberSchema,
  hubConfirmed: z.boolean(),
});
