// Who may act on a box in an installer's name (docs/decisions/033-installers.md): an account an
// admin made an installer, on a box they installed and have not handed over. The hand-over is
// here too: it is how that access ends. Every function throws the API's refusals;
// worker/services/installer-visits.ts gives them to pages.

import { getDb } from "../db/client.ts";
import { findInstallation, findInstaller, installationInHandsOf, markHandedOver } from "../db/installers.ts";
import { apiError } from "../http/http-error.ts";
import type { TelephonyEnv } from "../telephony/config.ts";

/** What the visit's steps reach: D1, the hubs, and the SMS provider for the farmer's code. */
export type VisitEnv = Env & TelephonyEnv;

/** The installer behind an account, or 403: only an admin makes one. */
export async function requireInstaller(env: Pick<Env, "DB">, userId: number) {
  const installer = await findInstaller(getDb(env.DB), userId);
  if (!installer) throw apiError(403, "notAnInstaller");
  return installer;
}

/**
 * The installer (403 for an account that is none) and an installation still in their hands: 404
 * for a box that was never theirs (as for any box one may not see), 403 once it is handed over
 * or the box has another owner than the farmer it was installed for (a relink ends it).
 */
export async function installationInHand(env: Pick<Env, "DB">, installerUserId: number, deviceId: string) {
  const installer = await requireInstaller(env, installerUserId);
  const db = getDb(env.DB);
  const installation = await findInstallation(db, deviceId);
  if (!installation || installation.installerUserId !== installerUserId) throw apiError(404, "pumpNotFound");
  if (!(await installationInHandsOf(db, installerUserId, deviceId))) throw apiError(403, "handedOver");
  return { installer, installation };
}

/** The installer hands the pump over: from now on they can do nothing with it. */
export async function handOver(env: Pick<Env, "DB">, installerUserId: number, deviceId: string): Promise<void> {
  await installationInHand(env, installerUserId, deviceId);
  if (!(await markHandedOver(getDb(env.DB), deviceId, installerUserId, Date.now()))) {
    throw apiError(403, "handedOver");
  }
}
