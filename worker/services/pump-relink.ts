// Linking a box to another account, or to nobody: the one way it is done, for the admin API
// (PUT /api/admin/devices/{id}/owner) and, through the same statements, the operators' CLI
// (`npm run device -- assign`, which cannot reach a hub and asks POST /api/hub-notices instead).
// One D1 batch sets the owner and `linked_at`, removes the box's people and invitations (they were
// the old owner's), ends an installation not handed over (it was for the old owner) and leaves
// the hub its notice; then the hub is told, which closes the sockets of the old owner and their
// people.
import { type HubNoticeRow, type RelinkOwner, relinkStatements } from "../../common/access-change-sql.ts";
import type { SqlStatement } from "../../common/sql-statement.ts";
import { allConfirmed, deliverHubNotices, type NoticeEnv } from "./hub-notices.ts";

export type Relink =
  | { found: false }
  | {
      found: true;
      hubConfirmed: boolean /** What the caller's own statements answered, in their order. */;
      firstResults: D1Result[];
    };

/**
 * `first`: statements of the caller's own that must hold with the change or not at all (an
 * installer's claim, worker/installers/claims.ts), run before it in the same batch, on the rows
 * as they were; one that fails rolls the whole batch back.
 */
export async function relinkPump(
  env: NoticeEnv,
  deviceId: string,
  owner: RelinkOwner,
  first: SqlStatement[] = [],
): Promise<Relink> {
  const d1 = env.DB;
  const statements = [...first, ...relinkStatements({ deviceId, owner, now: Date.now() })];
  const results = await d1.batch(statements.map(({ sql, params }) => d1.prepare(sql).bind(...params)));
  if ((results.at(-1)?.results.length ?? 0) === 0) return { found: false };
  const notices = results[first.length]!.results as HubNoticeRow[];
  return {
    found: true,
    hubConfirmed: allConfirmed(await deliverHubNotices(env, notices)),
    firstResults: results.slice(0, first.length),
  };
}
