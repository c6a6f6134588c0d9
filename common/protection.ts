// Dry-run and overcurrent protection (docs/device-protocol.md, "Protection"). The box enforces
// these rules itself; the hub applies the same rules, more patiently, as a safety net.

export type ProtectionConfig = {
  /** The motor's normal running current, in A. */
  defaultCurrent: number;
  /** A running current this many percent below defaultCurrent means the pump runs dry. */
  dryRunThreshold: number;
  /** A running current this many percent above defaultCurrent is an overcurrent. */
  overCurrentThreshold: number;
};

/** Starting a motor draws 5–7× its running current for a second or two: no trips meanwhile. */
export const PROTECTION_STARTUP_GRACE_MS = 8_000;
/** A breach must last this long before the box trips (one bad sample is noise). */
export const PROTECTION_SUSTAIN_MS = 5_000;
/** The hub trips a motor the box left running if a breach outlasts this (sampled readings). */
export const HUB_SAFETY_SUSTAIN_MS = 20_000;

export function protectionLimits(config: ProtectionConfig) {
  return {
    dryRunBelow: config.defaultCurrent * (1 - config.dryRunThreshold / 100),
    overCurrentAbove: config.defaultCurrent * (1 + config.overCurrentThreshold / 100),
  };
}

/** Which protection a running current breaches, if any. */
export function breachOf(current: number, config: ProtectionConfig): "dryRun" | "overCurrent" | null {
  const { dryRunBelow, overCurrentAbove } = protectionLimits(config);
  if (current < dryRunBelow) return "dryRun";
  if (current > overCurrentAbove) return "overCurrent";
  return null;
}

/** SPEC §9: tolerance shown = current × dry run threshold / 100, to one decimal. */
export function toleranceAmperes(config: ProtectionConfig): number {
  return Math.round(((config.defaultCurrent * config.dryRunThreshold) / 100) * 10) / 10;
}

/** SPEC §9: horsepower shown = current × 718.78 × 0.58 / 746, to one decimal. */
export function horsePowerFor(current: number): number {
  return Math.round(((current * 718.78 * 0.58) / 746) * 10) / 10;
}
