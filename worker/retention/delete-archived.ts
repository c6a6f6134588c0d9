// Rows leave D1 only once their archive object holds them, by their ids, all or none.
import { inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { adminAudit, motorLogs, paymentEvents, payments, planPeriods, rechargeRequests } from "../db/schema.ts";

type ArchivedTable =
  | typeof motorLogs
  | typeof adminAudit
  | typeof payments
  | typeof paymentEvents
  | typeof planPeriods
  | typeof rechargeRequests;

/** D1 binds at most 100 values a statement. */
const IDS_PER_DELETE = 90;

/** Deletes the rows `ids` names, in one D1 batch (one transaction: all or none). */
export async function deleteArchivedRows(db: Db, table: ArchivedTable, ids: number[]) {
  const statements = [];
  for (let start = 0; start < ids.length; start += IDS_PER_DELETE) {
    statements.push(db.delete(table).where(inArray(table.id, ids.slice(start, start + IDS_PER_DELETE))));
  }
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}
