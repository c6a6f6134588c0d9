// Dry-run, overcurrent and voltage protection (docs/device-protocol.md, "Protection"). The box
// enforces these rules itself; the hub applies the same rules, more patiently, as a safety net.
import type { DeviceKind } from "./device-protocol.ts";

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

/**
 * Below this a current sensor on an open relay reads noise, and a motor is not turning: no
 * running pump, however small, draws this little.
 */
export const NEAR_ZERO_CURRENT_A = 0.3;
/** What the cheapest current transformers read with nothing flowing; never evidence of a motor. */
export const SENSOR_NOISE_A = 0.05;
/** A relay confirmed ON whose motor draws next to nothing this long after the start-up grace is surfaced. */
export const NO_CURRENT_ALERT_MS = 20_000;

/**
 * The current at and above which a reading proves the motor turns: 0.3 A, or the dry-run limit
 * where a farmer set that lower (never below sensor noise). A reading at or above the dry-run
 * limit therefore always counts as running.
 */
export function runningCurrentFrom(config: ProtectionConfig): number {
  const { dryRunBelow } = protectionLimits(config);
  return Math.max(SENSOR_NOISE_A, Math.min(NEAR_ZERO_CURRENT_A, dryRunBelow));
}

export function provesRunning(current: number, config: ProtectionConfig): boolean {
  return current >= runningCurrentFrom(config);
}

/** Which protection a running current breaches, if any (the box's rule, docs/device-protocol.md §7). */
export function breachOf(current: number, config: ProtectionConfig): "dryRun" | "overCurrent" | null {
  const { dryRunBelow, overCurrentAbove } = protectionLimits(config);
  if (current < dryRunBelow) return "dryRun";
  if (current > overCurrentAbove) return "overCurrent";
  return null;
}

/**
 * The hub's safety net judges the same way, except that next to no current is not a dry run:
 * the motor is not turning at all (no phase, its own overload relay, a broken sensor), which
 * the hub surfaces as "ON but drawing no current" rather than switching it off as a dry run.
 */
export function safetyNetBreachOf(current: number, config: ProtectionConfig): "dryRun" | "overCurrent" | null {
  const breach = breachOf(current, config);
  return breach === "dryRun" && !provesRunning(current, config) ? null : breach;
}

/** Supply voltage limits, in V and %: the box trips the motor outside them (docs/decisions/019). */
export type VoltageLimits = {
  /** The lowest phase below this many volts is an under-voltage. */
  underVoltage: number;
  /** The highest phase above this many volts is an over-voltage. */
  overVoltage: number;
  /** 3-phase only: the phase furthest from the average, this many percent off it, is an unbalance. */
  voltageUnbalance: number;
};

/**
 * The supply a motor of each kind is made for, as its box measures it (IS 12360): 230 V phase to
 * neutral on a 1-phase box, 415 V line to line on a 3-phase one.
 */
export const NOMINAL_VOLTS: Record<DeviceKind, number> = { "1phase": 230, "3phase": 415 };

/**
 * The limits a motor starts with (docs/decisions/019-voltage-protection.md): about 83 % and
 * 111 % of its nominal supply, and 6 % unbalance. Village feeders sag well below 230/415 V in
 * the evening; tighter limits would keep a pump from ever running there.
 */
export const DEFAULT_VOLTAGE_LIMITS: Record<DeviceKind, VoltageLimits> = {
  "1phase": { underVoltage: 190, overVoltage: 255, voltageUnbalance: 6 },
  "3phase": { underVoltage: 340, overVoltage: 460, voltageUnbalance: 6 },
};

type Range = { min: number; max: number };

/**
 * The limits a farmer may set, by the box's kind (docs/device-protocol.md §6, "Voltage limits by
 * kind"). Under-voltage stays below nominal and over-voltage above it, so a healthy supply
 * always lets the motor run; neither goes further out than 65 % and 120 % of nominal, where a
 * cut-off no longer protects a winding (below: a motor stalls and burns; above: its
 * insulation). Unbalance is judged on 3-phase boxes only.
 */
