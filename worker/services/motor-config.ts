// Changing a motor's protection settings: saved in D1 with a history entry, then taken to the
// box by its hub (at once when online, else in the welcome of its next connection).

import type { MotorConfig } from "../../common/api-schemas.ts";
import { DEFAULT_MOTOR_CONFIG } from "../../common/constants.ts";
import type { DeviceKind } from "../../common/device-enums.ts";
import { translateApi } from "../../common/i18n/api.ts";
import type { MessageValues } from "../../common/i18n/catalogue.ts";
import type { Language } from "../../common/i18n/language.ts";
import { NOMINAL_VOLTS, voltageLimitOutOfRange, voltageLimitsOf } from "../../common/protection.ts";
import {
  isProtectionSetting,
  PROTECTION_SETTINGS,
  type ProtectionSettings,
  type SettingChange,
  unitOf,
  type WeakenedSetting,
  weakenedProtection,
} from "../../common/protection-changes.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner, motorConfigOf } from "../db/devices.ts";
import { findKeptSettings, type KeptSettings, saveKeptSettings, saveMotorConfigRows } from "../db/motor-config.ts";
import type { DeviceRow } from "../db/schema.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError, HttpError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

/** A box with an owner: only such a box has settings history to keep. */
export type OwnedDevice = DeviceRow & { ownerUserId: number };

/** The history note of a change the farmer made in the app (the API and the dashboard's form). */
export const OWNER_CHANGE_NOTE = "Changed by the owner in the app";

const FIELDS = [
  ["defaultCurrent", "default current", " A"],
  ["dryRunThreshold", "dry run threshold", " %"],
  ["overCurrentThreshold", "over current threshold", " %"],
  ["underVoltage", "under voltage", " V"],
  ["overVoltage", "over voltage", " V"],
  ["voltageUnbalance", "voltage unbalance", " %"],
] as const satisfies readonly (readonly [keyof MotorConfig, string, string])[];

/** The history's change note: who changed what, e.g. "Admin 9000000001: default current 1 → 8.9 A". */
export function adminChangeNote(adminMobileNo: string, before: MotorConfig, after: MotorConfig): string {
  // A voltage limit left out stays as it was; null puts back the kind's default.
  const changes = FIELDS.filter(([field]) => after[field] !== undefined && before[field] !== after[field]).map(
    ([field, label, unit]) =>
      `${label} ${before[field]} → ${after[field] ?? "default"}${after[field] === null ? "" : unit}`,
  );
  return `Admin ${adminMobileNo}: ${changes.length ? changes.join(", ") : "saved without changes"}`;
}

/** "dry run threshold 30 → 95 %": one weakened setting, as the history note and the API's words name it. */
function weakenedText(language: Language, { setting, from, to }: WeakenedSetting): string {
  return translateApi(language, "api.weakenedSetting", { setting, from, to, unit: unitOf(setting) });
}

/**
 * 409: the change weakens protection and nobody confirmed it. `params` names the settings
 * (`settings`, comma-separated, in the rules' order) and each one's `{setting}From` and
 * `{setting}To`, for programs; the words list them for people.
 */
function weakerProtectionUnconfirmed(weakened: WeakenedSetting[]): HttpError {
  const params: Record<string, string | number> = { settings: weakened.map(({ setting }) => setting).join(",") };
  for (const { setting, from, to } of weakened) {
    params[`${setting}From`] = from;
    params[`${setting}To`] = to;
  }
  return new HttpError(409, "weakerProtectionUnconfirmed", params, {}, (language) =>
    translateApi(language, "error.weakerProtectionUnconfirmed", {
      changes: weakened.map((change) => weakenedText(language, change)).join(", "),
    }),
  );
}

/** What a `weakerProtectionUnconfirmed` refusal lists, read back from its params (the pages' confirm step). */
export function weakenedSettingsOf(refusal: { params: MessageValues }): WeakenedSetting[] {
  const settings = String(refusal.params.settings ?? "").split(",");
  return settings.filter(isProtectionSetting).map((setting) => ({
    setting,
    from: Number(refusal.params[`${setting}From`]),
    to: Number(refusal.params[`${setting}To`]),
  }));
}

/**
 * The settings in force once `config` is saved on `device` (a voltage limit left out stays as it
 * was, an emptied one is the kind's default), and the stored row; 400 `voltageLimitOutOfRange`
 * with the range when a limit then in force lies outside the box's kind's range.
 */
function settingsAfter(device: DeviceRow, config: MotorConfig) {
  const given = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
  const after = { ...device, ...given };
  const inForce = motorConfigOf(after);
  const outOfRange = voltageLimitOutOfRange(device.kind, inForce);
  if (outOfRange) {
    throw apiError(400, "voltageLimitOutOfRange", {
      ...outOfRange,
      unit: unitOf(outOfRange.field),
      kind: device.kind,
      nominal: NOMINAL_VOLTS[device.kind],
    });
  }
  return { after, inForce };
}

/**
 * What saving `config` on `device` would change, for the owner to confirm before it is saved
 * (the settings page, docs/decisions/025-weaker-protection-asks-first.md): every setting in
 * force that moves, old → new, each marked where it weakens protection by the rule the save
 * applies. Refuses what saving refuses (a voltage limit outside its kind's range); saves nothing.
 */
export function motorConfigChanges(device: DeviceRow, config: MotorConfig): SettingChange[] {
  const before = motorConfigOf(device);
  const { inForce } = settingsAfter(device, config);
  const weakened = new Set(weakenedProtection(device.kind, before, inForce).map(({ setting }) => setting));
  return PROTECTION_SETTINGS.filter((setting) => before[setting] !== inForce[setting]).map((setting) => ({
    setting,
    from: before[setting],
    to: inForce[setting],
    weakens: setting !== "defaultCurrent" && weakened.has(setting),
  }));
}

