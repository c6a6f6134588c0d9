// Commissioning a box in the installer's hands (docs/decisions/033-installers.md,
// docs/device-protocol.md §12): the supply the box reads, a test run it measures, and the
// settings accepted from it, kept as the box's report. Every function throws the API's refusals;
// worker/services/installer-visits.ts gives them to pages.
import {
  type CommissioningReport,
  commissioningReportSchema,
  type DryRunCheck,
  type Measured,
  measuredSchema,
  type SuggestedSettings,
  suggestSettings,
} from "../../common/commissioning.ts";
import type { DryRunCheckOutcome, TestRunOutcome } from "../../common/hub-contract.ts";
import { horsePowerFor } from "../../common/protection.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById } from "../db/devices.ts";
import { saveCommissioningReport, saveDryRunCheck, saveTestRun } from "../db/installers.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { hubFailureError } from "../hubs/hub-failures.ts";
import { changeMotorConfig } from "../services/motor-config.ts";
import { installationInHand, type VisitEnv } from "./installer-access.ts";

/** Commissioning's first step: the box's own reading of the supply on every phase (a `power` it is asked for). */
export async function supplyReading(env: VisitEnv, installerUserId: number, deviceId: string) {
  await installationInHand(env, installerUserId, deviceId);
  const outcome = await deviceHub(env, deviceId).commissionSupply(installerUserId);
  if (!outcome.ok) {
    if (outcome.code === "tooSoon") {
      throw apiError(429, "throttled", {}, { "Retry-After": String(Math.max(1, outcome.retryAfterSeconds)) });
    }
    throw outcome.code === "notAllowed"
      ? apiError(403, "handedOver")
      : hubFailureError({ ok: false, code: outcome.code });
  }
  return { voltages: outcome.voltages, everyPhase: outcome.everyPhase };
}

/**
 * Commissioning's test run: the box runs the motor for `seconds` and measures it
 * (DeviceHub.commissionTestRun, which checks the installation again itself). What it measured
 * is kept with the installation, so the report says what the box measured; the answer adds the
 * settings suggested from it.
 */
export async function runTestRun(
  env: VisitEnv,
  installerUserId: number,
  deviceId: string,
  seconds: number,
): Promise<{ measured: Measured; suggested: SuggestedSettings }> {
  await installationInHand(env, installerUserId, deviceId);
  const outcome = await deviceHub(env, deviceId).commissionTestRun(installerUserId, seconds);
  if (!outcome.ok) throw testRunRefusal(outcome);
  const measured: Measured = {
    voltages: outcome.voltages,
    surgeCurrent: outcome.surgeCurrent,
    runningCurrent: outcome.runningCurrent,
    ranSeconds: outcome.ranSeconds,
    at: new Date().toISOString(),
  };
  const db = getDb(env.DB);
  await saveTestRun(db, deviceId, JSON.stringify(measured));
  const device = await findDeviceById(db, deviceId);
  return { measured, suggested: suggestSettings(device?.kind ?? "3phase", measured.runningCurrent) };
}

/**
 * The dry-run check the installer may choose once the settings are set (DeviceHub.commissionDryRunCheck,
 * which checks the installation again itself): the box runs the motor with its own protection
 * while the installer closes the valve, and answers whether its dry-run protection stopped it.
 * Only a check of the settings set counts: a box applying another limit than the hub's settings
 * give (settings not delivered yet) is refused, nothing kept. The result goes into the report.
 */
