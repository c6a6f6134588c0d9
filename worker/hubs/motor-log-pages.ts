// A page of a box's motor log as the API and the pages read it: from the box's hub, where the
// log lives (one RPC); from D1 as well while the move of D1's rows into the hubs has not reached
// the box (worker/retention/move-logs-to-hubs.ts); then from the R2 archive of past months. Ids
// are comparable across the three (durable-objects/device-hub/motor-log-table.ts), so one
// newest-first order by id pages through all of them, each row once.
import { getDb } from "../db/client.ts";
import { listMotorLogsPage } from "../db/motor-logs.ts";
import type { MotorLogRow } from "../db/schema.ts";
import { withArchivedLogs } from "../retention/motor-log-archive.ts";
import { deviceHub } from "./device-hubs.ts";

export type MotorLogPageRequest = { limit: number; before?: number; since?: number };

export async function motorLogsPage(
  env: Pick<Env, "DB" | "ARCHIVE" | "DEVICE_HUB">,
  deviceId: string,
  { limit, before, since }: MotorLogPageRequest,
): Promise<MotorLogRow[]> {
  const fromHub = await deviceHub(env, deviceId).motorLogPage({ limit, before, since });
  const fromD1 = fromHub.d1MayHoldMore ? await listMotorLogsPage(getDb(env.DB), deviceId, limit, before, since) : [];
  const byId = new Map([...fromD1, ...fromHub.rows].map((row) => [row.id, row]));
  const recent = [...byId.values()].sort((a, b) => b.id - a.id).slice(0, limit);
  return withArchivedLogs(env.ARCHIVE, deviceId, recent, limit, before, since);
}

/**
 * One newest-first page of several boxes' logs together (a farmer's boxes, for the admin): each
 * box's own page, one more row than asked, merged by id. One RPC a box, in parallel; nothing
 * counts or scans beyond those pages. `nextBefore` is the `before` of the next page: null when
 * no box has anything older than this page's last row.
 *
 * Two boxes' hubs can give the same id (both from the same millisecond), and "older than id N"
 * would then skip the one left out: the page keeps every row sharing its last id, a row or two
 * past `limit`. Every such row was read: a box whose page stopped above that id would have had
 * more rows above it than the page holds.
 */
export async function newestOfBoxes(
  env: Pick<Env, "DB" | "ARCHIVE" | "DEVICE_HUB">,
  deviceIds: readonly string[],
  { limit, before }: { limit: number; before?: number },
): Promise<{ rows: MotorLogRow[]; nextBefore: number | null }> {
  const pages = await Promise.all(
    deviceIds.map((deviceId) => motorLogsPage(env, deviceId, { limit: limit + 1, before })),
  );
  const merged = pages.flat().sort((a, b) => b.id - a.id);
  if (merged.length <= limit) return { rows: merged, nextBefore: null };
  const lastId = merged[limit - 1]!.id;
  const rows = merged.filter((row) => row.id >= lastId);
  return { rows, nextBefore: rows.length < merged.length ? lastId : null };
}
