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

/** POST /api/admin/installers/{userId}/stock: boxes, not yet linked, for the installer to fit. */
export const installerStockRequestSchema = z.object({
  deviceIds: z.array(deviceIdSchema).min(1).max(200),
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
