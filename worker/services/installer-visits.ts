// The installer's visit as the pages ask for it (docs/user-area.md, "The installer's visit"):
// the same functions as /api/installer/* and /api/pumps/{deviceId}/installation, each answering
// a refusal as a value.
import type { AuthenticatedUser } from "../auth/sessions.ts";
import { getDb } from "../db/client.ts";
import { findInstallation, findInstaller, installedBy, markSeenByFarmer, stockOf } from "../db/installers.ts";
import { languageOf } from "../http/request-language.ts";
import { claimant, confirmClaim, startClaim } from "../installers/claims.ts";
import { commission, reportOf, runDryRunCheck, runTestRun, supplyReading } from "../installers/commissioning.ts";
import { handOver } from "../installers/installer-access.ts";
import { type Refusal, settle } from "./refusal.ts";

/** The installer's page: their name, their stock and the boxes they installed; null for any other account. */
export async function installerOverview(env: Env, user: AuthenticatedUser) {
  const db = getDb(env.DB);
  const installer = await findInstaller(db, user.id);
  if (!installer) return null;
  const [stock, installed] = await Promise.all([stockOf(db, user.id), installedBy(db, user.id)]);
  return {
    name: installer.name,
    stock: stock.map(({ deviceId, kind, via }) => ({ deviceId, kind, via })),
    installed: installed.map(({ installation, online }) => ({
      deviceId: installation.deviceId,
      online,
      installedAt: installation.installedAt,
      handedOverAt: installation.handedOverAt,
      report: reportOf(installation.report),
    })),
  };
}

/** Step 1 of a claim: the sticker's box id and code and the farmer's number; the farmer gets an SMS code. */
export async function claimBox(
  env: Env,
  request: Request,
  user: AuthenticatedUser,
  input: {
    deviceId: string;
    claimCode: string;
    farmerMobileNo: string;
    waitUntil: (promise: Promise<unknown>) => void;
  },
): Promise<{ ok: true } | Refusal> {
  const started = await settle(async () =>
    startClaim(env, {
      ...(await claimant(env, request, user)),
      deviceId: input.deviceId,
      claimCode: input.claimCode,
      farmerMobileNo: input.farmerMobileNo,
      waitUntil: input.waitUntil,
      language: languageOf(request),
    }),
  );
  return started.ok ? { ok: true } : started;
}

/** Step 2: the code the farmer read out links the box. */
export async function confirmBoxClaim(
  env: Env,
  request: Request,
  user: AuthenticatedUser,
  input: { deviceId: string; farmerMobileNo: string; code: string },
): Promise<{ ok: true } | Refusal> {
  const linked = await settle(async () => confirmClaim(env, { ...input, ...(await claimant(env, request, user)) }));
  return linked.ok ? { ok: true } : linked;
}

export async function handOverBox(
  env: Env,
  user: AuthenticatedUser,
  deviceId: string,
): Promise<{ ok: true } | Refusal> {
  const done = await settle(() => handOver(env, user.id, deviceId));
  return done.ok ? { ok: true } : done;
}

/** Commissioning, step 1: the supply on every phase, as the box reads it now. */
export function checkSupply(env: Env, user: AuthenticatedUser, deviceId: string) {
  return settle(() => supplyReading(env, user.id, deviceId));
}

/** Commissioning, step 2: the box's test run, and the settings suggested from it. */
export function testRunBox(env: Env, user: AuthenticatedUser, deviceId: string, seconds: number) {
  return settle(() => runTestRun(env, user.id, deviceId, seconds));
}

/** Commissioning, if the installer chooses it: the dry-run check of the settings set, kept in the report. */
export function dryRunCheckBox(env: Env, user: AuthenticatedUser, deviceId: string, seconds: number) {
  return settle(() => runDryRunCheck(env, user.id, deviceId, seconds));
}

/** Commissioning, step 3: the settings accepted or edited, saved, sent, and the report kept. */
export function commissionBox(
  env: Env,
  user: AuthenticatedUser,
  deviceId: string,
  input: { defaultCurrent: number; dryRunThreshold: number; overCurrentThreshold: number; feeder: string | null },
) {
  return settle(() => commission(env, { userId: user.id, mobileNo: user.mobileNo }, deviceId, input));
}

/**
 * What the user shell adds for the installer's visit, read side by side: whether the account is
 * an installer (a link to their page), and who installed the pump the owner has chosen while
 * they have not seen it yet (the hand-over card).
 */
export async function installerNotesOf(env: Env, userId: number, ownedDeviceId: string | null) {
  const db = getDb(env.DB);
  const [installer, installation] = await Promise.all([
    findInstaller(db, userId),
    ownedDeviceId === null ? undefined : findInstallation(db, ownedDeviceId),
  ]);
  return {
    isInstaller: installer !== undefined,
    // Only an installation for this owner: one for an owner before a relink is not theirs to see.
    handOver:
      installation && installation.farmerSeenAt === null && installation.farmerUserId === userId
        ? {
            deviceId: installation.deviceId,
            installerName: installation.installerName,
            installerMobileNo: installation.installerMobileNo,
            installedAt: installation.installedAt,
            report: reportOf(installation.report),
          }
        : null,
  };
}

/** The owner saw who installed their pump: the card goes, and the installer's access ends. */
export async function acknowledgeInstallation(env: Env, deviceId: string): Promise<void> {
  await markSeenByFarmer(getDb(env.DB), deviceId, Date.now());
}

/** Who installed a box, when it was handed over, and its commissioning report: the admin's user page. */
export async function installationForAdmin(env: Env, deviceId: string) {
  const found = await findInstallation(getDb(env.DB), deviceId);
  if (!found) return null;
  return {
    installerName: found.installerName,
    installerMobileNo: found.installerMobileNo,
    installedAt: found.installedAt,
    handedOverAt: found.handedOverAt,
    feeder: found.feeder,
    report: reportOf(found.report),
  };
}
