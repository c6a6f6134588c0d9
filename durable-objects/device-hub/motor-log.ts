// The motor log, as the hub writes it: every entry goes to an outbox in the hub's SQLite
// first, then to D1; an entry D1 refused waits there and the flush-logs timer tries again
// (D1's unique `hub_ref` makes a retry of a write that did land a no-op). The last few
// entries are kept in the hub's state for snapshots and sent to browsers as they happen.
import { LIVE_MOTOR_LOG_LIMIT } from "../../common/constants.ts";
import type { MotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { getDb } from "../../worker/db/client.ts";
import {
  insertMotorLog,
  listRecentMotorLogs,
  type MotorLogInsert,
  motorLogEntry,
  toMotorLogEntry,
} from "../../worker/db/motor-logs.ts";
import type { MotorLogRow } from "../../worker/db/schema.ts";
import { legacyMotorLogEvent } from "./legacy-motor-log.ts";
import { Room } from "./room.ts";
import { TIMERS } from "./timers.ts";

const LOG_FLUSH_RETRY_MS = 30_000;

/** A motor log entry as the hub writes it. */
export type MotorLogLine = { action: MotorLogRow["action"]; event: MotorLogEvent };

/** A motor log waiting in the outbox for D1. */
export type OutboxRow = Omit<MotorLogInsert, "hubRef">;
/** What hubs stored in the outbox before entries had kinds: the sentence. */
export type LegacyOutboxRow = Omit<OutboxRow, "event"> & { message: string };

export function outboxRowOf(row: OutboxRow | LegacyOutboxRow): OutboxRow {
  if ("event" in row) return row;
  const { message, ...rest } = row;
  return { ...rest, event: legacyMotorLogEvent(message) };
}

/** The recent list with `entry` on top: newest first, each entry once, at most the live limit. */
export function withNewest(entry: MotorLogEntry, recent: MotorLogEntry[]): MotorLogEntry[] {
  return [entry, ...recent.filter((log) => log.id !== entry.id)].slice(0, LIVE_MOTOR_LOG_LIMIT);
}

export class MotorLog extends Room {
  /** The entries still being written, in the order they happened. */
  #queue: Promise<void> = Promise.resolve();

  /**
   * Entries are written one after another: each waits on D1, and two events of the same
   * millisecond (a phase lost and back) would otherwise reach D1, and the list, swapped.
   */
  record(action: MotorLogRow["action"], event: MotorLogEvent): Promise<void> {
    const now = Date.now();
    const written = this.#queue.then(() => this.#write(action, event, now));
    this.#queue = written.catch(() => undefined);
    return written;
  }

  /** The newest entries, read from D1 the first time and kept in the hub's state after. */
  async recent(): Promise<MotorLogEntry[]> {
    const { state, env, deviceId } = this.hub;
    if (state.current.lastLogs) return state.current.lastLogs;
    const rows = await listRecentMotorLogs(getDb(env.DB), deviceId, LIVE_MOTOR_LOG_LIMIT);
    const lastLogs = rows.map((row) => toMotorLogEntry(row));
    state.save({ lastLogs });
    return lastLogs;
  }

  /** The flush-logs timer: writes what waits in the outbox, oldest first, until D1 refuses one. */
  async flushOutbox(): Promise<void> {
    for (const { id, row } of this.hub.sql.outbox<OutboxRow | LegacyOutboxRow>()) {
      try {
        await this.#flush(id, outboxRowOf(row));
      } catch (error) {
        this.hub.logError("D1 log retry failed", error);
        this.hub.timers.set(TIMERS.flushLogs, Date.now() + LOG_FLUSH_RETRY_MS);
        return;
      }
    }
  }

  async #write(action: MotorLogRow["action"], event: MotorLogEvent, now: number): Promise<void> {
    const { state, sql, sockets, deviceId } = this.hub;
    const owner = state.current.owner;
    const row: OutboxRow = {
      deviceId,
      userId: owner?.userId ?? null,
      mobileNo: owner?.mobileNo ?? null,
      action,
      event,
      createdAt: now,
    };
    // Read before this entry exists in D1, or a first load would list it twice.
    const previous = await this.recent();
    // Outbox first: if D1 is unreachable the log waits here and the alarm retries it.
    const outboxId = sql.addToOutbox(row);
    let entry: MotorLogEntry = motorLogEntry(-outboxId, action, event, now);
    try {
      entry = toMotorLogEntry(await this.#flush(outboxId, row));
    } catch (error) {
      this.hub.logError("D1 log write failed, will retry", error);
      this.hub.timers.set(TIMERS.flushLogs, now + LOG_FLUSH_RETRY_MS);
    }
    // Another log may have been written while this one waited for D1: build on the newest list.
    state.save({ lastLogs: withNewest(entry, state.current.lastLogs ?? previous) });
    sockets.broadcast({ type: "motorLogUpdate", log: entry });
  }

  async #flush(outboxId: number, row: OutboxRow): Promise<MotorLogRow> {
    const stored = await insertMotorLog(getDb(this.hub.env.DB), {
      ...row,
      hubRef: `${this.hub.deviceId}:${outboxId}`,
    });
    this.hub.sql.removeFromOutbox(outboxId);
    return stored;
  }
}