export async function runDryRunCheck(
  env: VisitEnv,
  installerUserId: number,
  deviceId: string,
  seconds: number,
): Promise<{ check: DryRunCheck; report: CommissioningReport }> {
  const { installation } = await installationInHand(env, installerUserId, deviceId);
  const report = reportOf(installation.report);
  if (!report) throw apiError(409, "notCommissioned");
  const outcome: DryRunCheckOutcome = await deviceHub(env, deviceId).commissionDryRunCheck(installerUserId, seconds);
  if (!outcome.ok) throw testRunRefusal(outcome, "dryRunCheckRefused");
  // A hundredth of an ampere either way: both sides round the same product.
  if (Math.abs(outcome.tripBelow - outcome.expectedTripBelow) > 0.011) {
    throw apiError(409, "dryRunSettingsNotOnBox", { boxLimit: outcome.tripBelow, limit: outcome.expectedTripBelow });
  }
  const check: DryRunCheck = {
    tripped: outcome.tripped,
    current: outcome.current,
    tripBelow: outcome.tripBelow,
    ranSeconds: outcome.ranSeconds,
    at: new Date().toISOString(),
  };
  const checked: CommissioningReport = { ...report, dryRunCheck: check };
  await saveDryRunCheck(getDb(env.DB), deviceId, { report: JSON.stringify(checked), reportAt: report.at });
  return { check, report: checked };
}

function testRunRefusal(
  outcome: Exclude<TestRunOutcome, { ok: true }>,
  refused: "testRunRefused" | "dryRunCheckRefused" = "testRunRefused",
) {
  switch (outcome.code) {
    case "offline":
    case "timeout":
    case "linkLost":
      return hubFailureError({ ok: false, code: outcome.code });
    case "notAllowed":
      return apiError(403, "handedOver");
    case "busy":
      return apiError(409, "testRunBusy");
    case "motorRunning":
      return apiError(409, "motorRunning");
    case "rejected":
      return apiError(409, refused, { error: outcome.error ?? "" });
  }
}

/**
 * The installer accepts (or edits) the suggested settings: they are saved and sent to the box as
 * every change of settings is (`changeMotorConfig`: history, the hub, the box), the installer's
 * acceptance standing for the confirmation a weaker setting needs, and the report is kept with
 * the box: what the last test run measured, what it suggested, what was set, the feeder, who, when.
 */
export async function commission(
  env: VisitEnv,
  installer: { userId: number; mobileNo: string },
  deviceId: string,
  input: { defaultCurrent: number; dryRunThreshold: number; overCurrentThreshold: number; feeder: string | null },
): Promise<{ report: CommissioningReport; deliveredToDevice: boolean }> {
  const { installer: found, installation } = await installationInHand(env, installer.userId, deviceId);
  if (installation.testRun === null) throw apiError(409, "noTestRun");
  const measured = measuredSchema.parse(JSON.parse(installation.testRun));
  const db = getDb(env.DB);
  const device = await findDeviceById(db, deviceId);
  if (!device || device.ownerUserId === null) throw apiError(404, "pumpNotFound");
  const kind = device.kind;
  const settings = {
    defaultCurrent: input.defaultCurrent,
    dryRunThreshold: input.dryRunThreshold,
    overCurrentThreshold: input.overCurrentThreshold,
  };
  const changed = await changeMotorConfig(env, {
    device: { ...device, ownerUserId: device.ownerUserId },
    config: settings,
    changedByUserId: installer.userId,
    changeNote: `Commissioned by installer ${installer.mobileNo} from a test run measuring ${measured.runningCurrent} A`,
    confirmedWeaker: true,
  });
  const now = Date.now();
  const report: CommissioningReport = {
    measured,
    suggested: suggestSettings(kind, measured.runningCurrent),
    set: { ...settings, horsePower: horsePowerFor(settings.defaultCurrent, kind) },
    feeder: input.feeder,
    by: { name: found.name, mobileNo: installer.mobileNo },
    at: new Date(now).toISOString(),
    // New settings: a check of the ones before says nothing of them.
    dryRunCheck: null,
  };
  await saveCommissioningReport(db, deviceId, { report: JSON.stringify(report), feeder: input.feeder, now });
  return { report, deliveredToDevice: changed.deliveredToDevice };
}

/** A kept report, read back; null for none (or one this code cannot read). */
export function reportOf(json: string | null): CommissioningReport | null {
  if (json === null) return null;
  const parsed = commissioningReportSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}
