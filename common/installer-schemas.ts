// What the installer's calls and the admin's installer calls take (docs/admin-area.md,
// "Installers"; docs/user-area.md, "The installer's visit").
import { mobileNoSchema } from "./api-schemas.ts";
import { claimCodeSchema } from "./claim-codes.ts";
import { deviceIdSchema } from "./pump-schemas.ts";
import { z } from "./zod.ts";

/** POST /api/admin/installers: make a verified account an installer (or rename one). */
export const installerRequestSchema = z.object({
  mobileNo: mobileNoSchema,
  name: z.string().trim().min(1, { error: "Give the installer's name." }).max(60, { error: "60 characters at most." }),
});

/**
 * POST /api/admin/installers/{userId}/stock: boxes, not yet linked, for the installer to fit;
 * DELETE on the same path: unused boxes taken back.
 */
export const installerStockRequestSchema = z.object({
  deviceIds: z.array(deviceIdSchema).min(1).max(200),
});

/**
 * A region's tag (a district or block, "Barabanki" or "बाराबंकी"), kept in one form so that the
 * same place typed twice is one region: trimmed, one space between words, lower case. Letters
 * of any script, digits, spaces and dashes; 40 characters at most.
 */
export const regionSchema = z
  .string()
  .transform((value) => value.trim().replace(/\s+/g, " ").toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { error: "Give the region's name." })
      .max(40, { error: "40 characters at most." })
      .regex(/^[\p{L}\p{M}\p{N} -]+$/u, { error: "Letters, digits, spaces and dashes only." }),
  );

/** A region field: a tag, or none (null, or a blank text). */
const regionOrNoneSchema = z.union([
  z.null(),
  z
    .string()
    .regex(/^\s*$/)
    .transform(() => null),
  regionSchema,
]);

/** PUT /api/admin/installers/{userId}/region: the region whose unlinked boxes the installer may claim; null for none. */
export const installerRegionRequestSchema = z.object({ region: regionOrNoneSchema });

/** PUT /api/admin/box-regions: tag boxes waiting for a farmer with a region (null: none). */
export const boxRegionRequestSchema = z.object({
  deviceIds: z.array(deviceIdSchema).min(1).max(200),
  region: regionOrNoneSchema,
});

/** POST /api/installer/claims: the sticker's box id and claim code, and the farmer's number. */
export const claimRequestSchema = z.object({
  deviceId: deviceIdSchema,
  claimCode: claimCodeSchema,
  farmerMobileNo: mobileNoSchema,
});

/** POST /api/installer/claims/confirm: the code the farmer got by SMS. */
export const claimConfirmSchema = z.object({
  deviceId: deviceIdSchema,
  farmerMobileNo: mobileNoSchema,
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, { error: "Enter the 6-digit code." }),
});
