// Claiming a box (docs/decisions/033-installers.md): an installer claims a box from their
// stock with the claim code on its sticker and the farmer's number; the farmer's SMS code, read
// to the installer, links the box to the farmer's account through the one relink of every access
// change (worker/services/pump-relink.ts), in the same D1 batch that uses up the claim code, so
// a claim code links a box once, whoever races. Every function throws the API's refusals;
// worker/services/installer-visits.ts gives them to pages.
import { hashClaimCode } from "../../common/claim-codes.ts";
import { generateDeviceKey, hashPassword } from "../../common/credentials.ts";
import type { SqlStatement } from "../../common/sql-statement.ts";
import { checkCode, requestCode } from "../auth/one-time-codes.ts";
import { finishTakeBack, takeBackStatements, takenBackFrom } from "../auth/take-back.ts";
import { type AuthClient, authClientOf, type ThrottleEnv } from "../auth/throttle.ts";
import { getDb } from "../db/client.ts";
import { CLAIMABLE_SQL, claimableBy, findClaim, markClaimPending } from "../db/installers.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError } from "../http/http-error.ts";
import { relinkPump } from "../services/pump-relink.ts";
import { configuredProvider } from "../telephony/config.ts";
import type { SmsLanguage } from "../telephony/sms-templates.ts";
import { requireInstaller, type VisitEnv } from "./installer-access.ts";

/**
 * Who makes a claim, as each step wants them: the installer's account, and the client address
 * the code throttles count.
 */
export async function claimant(
  env: ThrottleEnv,
  request: Request,
  user: { id: number; mobileNo: string },
): Promise<{ installer: { userId: number; mobileNo: string }; client: AuthClient }> {
  return { installer: { userId: user.id, mobileNo: user.mobileNo }, client: await authClientOf(env, request) };
}

/**
 * Step 1: the installer scanned (or typed) box id and claim code and typed the farmer's number.
 * The box must be theirs to claim (in their stock, or their region's: CLAIMABLE_SQL) and unlinked, the code its sticker's and unused; the farmer's
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
  const stock = await claimableBy(db, claim.installer.userId, claim.deviceId);
  if (!stock) throw apiError(409, "boxNotInStock");
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
 * whole batch, and with it everything before: an account made for the farmer, a take-back),
 * and the box is still theirs to claim (CLAIMABLE_SQL: taken back from their stock, or their
 * region changed, since the first step, it is not); the claim code is used up. The box stays in
 * the installer's stock, which lists only boxes without an owner.
 */
function claimStatements(claim: {
  deviceId: string;
  installerUserId: number;
  installerMobileNo: string;
  farmerMobileNo: string;
  farmer: FarmerAccount;
  now: number;
}): SqlStatement[] {
  const { deviceId, installerUserId, installerMobileNo, farmerMobileNo, farmer, now } = claim;
  // ?4 is the farmer's number: an account made in this batch is found by it.
  const farmerId = typeof farmer === "number" ? "?6" : "(SELECT id FROM users WHERE mobile_no = ?4)";
  return [
    {
      sql:
        "INSERT INTO installations (device_id, installer_user_id, installer_name, installer_mobile_no, farmer_user_id, installed_at) " +
        "VALUES (?1, ?2, (SELECT i.name FROM box_claims c JOIN installers i ON i.user_id = c.pending_by_user_id " +
        "WHERE c.device_id = ?1 AND c.used_at IS NULL AND c.pending_by_user_id = ?2 AND c.pending_mobile_no = ?4 " +
        "AND (SELECT owner_user_id FROM devices WHERE id = ?1) IS NULL " +
        `AND ${CLAIMABLE_SQL("?1", "?2")}), ?3, ${farmerId}, ?5) ` +
        "ON CONFLICT (device_id) DO UPDATE SET installer_user_id = excluded.installer_user_id, " +
        "installer_name = excluded.installer_name, installer_mobile_no = excluded.installer_mobile_no, " +
        "farmer_user_id = excluded.farmer_user_id, installed_at = excluded.installed_at, handed_over_at = NULL, farmer_seen_at = NULL",
      params: [
        deviceId,
        installerUserId,
        installerMobileNo,
        farmerMobileNo,
        now,
        ...(typeof farmer === "number" ? [farmer] : []),
      ],
    },
    { sql: "UPDATE box_claims SET used_at = ?2 WHERE device_id = ?1 AND used_at IS NULL", params: [deviceId, now] },
  ];
}

/** The account a claimed box goes to: one that exists (by id), or the one this claim makes. */
type FarmerAccount = number | { accountOf: string };

/**
 * Who the box goes to, and what must happen to their account in the same batch: the code the
 * farmer read out proved the number. No account: one is made, verified, with a random password
 * (the farmer signs in with a code, or sets one with "forgot password"). An account whose number
 * nobody proved may be a neighbour's who registered the number first and knows its password:
 * the code takes it back (take-back.ts: its sessions end, its password is one nobody knows, the
 * people it added unproven go), so the box never reaches whoever chose that password. A verified
 * account is used as it is.
 */