/**
 * 409 `weakerProtectionUnconfirmed` for a change from `before` to `after` that weakens protection
 * unless `confirmed`; else what the history note adds (empty when nothing was weakened).
 */
function confirmedWeakening(
  kind: DeviceKind,
  before: ProtectionSettings,
  after: ProtectionSettings,
  confirmed: boolean,
): string {
  const weakened = weakenedProtection(kind, before, after);
  if (weakened.length > 0 && !confirmed) throw weakerProtectionUnconfirmed(weakened);
  return weakened.length
    ? `; weaker protection confirmed: ${weakened.map((setting) => weakenedText("en", setting)).join(", ")}`
    : "";
}

/**
 * Saves and sends a box's new settings; the history entry goes on its owner's account. A
 * voltage limit the change leaves out stays as it was; the limits then in force must lie in the
 * box's kind's ranges (400 `voltageLimitOutOfRange` with the range otherwise, nothing saved; a
 * limit saved before the ranges existed is held to them at the next change). A change that
 * weakens protection (common/protection-changes.ts) is saved only when `confirmedWeaker`
 * (409 `weakerProtectionUnconfirmed` otherwise, nothing saved), and its history note says
 * what was confirmed. Answers the settings now in force.
 */
export async function changeMotorConfig(
  env: Env,
  change: {
    device: OwnedDevice;
    config: MotorConfig;
    changedByUserId: number;
    changeNote: string;
    confirmedWeaker: boolean;
  },
): Promise<{ deliveredToDevice: boolean; config: ReturnType<typeof motorConfigOf> }> {
  const { device, config, changeNote, confirmedWeaker, changedByUserId } = change;
  const { after, inForce } = settingsAfter(device, config);
  const confirmedNote = confirmedWeakening(device.kind, motorConfigOf(device), inForce, confirmedWeaker);
  await saveMotorConfigRows(getDb(env.DB), {
    changedByUserId,
    changeNote: `${changeNote}${confirmedNote}`,
    config: {
      ...config,
      underVoltage: after.underVoltage,
      overVoltage: after.overVoltage,
      voltageUnbalance: after.voltageUnbalance,
    },
    deviceId: device.id,
    ownerUserId: device.ownerUserId,
    now: Date.now(),
  });
  const { delivered } = await deviceHub(env, device.id).updateConfig(inForce);
  return { deliveredToDevice: delivered, config: inForce };
}

/** The settings an admin's change left in force: a box's with its voltage limits, kept ones without. */
export type SettingsInForce = KeptSettings & Partial<ReturnType<typeof motorConfigOf>>;

/**
 * An admin's change of the settings SPEC §7 keys by number (PUT /api/admin/update-motor-config,
 * the admin's settings page): those of the account's first box. An account without a box keeps
 * them for its first box, which gets them when it is provisioned or linked to the account
 * (common/first-box-sql.ts): an installer sets the motor's current before the box is fitted. Only
 * SPEC's three numbers then, since voltage limits depend on the box's kind (400
 * `voltageLimitNeedsBox`; null, the kind's default, is what a new box has anyway). 404
 * `userNotFound` without the account. A change that weakens protection asks first either way.
 */
export async function changeAccountMotorConfig(
  env: Env,
  change: { mobileNo: string; config: MotorConfig; admin: { id: number; mobileNo: string }; confirmedWeaker: boolean },
): Promise<{ deliveredToDevice: boolean; config: SettingsInForce; keptForFirstBox: boolean }> {
  const { mobileNo, config, admin, confirmedWeaker } = change;
  const db = getDb(env.DB);
  const owner = await findUserByMobileNo(db, mobileNo);
  if (!owner) throw apiError(404, "userNotFound");
  // Each turn either saves or saw the account's boxes change (a box provisioned meanwhile).
  for (;;) {
    const device = await findDeviceByOwner(db, owner.id);
    if (device) {
      const changed = await changeMotorConfig(env, {
        device: { ...device, ownerUserId: owner.id },
        config,
        changedByUserId: admin.id,
        changeNote: adminChangeNote(admin.mobileNo, motorConfigOf(device), config),
        confirmedWeaker,
      });
      return { ...changed, keptForFirstBox: false };
    }
    const { underVoltage, overVoltage, voltageUnbalance, ...settings } = config;
    if ([underVoltage, overVoltage, voltageUnbalance].some((limit) => limit !== undefined && limit !== null)) {
      throw apiError(400, "voltageLimitNeedsBox");
    }
    const before = (await findKeptSettings(db, owner.id)) ?? DEFAULT_MOTOR_CONFIG;
    // The same voltage limits on both sides: only SPEC's numbers are compared.
    const voltage = voltageLimitsOf("3phase");
    const confirmedNote = confirmedWeakening(
      "3phase",
      { ...before, ...voltage },
      { ...settings, ...voltage },
      confirmedWeaker,
    );
    const kept = await saveKeptSettings(db, {
      userId: owner.id,
      settings,
      changedByUserId: admin.id,
      changeNote: `${adminChangeNote(admin.mobileNo, before, settings)} (kept for the first box)${confirmedNote}`,
      now: Date.now(),
    });
    if (kept) return { deliveredToDevice: false, config: settings, keptForFirstBox: true };
    // A box was provisioned for the account meanwhile: the settings are now that box's.
  }
}
