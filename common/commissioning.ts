// Commissioning by the installer (docs/decisions/033-installers.md): what the box measured in its
// test run, the settings suggested from it, and the report kept with the box. Runtime-neutral:
// the Worker keeps it, the pages show it, the tests check the suggestion against the simulator.
import { motorConfigRequestSchema } from "./api-schemas.ts";
import type { DeviceKind } from "./device-enums.ts";
import { horsePowerFor } from "./protection.ts";
import { z } from "./zod.ts";

/** The thresholds suggested for any motor: the product's defaults, now around a measured current. */
const SUGGESTED_DRY_RUN_PERCENT = 30;
const SUGGESTED_OVER_CURRENT_PERCENT = 30;

/** What the box measured in a test run, as the server keeps it (never as a page sends it). */
export const measuredSchema = z.object({
  voltages: z.array(z.number()),
  surgeCurrent: z.number(),
  runningCurrent: z.number(),
  ranSeconds: z.number(),
  at: z.string(),
});
export type Measured = z.infer<typeof measuredSchema>;

const settingsSchema = z.object({
  defaultCurrent: z.number(),
  dryRunThreshold: z.number(),
  overCurrentThreshold: z.number(),
  horsePower: z.number(),
});
export type SuggestedSettings = z.infer<typeof settingsSchema>;

/**
 * The settings a test run suggests: the rated current is the running current measured past
 * the surge (one decimal), the thresholds the defaults around it, the horsepower SPEC §9's
 * estimate from that current (by the box's kind).
 */
export function suggestSettings(kind: DeviceKind, runningCurrent: number): SuggestedSettings {
  const defaultCurrent = Math.max(0.1, Math.round(runningCurrent * 10) / 10);
  return {
    defaultCurrent,
    dryRunThreshold: SUGGESTED_DRY_RUN_PERCENT,
    overCurrentThreshold: SUGGESTED_OVER_CURRENT_PERCENT,
    horsePower: horsePowerFor(defaultCurrent, kind),
  };
}

/**
 * The dry-run check of the settings set, as the box answered it: whether its dry-run protection
 * stopped the motor, the current that decided it and the limit it applied, how long the motor
 * ran, when. Kept by the server from the box's answer, never from a page.
 */
export const dryRunCheckSchema = z.object({
  tripped: z.boolean(),
  current: z.number(),
  tripBelow: z.number(),
  ranSeconds: z.number(),
  at: z.string(),
});
export type DryRunCheck = z.infer<typeof dryRunCheckSchema>;

/**
 * The report kept with the box: what was measured, what was suggested and set, for which feeder,
 * by whom, when; and the dry-run check of those settings, or null while it was not done (skipped,
 * or the settings changed since). Reports from before the check have no field: not done.
 */
export const commissioningReportSchema = z.object({
  measured: measuredSchema,
  suggested: settingsSchema,
  set: settingsSchema,
  feeder: z.string().nullable(),
  by: z.object({ name: z.string(), mobileNo: z.string() }),
  at: z.string(),
  dryRunCheck: dryRunCheckSchema.nullable().optional(),
});
export type CommissioningReport = z.infer<typeof commissioningReportSchema>;

/** POST /api/installer/boxes/{deviceId}/test-run. */
export const testRunRequestSchema = z.object({
  seconds: z.number().int().min(3, { error: "3 to 30 seconds." }).max(30, { error: "3 to 30 seconds." }).optional(),
});

/** The dry-run check's seconds the installer's page asks for: the box's start-up grace, time to close the valve, and its sustain time. */
export const DRY_RUN_CHECK_SECONDS = 30;

/** POST /api/installer/boxes/{deviceId}/dry-run-check. */
export const dryRunCheckRequestSchema = z.object({
  seconds: z.number().int().min(15, { error: "15 to 60 seconds." }).max(60, { error: "15 to 60 seconds." }).optional(),
});

/**
 * POST /api/installer/boxes/{deviceId}/commissioning: the settings the installer accepts or
 * edits (the motor settings' own ranges), and the feeder or village tag.
 */
export const commissioningRequestSchema = z.object({
  defaultCurrent: motorConfigRequestSchema.shape.defaultCurrent,
  dryRunThreshold: motorConfigRequestSchema.shape.dryRunThreshold,
  overCurrentThreshold: motorConfigRequestSchema.shape.overCurrentThreshold,
  feeder: z
    .string()
    .trim()
    .max(40, { error: "40 characters at most." })
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional(),
});
