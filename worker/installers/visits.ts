// The installer's visit (docs/decisions/033-installers.md): an installer claims a box from their
// stock with the claim code on its sticker and the farmer's number; the farmer's SMS code, read
// to the installer, links the box to the farmer's account through the one relink of every access
// change (worker/services/pump-relink.ts), in the same D1 batch that uses up the claim code, so
// a claim code links a box once, whoever races. The hand-over ends the installer's access.
// Every function throws the API's refusals; worker/services/installer-visits.ts gives them to pages.

import { hashClaimCode } from "../../common/claim-codes.ts";
import {
  type CommissioningReport,
  commissioningReportSchema,
  type Measured,
  measuredSchema,
  type SuggestedSettings,
  suggestSettings,
} from "../../common/commissioning.ts";
import { generateDeviceKey, hashPassword } from "../../common/credentials.ts";
import type { TestRunOutcome } from "../../common/hub-contract.ts";
import { horsePowerFor } from "../../common/protection.ts";
import type { SqlStatement } from "../../common/sql-statement.ts";
import { checkCode, requestCode } from "../auth/one-time-codes.ts";
import type { AuthClient } from "../auth/throttle.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById } from "../db/devices.ts";
import {
  findClaim,
  findInstallation,
  findInstaller,
  findStockEntry,
  markClaimPending,
  markHandedOver,
  saveCommissioningReport,
  saveTestRun,
} from "../db/installers.ts";
import { users } from "../db/schema.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { hubFailureError } from "../hubs/hub-failures.ts";
import { changeMotorConfig } from "../services/motor-config.ts";
import { relinkPump } from "../services/pump-relink.ts";
import { configuredProvider, type TelephonyEnv } from "../telephony/config.ts";
import type { SmsLanguage } from "../telephony/sms-templates.ts";

export type VisitEnv = Env & TelephonyEnv;

/** The installer behind an account, or 403: only an admin makes one. */
export async function requireInstaller(env: Pick<Env, "DB">, userId: number) {
  const installer = await findInstaller(getDb(env.DB), userId);
  if (!installer) throw apiError(403, "notAnInstaller");
  return installer;
}

/**
 * Step 1: the installer scanned (or typed) box id and claim code and typed the farmer's number.
 * The box must be in their stock and unlinked, the code its sticker's and unused; the farmer's
 * number is then sent a code by SMS (throttled per number and client address as every code is),
 * and the claim waits for it.
 */
export async function startClaim(
  env: VisitEnv,
  claim: {
    installer: { userId: number; mobileNo: string };
    deviceId: string;
    claimCode: string;
    farmerMobileNo: string;
    client: AuthClient | null;
    waitUntil: (promise: Promise<unknown>) => void;
    language: SmsLanguage;
  },
) {
  const db = getDb(env.DB);
  await requireInstaller(env, claim.installer.userId);
  const stock = await findStockEntry(db, claim.deviceId);
  if (stock?.installerUserId !== claim.installer.userId) throw apiError(409, "boxNotInStock");
  const stored = await findClaim(db, claim.deviceId);
  const codeHash = await hashClaimCode(claim.deviceId, claim.claimCode);
  if (!stored || stored.codeHash !== codeHash) throw apiError(400, "wrongClaimCode");
  if (stored.usedAt !== null) throw apiError(409, "claimCodeUsed");
  if (stock.ownerUserId !== null) throw apiError(409, "boxNotInStock");
  if (
    !(await markClaimPending(db, {
      deviceId: claim.deviceId,
      codeHash,
      mobileNo: claim.farmerMobileNo,
      installerUserId: claim.installer.userId,
    }))
  ) {
    throw apiError(409, "claimCodeUsed");
  }
  return requestCode(env, {
    purpose: "claimBox",
    mobileNo: claim.farmerMobileNo,
    client: claim.client,
    waitUntil: claim.waitUntil,
    // The farmer may have no account yet: the code is how they come to have one.
    mayReceive: async () => true,
    deliver: async (code) => {
      await configuredProvider(env).sendSms({
        to: claim.farmerMobileNo,
        template: "boxClaimCode",
        language: claim.language,
        values: { code, mobileNo: claim.installer.mobileNo },
      });
    },
  });
}

/**
 * The statements that hold with the relink or not at all: the installation is written only
 * while the claim is this installer's for this number, unused, and the box has no owner (the
 * installer's name comes from that check, and is NOT NULL: a claim no longer live fails the
 * whole batch); the claim code is used up. The box stays in the installer's stock, which lists
 * only boxes without an owner.
 */
function claimStatements(claim: {
  deviceId: string;
  installerUserId: number;
  installerMobileNo: string;
  farmerMobileNo: string;
  farmerUserId: number;
  now: number;
}): SqlStatement[] {
  const { deviceId, installerUserId, installerMobileNo, farmerMobileNo, farmerUserId, now } = claim;
  return [
    {
      sql:
        "INSERT INTO installations (device_id, installer_user_id, installer_name, installer_mobile_no, farmer_user_id, installed_at) " +
        "VALUES (?1, ?2, (SELECT i.name FROM box_claims c JOIN installers i ON i.user_id = c.pending_by_user_id " +
        "WHERE c.device_id = ?1 AND c.used_at IS NULL AND c.pending_by_user_id = ?2 AND c.pending_mobile_no = ?4 " +
        "AND (SELECT owner_user_id FROM devices WHERE id = ?1) IS NULL), ?3, ?5, ?6) " +
        "ON CONFLICT (device_id) DO UPDATE SET installer_user_id = excluded.installer_user_id, " +
        "installer_name = excluded.installer_name, installer_mobile_no = excluded.installer_mobile_no, " +
        "farmer_user_id = excluded.farmer_user_id, installed_at = excluded.installed_at, handed_over_at = NULL, farmer_seen_at = NULL",
      params: [deviceId, installerUserId, installerMobileNo, farmerMobileNo, farmerUserId, now],
    },
    { sql: "UPDATE box_claims SET used_at = ?2 WHERE device_id = ?1 AND used_at IS NULL", params: [deviceId, now] },
  ];
}