export const VOLTAGE_LIMIT_RANGES = {
  "1phase": {
    underVoltage: { min: 150, max: 220 },
    overVoltage: { min: 240, max: 275 },
    voltageUnbalance: { min: 2, max: 20 },
  },
  "3phase": {
    underVoltage: { min: 270, max: 400 },
    overVoltage: { min: 430, max: 495 },
    voltageUnbalance: { min: 2, max: 20 },
  },
} as const satisfies Record<DeviceKind, Record<keyof VoltageLimits, Range>>;

/** A setting left unset (null or absent) is the kind's default. */
export function voltageLimitsOf(
  kind: DeviceKind,
  set: Partial<Record<keyof VoltageLimits, number | null>> = {},
): VoltageLimits {
  const defaults = DEFAULT_VOLTAGE_LIMITS[kind];
  return {
    underVoltage: set.underVoltage ?? defaults.underVoltage,
    overVoltage: set.overVoltage ?? defaults.overVoltage,
    voltageUnbalance: set.voltageUnbalance ?? defaults.voltageUnbalance,
  };
}

/** The first of `limits` outside its range for a box of `kind`, with that range; null when all fit. */
export function voltageLimitOutOfRange(
  kind: DeviceKind,
  limits: VoltageLimits,
): ({ field: keyof VoltageLimits } & Range) | null {
  const ranges: Record<keyof VoltageLimits, Range> = VOLTAGE_LIMIT_RANGES[kind];
  for (const field of ["underVoltage", "overVoltage", "voltageUnbalance"] as const) {
    const { min, max } = ranges[field];
    if (limits[field] < min || limits[field] > max) return { field, min, max };
  }
  return null;
}

export type VoltageBreach = "underVoltage" | "overVoltage" | "voltageUnbalance";

/** The phase furthest from the average, in percent of the average (NEMA MG-1's unbalance). */
export function unbalancePercent(voltages: readonly number[]): number {
  if (voltages.length < 2) return 0;
  const average = voltages.reduce((sum, volts) => sum + volts, 0) / voltages.length;
  if (average <= 0) return 0;
  const furthest = Math.max(...voltages.map((volts) => Math.abs(volts - average)));
  return Math.round((furthest / average) * 1000) / 10;
}

/**
 * Which voltage limit a reading breaches, if any. No voltages (a box that does not measure
 * them) breach nothing; neither does a power cut (no supply, or every phase at zero), which
 * is its own fault and not an under-voltage. Unbalance is judged on 3-phase supplies only.
 */
export function voltageBreachOf(
  voltages: readonly number[] | null | undefined,
  supply: boolean,
  limits: VoltageLimits,
): VoltageBreach | null {
  if (!voltages?.length || !supply || voltages.every((volts) => volts === 0)) return null;
  if (Math.min(...voltages) < limits.underVoltage) return "underVoltage";
  if (Math.max(...voltages) > limits.overVoltage) return "overVoltage";
  if (voltages.length === 3 && unbalancePercent(voltages) > limits.voltageUnbalance) return "voltageUnbalance";
  return null;
}

/** SPEC §9: tolerance shown = current × dry run threshold / 100, to one decimal. */
export function toleranceAmperes(config: ProtectionConfig): number {
  return Math.round(((config.defaultCurrent * config.dryRunThreshold) / 100) * 10) / 10;
}

/**
 * Horsepower shown for a running current, to one decimal: SPEC §9's current × 718.78 × 0.58 /
 * 746 for a 3-phase motor (718.78 is 415 V × √3). A 1-phase motor runs on 230 V: the same
 * formula would call a 1 HP pump a 3 HP one. An estimate either way (power factor and
 * efficiency are assumed, not measured).
 */
export function horsePowerFor(current: number, kind: DeviceKind = "3phase"): number {
  const volts = kind === "3phase" ? 718.78 : 230;
  return Math.round(((current * volts * 0.58) / 746) * 10) / 10;
}
