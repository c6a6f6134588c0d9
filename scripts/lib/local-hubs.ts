// The hubs' own SQLite files in the local runtime's storage (`--persist-to`), read in place for
// the bench and the load test: a box's motor log lives in its hub, not in D1.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The hubs' SQLite files (one per box) in the local runtime's storage. */
function hubFiles(persistTo: string): string[] {
  const root = join(persistTo, "v3", "do");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((folder) => folder.endsWith("-DeviceHub"))
    .flatMap((folder) =>
      readdirSync(join(root, folder))
        .filter((name) => name.endsWith(".sqlite"))
        .map((name) => join(root, folder, name)),
    );
}

/**
 * What the boxes' logs gained in their hubs since `since`: entries, their bytes (each column's
 * stored size, as the hub's SQLite keeps it, without page overhead), the kinds the alert count
 * reads, and the SMS and calls their alerts claimed. A hub whose file is locked at that moment is read again.
 */
export function hubLogsSince(
  persistTo: string,
  since: number,
): { rows: number; bytes: number; kinds: Map<string, number>; alertDeliveries: number } {
  const total = { rows: 0, bytes: 0, kinds: new Map<string, number>(), alertDeliveries: 0 };
  for (const file of hubFiles(persistTo)) {
    for (let attempt = 0; attempt < 20; attempt++) {
      let db: DatabaseSync | null = null;
      try {
        db = new DatabaseSync(file, { readOnly: true, timeout: 500 });
        const hasLog = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'motor_log'").get();
        if (!hasLog) break;
        const rows = db
          .prepare(
            `SELECT kind, count(*) AS n,
               sum(8 + length(action) + length(kind) + length(params) + coalesce(length(mobile_no), 0) + 8) AS bytes
             FROM motor_log WHERE created_at >= ? GROUP BY kind`,
          )
          .all(since) as { kind: string; n: number; bytes: number }[];
        for (const row of rows) {
          total.rows += row.n;
          total.bytes += row.bytes;
          total.kinds.set(row.kind, (total.kinds.get(row.kind) ?? 0) + row.n);
        }
        // The SMS and calls the alerts claimed (sent or capped), kept in the pump's hub.
        const deliveries = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'alert_deliveries'").get()
          ? (db.prepare("SELECT count(*) AS n FROM alert_deliveries WHERE created_at >= ?").get(since) as { n: number })
          : { n: 0 };
        total.alertDeliveries += deliveries.n;
        break;
      } catch {
        // Locked by the runtime for a moment: try again.
      } finally {
        db?.close();
      }
    }
  }
  return total;
}