/**
 * The farmer's account, made for them if the number has none: the code they read out proved the
 * number, so it is verified, and its password is random (the farmer signs in with a code, or
 * sets one with "forgot password"). An existing account is used as it is: a code does not
 * verify an account whose password someone else may have chosen (decision 027).
 */
async function farmerAccount(env: Pick<Env, "DB">, mobileNo: string, now: number) {
  const db = getDb(env.DB);
  const found = await findUserByMobileNo(db, mobileNo);
  if (found) return found;
  await db
    .insert(users)
    .values({ mobileNo, passwordHash: await hashPassword(generateDeviceKey()), createdAt: now, numberVerifiedAt: now })
    .onConflictDoNothing({ target: users.mobileNo });
  return (await findUserByMobileNo(db, mobileNo))!;
}

/**
 * Step 2: the installer types the code the farmer read out. A right code links the box to the
 * farmer (through the relink: its hub is told, and takes the settings kept for the account's
 * first box, if any), records the installation and uses up the claim code, all in one batch.
 */
export async function confirmClaim(
  env: VisitEnv,
  claim: {
    installer: { userId: number; mobileNo: string };
    deviceId: string;
    farmerMobileNo: string;
    code: string;
    client: AuthClient | null;
  },
): Promise<{ farmerUserId: number; hubConfirmed: boolean }> {
  const db = getDb(env.DB);
  await requireInstaller(env, claim.installer.userId);
  const stored = await findClaim(db, claim.deviceId);
  if (stored?.usedAt != null) throw apiError(409, "claimCodeUsed");
  if (!stored || stored.pendingByUserId !== claim.installer.userId || stored.pendingMobileNo !== claim.farmerMobileNo) {
    throw apiError(409, "noPendingClaim");
  }
  const check = await checkCode(env, {
    purpose: "claimBox",
    mobileNo: claim.farmerMobileNo,
    code: claim.code,
    client: claim.client,
  });
  if (!check.ok) {
    throw check.reason === "wrongCode"
      ? apiError(400, "wrongCode", { triesLeft: check.triesLeft })
      : apiError(400, "noCode");
  }
  const now = Date.now();
  const farmer = await farmerAccount(env, claim.farmerMobileNo, now);
  const statements = claimStatements({
    deviceId: claim.deviceId,
    installerUserId: claim.installer.userId,
    installerMobileNo: claim.installer.mobileNo,
    farmerMobileNo: claim.farmerMobileNo,
    farmerUserId: farmer.id,
    now,
  });
  try {
    const relink = await relinkPump(env, claim.deviceId, farmer.id, statements);
    if (!relink.found) throw apiError(409, "boxNotInStock");
    return { farmerUserId: farmer.id, hubConfirmed: relink.hubConfirmed };
  } catch (error) {
    // The batch's own check said no (NOT NULL): the claim was used or taken meanwhile, or the
    // box was linked by someone else. Nothing of it was written.
    if (
      error instanceof Error &&
      /NOT NULL constraint failed: installations\.installer_name/.test(String(error.message))
    ) {
      throw apiError(409, "claimCodeUsed");
    }
    throw error;
  }
}

/**
 * An installation still in its installer's hands: 404 for a box that was never theirs (as for
 * any box one may not see), 403 once it is handed over.
 */
export async function installationInHand(env: Pick<Env, "DB">, installerUserId: number, deviceId: string) {
  const installation = await findInstallation(getDb(env.DB), deviceId);
  if (!installation || installation.installerUserId !== installerUserId) throw apiError(404, "pumpNotFound");
  if (installation.handedOverAt !== null) throw apiError(403, "handedOver");
  return installation;
}

/** The installer hands the pump over: from now on they can do nothing with it. */
export async function handOver(env: Pick<Env, "DB">, installerUserId: number, deviceId: string): Promise<void> {
  await requireInstaller(env, installerUserId);
  await installationInHand(env, installerUserId, deviceId);
  if (!(await markHandedOver(getDb(env.DB), deviceId, installerUserId, Date.now()))) {
    throw apiError(403, "handedOver");
  }
}

/** Commissioning's first step: the box's own reading of the supply on every phase (a `power` it is asked for). */
export async function supplyReading(env: VisitEnv, installerUserId: number, deviceId: string) {
  await requireInstaller(env, installerUserId);
  await installationInHand(env, installerUserId, deviceId);
  const outcome = await deviceHub(env, deviceId).commissionSupply(installerUserId);
  if (!outcome.ok) {
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
  await requireInstaller(env, installerUserId);
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

function testRunRefusal(outcome: Exclude<TestRunOutcome, { ok: true }>) {
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
      return apiError(409, "testRunRefused", { error: outcome.error ?? "" });
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
  const found = await requireInstaller(env, installer.userId);
  const installation = await installationInHand(env, installer.userId, deviceId);
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
