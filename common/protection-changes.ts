// Which settings of a change weaken a motor's protection (docs/decisions/025-weaker-protection-asks-first.md):
// a threshold or voltage limit moved toward "never trips" by more than a sensible step, or into
// the zone where its protection is as good as off. Such a change is saved only once the person
// confirmed it, having seen old → new; the pages ask, the API answers 409 until
// `confirmWeakerProtection: true` comes with it. Used by the settings service and the pages alike.
import type { DeviceKind } from "./device-enums.ts";
import type { ProtectionConfig, VoltageLimits } from "./protection.ts";

/** A motor's settings in force: what the box enforces. */
export type ProtectionSettings = ProtectionConfig & VoltageLimits;

/** Every setting, in the order the settings forms show them (and the motor config's fields). */
export const PROTECTION_SETTINGS = [
  "defaultCurrent",
  "dryRunThreshold",
  "overCurrentThreshold",
  "underVoltage",
  "overVoltage",
  "voltageUnbalance",
] as const satisfies readonly (keyof ProtectionSettings)[];

/** The settings that switch or loosen a protection (the running current is the motor's own figure). */
export type ProtectionSetting = Exclude<keyof ProtectionSettings, "defaultCurrent">;

export type WeakenedSetting = { setting: ProtectionSetting; from: number; to: number };

/** Any setting a change moves, in force before and after; `weakens`: it loosens protection by the rules below. */
export type SettingChange = { setting: keyof ProtectionSettings; from: number; to: number; weakens: boolean };

type Rule = {
  /** Which way the setting moves when its protection loosens. */
  looser: "up" | "down";
  /** A move toward looser by more than this asks first (the setting's own unit). */
  step: number | Record<DeviceKind, number>;
  /** At or beyond this the protection is as good as off: any move into it asks first. */
  off?: number;
};

/**
 * The rules, in the order a confirmation lists them. Dry run at 70 % trips only below 30 % of the
 * running current, less than a pump running dry still draws; overcurrent at 100 % only at twice
 * the running current, which a winding does not survive for long. Voltage steps are about 5 % of
 * the kind's nominal supply (230 V, 415 V). 0 % on a threshold is its strictest setting, not off:
 * any dip below (or rise above) the running current trips.
 */
export const WEAKENING_RULES: Record<ProtectionSetting, Rule> = {
  dryRunThreshold: { looser: "up", step: 10, off: 70 },
  overCurrentThreshold: { looser: "up", step: 10, off: 100 },
  underVoltage: { looser: "down", step: { "1phase": 10, "3phase": 20 } },
  overVoltage: { looser: "up", step: { "1phase": 10, "3phase": 20 } },
  voltageUnbalance: { looser: "up", step: 2 },
};

const SETTINGS = Object.keys(WEAKENING_RULES) as ProtectionSetting[];

export function isProtectionSetting(name: string): name is ProtectionSetting {
  return Object.hasOwn(WEAKENING_RULES, name);
}

/** The settings `after` weakens compared with `before` (both as in force), in WEAKENING_RULES' order. */
export function weakenedProtection(
  kind: DeviceKind,
  before: ProtectionSettings,
  after: ProtectionSettings,
): WeakenedSetting[] {
  return SETTINGS.filter((setting) => {
    // A 1-phase box has no phases to be unbalanced: its unbalance limit protects nothing.
    if (setting === "voltageUnbalance" && kind === "1phase") return false;
    const { looser, step, off } = WEAKENING_RULES[setting];
    const loosened = (after[setting] - before[setting]) * (looser === "up" ? 1 : -1);
    if (loosened <= 0) return false;
    const stepOfKind = typeof step === "number" ? step : step[kind];
    return loosened > stepOfKind || (off !== undefined && after[setting] >= off);
  }).map((setting) => ({ setting, from: before[setting], to: after[setting] }));
}

/** What a weakening setting is measured in. */
export function unitOf(setting: ProtectionSetting): "%" | "V" {
  return setting === "underVoltage" || setting === "overVoltage" ? "V" : "%";
}
