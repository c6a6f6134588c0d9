// Answers of the installer's calls (/api/installer/*), the admin's installer calls and the
// farmer's view of who installed a pump (common/api-responses/refusals.ts says how these are used).
import { deviceKindSchema } from "../device-enums.ts";
import { z } from "../zod-mini.ts";

const settingsSchema = z.object({
  defaultCurrent: z.number(),
  dryRunThreshold: z.number(),
  overCurrentThreshold: z.number(),
  horsePower: z.number(),
});
const measuredSchema = z.object({
  voltages: z.array(z.number()),
  surgeCurrent: z.number(),
  runningCurrent: z.number(),
  ranSeconds: z.number(),
  at: z.string(),
});
const dryRunCheckSchema = z.object({
  tripped: z.boolean(),
  current: z.number(),
  tripBelow: z.number(),
  ranSeconds: z.number(),
  at: z.string(),
});
/** The commissioning report kept with a box (common/commissioning.ts). */
const reportSchema = z.object({
  measured: measuredSchema,
  suggested: settingsSchema,
  set: settingsSchema,
  feeder: z.nullable(z.string()),
  by: z.object({ name: z.string(), mobileNo: z.string() }),
  at: z.string(),
  dryRunCheck: z.optional(z.nullable(dryRunCheckSchema)),
});

/** POST /api/installer/boxes/{deviceId}/supply: the box's own reading of every phase. */
export const supplyResponseSchema = z.object({
  success: z.literal(true),
  voltages: z.array(z.number()),
  everyPhase: z.boolean(),
});

/** POST /api/installer/boxes/{deviceId}/test-run: what the box measured, and the settings suggested from it. */
export const testRunResponseSchema = z.object({
  success: z.literal(true),
  measured: measuredSchema,
  suggested: settingsSchema,
});

/** POST /api/installer/boxes/{deviceId}/dry-run-check: what the box's dry-run protection did, and the report with it. */
export const dryRunCheckResponseSchema = z.object({
  success: z.literal(true),
  check: dryRunCheckSchema,
  report: reportSchema,
});

/** POST /api/installer/boxes/{deviceId}/commissioning. */
export const commissionedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  report: reportSchema,
  deliveredToDevice: z.boolean(),
});

const installerSchema = z.object({
  userId: z.int(),
  mobileNo: z.string(),
  name: z.string(),
  region: z.nullable(z.string()),
});

/** POST /api/admin/installers. */
export const installerResponseSchema = z.object({ success: z.literal(true), installer: installerSchema });

/** GET /api/admin/installers: each with what they hold (unlinked stock, their region's free boxes) and their installs. */
export const installerListResponseSchema = z.object({
  success: z.literal(true),
  installers: z.array(
    z.object({
      userId: z.int(),
      mobileNo: z.string(),
      name: z.string(),
      region: z.nullable(z.string()),
      stockCount: z.int(),
      stock: z.array(z.string()),
      regionCount: z.int(),
      installs: z.int(),
    }),
  ),
});

/** POST /api/admin/installers/{userId}/stock: the boxes taken (those not linked and in nobody else's stock). */
export const stockResponseSchema = z.object({ success: z.literal(true), added: z.array(z.string()) });

/** DELETE /api/admin/installers/{userId}/stock: the boxes taken back (theirs, not linked). */
export const stockReturnResponseSchema = z.object({ success: z.literal(true), removed: z.array(z.string()) });

/** PUT /api/admin/installers/{userId}/region. */
export const installerRegionResponseSchema = z.object({
  success: z.literal(true),
  installer: z.object({ userId: z.int(), name: z.string(), region: z.nullable(z.string()) }),
});

/** PUT /api/admin/box-regions: the boxes tagged (those not linked). */
export const boxRegionResponseSchema = z.object({ success: z.literal(true), tagged: z.array(z.string()) });

/** GET /api/installer/boxes: the installer's stock and the boxes they installed. */
export const installerBoxesResponseSchema = z.object({
  success: z.literal(true),
  installer: z.object({ name: z.string() }),
  stock: z.array(z.object({ deviceId: z.string(), kind: deviceKindSchema, via: z.enum(["stock", "region"]) })),
  installed: z.array(
    z.object({
      deviceId: z.string(),
      /** Null once handed over: the box's state is then its farmer's alone. */
      online: z.nullable(z.boolean()),
      lastSeenAt: z.nullable(z.string()),
      installedAt: z.string(),
      handedOverAt: z.nullable(z.string()),
      report: z.nullable(reportSchema),
    }),
  ),
});

/** POST /api/installer/claims/confirm. */
export const claimLinkedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  deviceId: z.string(),
  hubConfirmed: z.boolean(),
});

/** GET /api/pumps/{deviceId}/installation: who installed the pump and how to reach them; null if nobody did. */
export const installationResponseSchema = z.object({
  success: z.literal(true),
  installation: z.nullable(
    z.object({
      installerName: z.string(),
      installerMobileNo: z.string(),
      installedAt: z.string(),
      handedOverAt: z.nullable(z.string()),
      farmerSeenAt: z.nullable(z.string()),
      report: z.nullable(reportSchema),
    }),
  ),
});
