// Linking a box to another account, or to nobody: the one way it is done, for the admin API
// (PUT /api/admin/devices/{id}/owner) and, through the same statements, the operators' CLI
// (`npm run device -- assign`, which cannot reach a hub and asks POST /api/hub-notices instead).
// One D1 batch sets the owner and `linked_at`, removes the box's people and invitations (they were
// the old owner's) and leaves the hub its notice; then the hub is told, which closes the sockets
// of the old owner and their people.
import { type HubNoticeRow, relinkStatements } from "../../common/access-change-sql.ts";
import { allConfirmed, deliverHubNotices, type NoticeEnv } from "./hub-notices.ts";

export type Relink = { found: false } | { found: true; hubConfirmed: boolean };

export async function relinkPump(env: NoticeEnv, deviceId: string, ownerUserId: number | null): Promise<Relink> {
  const d1 = env.DB;
  const statements = relinkStatements({ deviceId, ownerUserId, now: Date.now() });
  const results = await d1.batch(statements.map(({ sql, params }) => d1.prepare(sql).bind(...params)));
  if ((results.at(-1)?.results.length ?? 0) === 0) return { found: false };
  const notices = results[0]!.results as HubNoticeRow[];
  return { found: true, hubConfirmed: allConfirmed(await deliverHubNotices(env, notices)) };
}
