// The motor log, at home in the hub: every entry is written to the hub's SQLite (`motor_log`) in
// the same step as the change it records, so the output gate makes it durable before any answer
// leaves, and is shown to browsers at once. Nothing of it goes to D1: the box's history grows
// with its motor's days, and D1 holds what grows with farmers
// (docs/decisions/045-history-lives-with-its-box.md). The last few entries are kept in the hub's state
// for snapshots.
//
// Hubs from before kept the log in D1 (through an outbox). Until the move of D1's rows into the
// hubs has reached this box (worker/retention/move-logs-to-hubs.ts, which then tells the hub),
// the recent list also reads what D1 still holds of it; what an older hub still had in its
// outbox is moved into the log when the hub starts.
import { LIVE_MOTOR_LOG_LIMIT } from "../../common/constants.ts";
import { type MotorLogEvent, splitMotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { getDb } from "../../worker/db/client.ts";
import { listRecentMotorLogs, type MotorLogInsert, toMotorLogEntry } from "../../worker/db/motor-logs.ts";
import type { MotorLogRow } from "../../worker/db/schema.ts";
import { BoxActivity } from "./box-activity.ts";
import type { HubContext } from "./context.ts";
import { legacyMotorLogEvent } from "./legacy-motor-log.ts";
import { LogOutboxTable } from "./log-outbox-table.ts";
import { type MotorLogPageQuery, MotorLogTable } from "./motor-log-table.ts";
import { Room } from "./room.ts";

/** A motor log entry as the hub writes it. */
export type MotorLogLine = { action: MotorLogRow["action"]; event: MotorLogEvent };

/** A motor log an older hub left in its outbox for D1. */
export type OutboxRow = Omit<MotorLogInsert, "hubRef">;
/** What hubs stored in the outbox before entries had kinds: the sentence. */
export type LegacyOutboxRow = Omit<OutboxRow, "event"> & { message: string };

export function outboxRowOf(row: OutboxRow | LegacyOutboxRow): OutboxRow {
  if ("event" in row) return row;
  const { message, ...rest } = row;
  return { ...rest, event: legacyMotorLogEvent(message) };
}

/** Where outbox entry `outboxId` of `deviceId` was written in D1: how a moved row is known for the same entry. */
export const hubRefOf = (deviceId: string, outboxId: number) => `${deviceId}:${outboxId}`;

/** A page of the box's log from its hub, and whether D1 may still hold older entries of it. */
export type HubLogPage = { rows: MotorLogRow[]; d1MayHoldMore: boolean };

/** The recent list: newest first by id, each entry once, at most the live limit. */
export function newestEntries(rows: MotorLogRow[]): MotorLogEntry[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return [...byId.values()]
    .sort((a, b) => b.id - a.id)
    .slice(0, LIVE_MOTOR_LOG_LIMIT)
    .map((row) => toMotorLogEntry(row));
}

export class MotorLog extends Room {
  readonly #table: MotorLogTable;
  /** The box's row of the dashboard's figures, kept as entries are written. */
  readonly activity: BoxActivity;
  /** Moves on with every entry added or moved in, so a read of D1 knows if it raced one. */
  #changes = 0;

  constructor(hub: HubContext) {
    super(hub);
    this.#table = new MotorLogTable(hub.ctx.storage.sql, hub.deviceId);
    this.activity = new BoxActivity(hub, () => this.#table.count());
    this.#adoptOutbox();
  }

  /**
   * Records an entry: in the log (SQLite, in this same step), in the recent list and to every
   * browser. Entries keep the order in which they happened: their ids are that order. `at`:
   * when it happened, now unless said (a fixture that writes a box's past).
   */
  record(action: MotorLogRow["action"], event: MotorLogEvent, at = Date.now()): void {
    const { state, sockets } = this.hub;
    const owner = state.current.owner;
    const { kind, params } = splitMotorLogEvent(event);
    const row = this.#table.add({
      // The owner is named by their number at the time, as the admin's list reads it; an
      // account id kept here would outlive the account's deletion, which D1 cleared.
      userId: null,
      mobileNo: owner?.mobileNo ?? null,
      action,
      kind,
      params: JSON.stringify(params),
      createdAt: at,
    });
    this.hub.meter.wrote(row);
    this.#changes += 1;
    this.activity.noted(action, kind, row.createdAt);
    const entry = toMotorLogEntry(row);
    // Not read yet (a new hub, or one whose D1 rows are not all here): the first snapshot reads it.
    const cached = state.current.lastLogs;
    if (cached)
      state.save({ lastLogs: [entry, ...cached.filter((log) => log.id !== entry.id)].slice(0, LIVE_MOTOR_LOG_LIMIT) });
    sockets.broadcast({ type: "motorLogUpdate", log: entry });
  }

  /** The newest entries, read once and kept in the hub's state after. */
  async recent(): Promise<MotorLogEntry[]> {
    const { state, env, deviceId } = this.hub;
    for (;;) {
      if (state.current.lastLogs) return state.current.lastLogs;
      const changes = this.#changes;
      const fromD1 = this.#d1MayHoldMore()
        ? await listRecentMotorLogs(getDb(env.DB), deviceId, LIVE_MOTOR_LOG_LIMIT)
        : [];
      // An entry added, or D1's rows moved in, while D1 was read: read again.
      if (changes !== this.#changes) continue;
      // D1 holds none of this box's log, and nothing writes one there any more: never ask again.
      if (this.#d1MayHoldMore() && fromD1.length === 0) this.hub.ctx.storage.kv.put(LOGS_MOVED_KEY, true);
      const lastLogs = newestEntries([...this.#table.newest(LIVE_MOTOR_LOG_LIMIT), ...fromD1]);
      state.save({ lastLogs });
      return lastLogs;
    }
  }

  /** One page of the log, newest first; the caller reads D1 too while `d1MayHoldMore`. */
  page(query: MotorLogPageQuery): HubLogPage {
    return { rows: this.#table.page(query), d1MayHoldMore: this.#d1MayHoldMore() };
  }

  /** How many entries the hub holds. */
  count(): number {
    return this.#table.count();
  }

  /**
   * Rows the move brings from D1 (their D1 ids kept; one already here is not added twice).
   * `last`: D1 holds no more of this box, and is never read for it again.
   */
  importFromD1(rows: MotorLogRow[], last: boolean): { added: number } {
    const added = this.hub.ctx.storage.transactionSync(() => this.#table.importFromD1(rows));
    this.#changes += 1;
    if (added > 0) {
      this.hub.state.save({ lastLogs: null });
      this.activity.imported();
    }
    if (last) this.hub.ctx.storage.kv.put(LOGS_MOVED_KEY, true);
    return { added };
  }

  #d1MayHoldMore(): boolean {
    return this.hub.ctx.storage.kv.get(LOGS_MOVED_KEY) !== true;
  }

  /** An older hub's outbox, written into the log in one transaction, each with the D1 key it had. */
  #adoptOutbox(): void {
    const outbox = new LogOutboxTable(this.hub.ctx.storage.sql);
    const waiting = outbox.waiting<OutboxRow | LegacyOutboxRow>();
    if (waiting.length === 0) return;
    this.hub.ctx.storage.transactionSync(() => {
      for (const { id, row } of waiting) {
        const { event, deviceId: _deviceId, ...rest } = outboxRowOf(row);
        const { kind, params } = splitMotorLogEvent(event);
        this.#table.add({ ...rest, kind, params: JSON.stringify(params) }, hubRefOf(this.hub.deviceId, id));
      }
      outbox.removeUpTo(waiting.at(-1)!.id);
    });
  }
}

/** Set once D1 holds none of this box's log (the move reached it). */
const LOGS_MOVED_KEY = "motorLogMovedFromD1";
