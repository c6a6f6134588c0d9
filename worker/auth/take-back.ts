// Taking an account back: the holder of a number proves it with a code (a new password by a
// code, or the code a farmer reads to the installer who claims a box for them) and the account
// becomes theirs alone. Whoever registered the number before them may know its password and hold
// its sessions; so, in one D1 batch: the password is replaced (by the new one, or by a random one
// nobody knows, which only a code sets again), the number counts as verified, every session of
// the account ends with its phones' alerts, and the people the account added to its pumps while
// its number was unproven (`device_members.added_unverified`) go, with a notice to each pump's
// hub. Then the sockets of the ended sessions close and the hubs reload who may use them.
// One list of statements, so a password reset and a claim take an account back alike.
import { HUB_NOTICE_UPSERT, type HubNoticeRow } from "../../common/access-change-sql.ts";
import type { SqlStatement } from "../../common/sql-statement.ts";
import { deliverHubNotices, type NoticeEnv } from "../services/hub-notices.ts";
import { closeSessionSockets, type SocketEnv } from "./session-sockets.ts";

/** What the batch's statements answered, that the aftermath needs. */
export type TakenBack = { notices: HubNoticeRow[]; endedSessionIds: string[] };

/**
 * The statements of a take-back of account `accountId`, for a batch of the caller's: run them
 * first, as they are, and give their results to `takenBackFrom`.
 */
export function takeBackStatements(accountId: number, passwordHash: string, now: number): SqlStatement[] {
  return [
    {
      sql:
        "INSERT INTO hub_notices (device_id, asked_at) SELECT DISTINCT device_id, ?2 FROM device_members " +
        `WHERE invited_by_user_id = ?1 AND added_unverified = 1 ${HUB_NOTICE_UPSERT}`,
      params: [accountId, now],
    },
    { sql: "DELETE FROM device_members WHERE invited_by_user_id = ?1 AND added_unverified = 1", params: [accountId] },
    {
      sql:
        "UPDATE users SET password_hash = ?2, number_verified_at = coalesce(number_verified_at, ?3), " +
        "credentials_version = credentials_version + 1 WHERE id = ?1",
      params: [accountId, passwordHash, now],
    },
    {
      sql:
        "UPDATE sessions SET revoked_at = ?2, ended_by = 'passwordChanged' WHERE user_id = ?1 AND revoked_at IS NULL " +
        "RETURNING id",
      params: [accountId, now],
    },
    { sql: "DELETE FROM push_subscriptions WHERE user_id = ?1", params: [accountId] },
  ];
}

/** Reads the results of `takeBackStatements`' statements, in their order. */
export function takenBackFrom(results: readonly D1Result[]): TakenBack {
  return {
    notices: (results[0]?.results ?? []) as HubNoticeRow[],
    endedSessionIds: ((results[3]?.results ?? []) as { id: string }[]).map((row) => row.id),
  };
}

/** After the batch: the ended sessions' sockets close, and the hubs of the pumps that lost people reload them. */
export async function finishTakeBack(env: SocketEnv & NoticeEnv, takenBack: TakenBack): Promise<void> {
  await closeSessionSockets(env, { sessionIds: takenBack.endedSessionIds }, "signedOut");
  if (takenBack.notices.length > 0) await deliverHubNotices(env, takenBack.notices);
}

/** A take-back on its own (a new password by a code): how many sessions it ended. */
export async function takeBackAccount(
  env: SocketEnv & NoticeEnv,
  accountId: number,
  passwordHash: string,
): Promise<number> {
  const d1 = env.DB;
  const statements = takeBackStatements(accountId, passwordHash, Date.now());
  const results = await d1.batch(statements.map(({ sql, params }) => d1.prepare(sql).bind(...params)));
  const takenBack = takenBackFrom(results);
  await finishTakeBack(env, takenBack);
  return takenBack.endedSessionIds.length;
}