async function farmerAccount(
  env: Pick<Env, "DB">,
  mobileNo: string,
  now: number,
): Promise<{ farmer: FarmerAccount; statements: SqlStatement[]; takesBack: boolean }> {
  const found = await findUserByMobileNo(getDb(env.DB), mobileNo);
  const unknownPassword = await hashPassword(generateDeviceKey());
  if (!found) {
    // No ON CONFLICT: a registration of the number since the read above fails the batch, and
    // the claim is tried again against that account.
    const made = {
      sql: "INSERT INTO users (mobile_no, password_hash, created_at, number_verified_at) VALUES (?1, ?2, ?3, ?3)",
      params: [mobileNo, unknownPassword, now],
    };
    return { farmer: { accountOf: mobileNo }, statements: [made], takesBack: false };
  }
  if (found.numberVerifiedAt === null) {
    return { farmer: found.id, statements: takeBackStatements(found.id, unknownPassword, now), takesBack: true };
  }
  return { farmer: found.id, statements: [], takesBack: false };
}

/** The batch failed because the number was registered after the claim read it: a new account may not be made. */
const numberTaken = (error: unknown) =>
  error instanceof Error && /UNIQUE constraint failed: users\.mobile_no/.test(String(error.message));

/**
 * Step 2: the installer types the code the farmer read out. A right code links the box to the
 * farmer (through the relink: its hub is told, and takes the settings kept for the account's
 * first box, if any), records the installation and uses up the claim code, all in one batch with
 * whatever the farmer's account needs (farmerAccount); a claim refused there writes nothing.
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
  if (stored?.usedAt != null) {
    // The same confirmation again (a slow line, a second tap): the success it was.
    const repeat = await linkedByThisClaim(env, claim, stored.usedAt);
    if (repeat) return repeat;
    throw apiError(409, "claimCodeUsed");
  }
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
  for (let attempt = 1; ; attempt++) {
    try {
      return await linkToFarmer(env, claim);
    } catch (error) {
      // Registered a moment ago by someone: the account exists now, and the code takes it back.
      if (attempt === 1 && numberTaken(error)) continue;
      throw error;
    }
  }
}

/** How long after a link its confirmation, sent again, is answered as the success it was. */
const REPEAT_WINDOW_MS = 15 * 60_000;

/**
 * Whether this installer's claim for this number is what linked the box, a moment ago, and the
 * box is still that farmer's: then a confirmation sent again is that success (the code it
 * carries is used up by the first, so it is not checked again; it proves nothing new and gets
 * nothing new). `hubConfirmed`: no notice for the box's hub is still waiting.
 */
async function linkedByThisClaim(
  env: VisitEnv,
  claim: { installer: { userId: number }; deviceId: string; farmerMobileNo: string },
  usedAt: number,
  now = Date.now(),
): Promise<{ farmerUserId: number; hubConfirmed: boolean } | null> {
  if (now - usedAt > REPEAT_WINDOW_MS) return null;
  const row = await env.DB.prepare(
    "SELECT u.id AS farmerUserId, NOT EXISTS (SELECT 1 FROM hub_notices n WHERE n.device_id = c.device_id) AS hubConfirmed " +
      "FROM box_claims c JOIN installations i ON i.device_id = c.device_id " +
      "JOIN devices d ON d.id = c.device_id JOIN users u ON u.id = d.owner_user_id " +
      "WHERE c.device_id = ?1 AND c.pending_by_user_id = ?2 AND c.pending_mobile_no = ?3 " +
      "AND i.installer_user_id = ?2 AND i.farmer_user_id = u.id AND u.mobile_no = ?3",
  )
    .bind(claim.deviceId, claim.installer.userId, claim.farmerMobileNo)
    .first<{ farmerUserId: number; hubConfirmed: number }>();
  return row ? { farmerUserId: row.farmerUserId, hubConfirmed: row.hubConfirmed === 1 } : null;
}

async function linkToFarmer(
  env: VisitEnv,
  claim: { installer: { userId: number; mobileNo: string }; deviceId: string; farmerMobileNo: string },
): Promise<{ farmerUserId: number; hubConfirmed: boolean }> {
  const db = getDb(env.DB);
  const now = Date.now();
  const account = await farmerAccount(env, claim.farmerMobileNo, now);
  const statements = [
    ...account.statements,
    ...claimStatements({
      deviceId: claim.deviceId,
      installerUserId: claim.installer.userId,
      installerMobileNo: claim.installer.mobileNo,
      farmerMobileNo: claim.farmerMobileNo,
      farmer: account.farmer,
      now,
    }),
  ];
  try {
    const relink = await relinkPump(env, claim.deviceId, account.farmer, statements);
    if (!relink.found) throw apiError(409, "boxNotInStock");
    if (account.takesBack) await finishTakeBack(env, takenBackFrom(relink.firstResults));
    const farmerUserId =
      typeof account.farmer === "number" ? account.farmer : (await findUserByMobileNo(db, claim.farmerMobileNo))!.id;
    return { farmerUserId, hubConfirmed: relink.hubConfirmed };
  } catch (error) {
    // The batch's own check said no (NOT NULL): the claim was used or taken meanwhile, the box
    // was linked by someone else, or it is no longer theirs to claim (taken back, region
    // changed). Nothing of it was written: no account made, none taken back.
    if (
      error instanceof Error &&
      /NOT NULL constraint failed: installations\.installer_name/.test(String(error.message))
    ) {
      const stillClaimable = await claimableBy(db, claim.installer.userId, claim.deviceId);
      throw stillClaimable ? apiError(409, "claimCodeUsed") : apiError(409, "boxNotInStock");
    }
    throw error;
  }
}
