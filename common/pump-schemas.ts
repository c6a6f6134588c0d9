// Inputs of the per-pump calls (/api/pumps/{deviceId}/…) and of the pages' forms that do the
// same, shared by Worker, pages and tests (docs/decisions/018-shared-pumps.md).
import { mobileNoSchema, otaRequestSchema } from "./api-schemas.ts";
import { DEVICE_ID_PATTERN } from "./credentials.ts";
import { SMS_PIN_PATTERN } from "./phone-commands.ts";
import { MEMBER_ROLES } from "./pump-roles.ts";
import { z } from "./zod.ts";

/** The roles an owner gives (common/pump-roles.ts says what each may do). */
export const memberRoleSchema = z.enum(MEMBER_ROLES);

/**
 * Characters that change how a name reads without being seen: Unicode's format characters
 * (bidi overrides and isolates, marks, zero-width spaces, word joiners, soft hyphens, tags) and
 * line separators. "Pump \u202eNO rotoM" would show as "Pump Motor ON". The zero-width
 * (non-)joiner stays between two Devanagari letters, where Hindi keyboards put it to shape a
 * conjunct.
 */
export function hasHiddenFormatting(text: string): boolean {
  const characters = [...text];
  return characters.some((character, index) => {
    if (/[\u2028\u2029]/u.test(character)) return true;
    if (!/\p{Cf}/u.test(character)) return false;
    if (character !== "\u200c" && character !== "\u200d") return true;
    const devanagari = /\p{Script=Devanagari}/u;
    return !(devanagari.test(characters[index - 1] ?? "") && devanagari.test(characters[index + 1] ?? ""));
  });
}

/** The owner's name for a box or a person: short, one line, nothing hidden in it. */
export const pumpLabelSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), "One line, no control characters")
  .refine((text) => !hasHiddenFormatting(text), "No invisible or direction-changing characters");

/** A box's id as printed on it. */
export const deviceIdSchema = z.string().regex(DEVICE_ID_PATTERN, { error: "Not a device id." });

/** PUT /api/pumps/{deviceId}/name: the owner's name for the box; empty clears it. */
export const pumpNameRequestSchema = z.object({
  name: z.union([pumpLabelSchema, z.literal("").transform(() => null), z.null()]),
});

/**
 * PUT /api/pumps/{deviceId}/phone-start: whether a missed call to the start number may start the
 * box's motor (docs/decisions/028-switching-by-phone.md). Only a boolean: "on" and 1 are not.
 */
export const pumpPhoneStartRequestSchema = z.object({
  enabled: z.boolean({ error: "enabled must be true or false." }),
});

/**
 * PUT /api/pumps/{deviceId}/sms-pin: the PIN an SMS ON to the box must begin with (4 digits), or
 * null for none (worker/phone-control/sms-pin.ts).
 */
export const pumpSmsPinRequestSchema = z.object({
  pin: z.nullable(z.string().regex(SMS_PIN_PATTERN, { error: "pin must be 4 digits, or null for none." })),
});

/** POST /api/pumps/{deviceId}/members: a number, its role, and the owner's name for that person. */
export const memberInviteRequestSchema = z.object({
  mobileNo: mobileNoSchema,
  role: memberRoleSchema,
  label: pumpLabelSchema,
});

/** PUT /api/pumps/{deviceId}/members/{mobileNo}: a new role, a new name, or both. */
export const memberChangeRequestSchema = z
  .object({ role: memberRoleSchema.optional(), label: pumpLabelSchema.optional() })
  .refine((change) => change.role !== undefined || change.label !== undefined, "Give a role or a label.");

/** POST /api/pumps/{deviceId}/ota: which build to offer (the box is in the path). */
export const pumpOtaRequestSchema = otaRequestSchema.pick({ deviceType: true });

/** POST /api/pumps/{deviceId}/invitation: the invited person's answer to an owner's invitation. */
export const invitationAnswerRequestSchema = z.object({ answer: z.enum(["accept", "decline"]) });
