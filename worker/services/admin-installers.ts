// What an admin does with installers (docs/admin-area.md, "Installers"): make a verified account
// an installer, give and take back the boxes of their stock, set their region, and tag the boxes
// of a region. The one implementation behind both /api/admin/installers* and the
// /admin/installers page. Every function throws the API's refusals (`settle` gives them to the page).
import { getDb } from "../db/client.ts";
import {
  addToStock,
  findInstaller,
  listInstallers,
  removeFromStock,
  setInstallerRegion,
  tagBoxRegion,
  upsertInstaller,
} from "../db/installers.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError } from "../http/http-error.ts";

export type InstallerView = {
  userId: number;
  mobileNo: string;
  name: string;
  region: string | null;
  /** Boxes in their stock not yet linked, and their ids. */
  stockCount: number;
  stock: string[];
  /** Unlinked boxes of their region in nobody's stock. */
  regionCount: number;
  /** Boxes they linked to a farmer. */
  installs: number;
};

export async function installerList(env: Pick<Env, "DB">): Promise<InstallerView[]> {
  const rows = await listInstallers(getDb(readsThatMayLag(env)));
  return rows.map(({ installer, mobileNo, stockCount, stockIds, regionCount, installs }) => ({
    userId: installer.userId,
    mobileNo,
    name: installer.name,
    region: installer.region,
    stockCount: Number(stockCount),
    stock: stockIds ? stockIds.split(" ") : [],
    regionCount: Number(regionCount),
    installs: Number(installs),
  }));
}

/**
 * Makes the account of `mobileNo` an installer (or renames one). `onTarget` names the account
 * for the audit trail as soon as it is known. 404 `userNotFound`, 409 `numberNotVerified`.
 */
export async function makeInstaller(
  env: Pick<Env, "DB">,
  input: { mobileNo: string; name: string; adminUserId: number; onTarget?: (target: string) => void },
) {
  const db = getDb(env.DB);
  const account = await findUserByMobileNo(db, input.mobileNo);
  if (!account) throw apiError(404, "userNotFound");
  input.onTarget?.(`user:${account.id}`);
  // The farmer calls this number after the hand-over: its holder must have proved it.
  if (account.numberVerifiedAt === null) throw apiError(409, "numberNotVerified");
  const installer = await upsertInstaller(db, {
    userId: account.id,
    name: input.name,
    createdByUserId: input.adminUserId,
    now: Date.now(),
  });
  return { userId: installer.userId, mobileNo: input.mobileNo, name: installer.name, region: installer.region };
}

async function requireInstallerAccount(env: Pick<Env, "DB">, userId: number) {
  const installer = await findInstaller(getDb(env.DB), userId);
  if (!installer) throw apiError(404, "notAnInstaller");
  return installer;
}

/** Boxes (existing, unlinked, in nobody else's stock) into an installer's stock; the ids taken. */
export async function giveStock(env: Pick<Env, "DB">, userId: number, deviceIds: string[]) {
  await requireInstallerAccount(env, userId);
  return addToStock(getDb(env.DB), userId, deviceIds, Date.now());
}

/** Unused (unlinked) boxes out of an installer's stock; the ids taken back. */
export async function takeBackStock(env: Pick<Env, "DB">, userId: number, deviceIds: string[]) {
  await requireInstallerAccount(env, userId);
  return removeFromStock(getDb(env.DB), userId, deviceIds);
}

/** The region whose unlinked boxes the installer may claim from now on (null: their stock only). */
export async function setRegion(env: Pick<Env, "DB">, userId: number, region: string | null) {
  const row = await setInstallerRegion(getDb(env.DB), userId, region);
  if (!row) throw apiError(404, "notAnInstaller");
  return { userId: row.userId, name: row.name, region: row.region };
}

/** Tags boxes waiting for a farmer with a region; the ids tagged (linked ones and unknown ids are left out). */
export function tagBoxes(env: Pick<Env, "DB">, deviceIds: string[], region: string | null) {
  return tagBoxRegion(getDb(env.DB), deviceIds, region);
}
