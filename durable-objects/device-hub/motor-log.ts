// The motor log, as the hub writes it: every entry goes to an outbox in the hub's SQLite in the
// same step as the change it records (so the output gate makes it durable before any answer
// leaves), is shown to browsers at once, and reaches D1 once that step is over: nobody waits on
// D1 (docs/decisions/022-log-outbox-after-the-answer.md). A flush writes what waits in one D1
// round trip; a flush that fails, or a hub stopped before or during one, is finished by the
// flush-logs timer, and D1's unique `hub_ref` makes a retry of a write that did land a no-op.
// The last few entries are kept in the hub's state for snapshots.
import { LIVE_MOTOR_LOG_LIMIT } from "../../common/constants.ts";
import type { MotorLogEvent } from "../../common/motor-log-event.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";
import { getDb } from "../../worker/db/client.ts";
import {
  insertMotorLogs,
  listRecentMotorLogs,
  MAX_MOTOR_LOGS_PER_INSERT,
  type MotorLogInsert,
  motorLogEntry,
  toMotorLogEntry,
} from "../../worker/db/motor-logs.ts";
import type { MotorLogRow } from "../../worker/db/schema.ts";
import type { HubContext } from "./context.ts";
import { legacyMotorLogEvent } from "./legacy-motor-log.ts";
import { LogOutboxTable } from "./log-outbox-table.ts";
import { Room } from "./room.ts";
import { TIMERS } from "./timers.ts";

/** D1 refused: the next try. */
const LOG_FLUSH_RETRY_MS = 30_000;
/** A hub stopped during its own flush (evicted, restarted, crashed) is woken this soon to finish it. */
const LOG_FLUSH_BACKSTOP_MS = 5_000;
/**
 * How long after its step a flush starts. Not at once: the answer of that step still has to
 * leave through the Worker, and where the Worker, the hub and D1 share one thread (wrangler's
 * local runtime), a flush begun in the next turn (its queries built, D1's own SQLite writing)
 * held the answer's body behind it. On Cloudflare an entry reaches D1 5 ms later, which no
 * reader notices: a pump's own log flushes before it is read
 * (docs/decisions/022-log-outbox-after-the-answer.md).
 */
const LOG_FLUSH_AFTER_MS = 5;

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

/** Where outbox entry `outboxId` of `deviceId` is in D1: the key that makes a second write a no-op. */
export const hubRefOf = (deviceId: string, outboxId: number) => `${deviceId}:${outboxId}`;

/**
 * The newest entries from what D1 holds and what still waits in the outbox (an entry in both,
 * written but not yet removed, once), newest first, at most the live limit.
 */
export function mergeRecent(
  deviceId: string,
  stored: MotorLogRow[],
  waiting: { id: number; row: OutboxRow }[],
): MotorLogEntry[] {
  const inD1 = new Set(stored.map((row) => row.hubRef));
  const pending = waiting
    .filter(({ id }) => !inD1.has(hubRefOf(deviceId, id)))
    .map(({ id, row }) => ({ at: row.createdAt, entry: motorLogEntry(-id, row.action, row.event, row.createdAt) }))
    .reverse();
  const written = stored.map((row) => ({ at: row.createdAt, entry: toMotorLogEntry(row) }));
  // Stable: of two entries of the same millisecond, the one still waiting is the newer.
  return [...pending, ...written]
    .sort((a, b) => b.at - a.at)
    .slice(0, LIVE_MOTOR_LOG_LIMIT)
    .map(({ entry }) => entry);
}

export class MotorLog extends Room {
  readonly #outbox: LogOutboxTable;
  /** The flush under way, if any: one at a time, and it takes whatever was added meanwhile. */
  #flushing: Promise<void> | null = null;
  /** Moves on with every entry added and every batch written, so a read of D1 knows if it raced one. */
  #changes = 0;
  /** A flush is planned for when the current step is over. */
  #flushPlanned = false;

  constructor(hub: HubContext) {
    super(hub);
    this.#outbox = new LogOutboxTable(hub.ctx.storage.sql);
  }

  /**
   * Records an entry: in the outbox (SQLite, in this same step), in the recent list, to every
   * browser, and on its way to D1 without anyone waiting for it. Entries keep the order in
   * which they happened: the outbox's ids are that order, and D1 gets them in it.
   */
  record(action: MotorLogRow["action"], event: MotorLogEvent): void {
    const { state, sockets, deviceId } = this.hub;
    const now = Date.now();
    const owner = state.current.owner;
    const row: OutboxRow = {
      deviceId,
      userId: owner?.userId ?? null,
      mobileNo: owner?.mobileNo ?? null,
      action,
      event,
      createdAt: now,
    };
    const outboxId = this.#outbox.add(row);
    this.hub.meter.wrote(row);
    this.#changes += 1;
    const entry = motorLogEntry(-outboxId, action, event, now);
    // Not yet read from D1 (a new hub): the first snapshot reads it, outbox included.
    const cached = state.current.lastLogs;
    if (cached) state.save({ lastLogs: withNewest(entry, cached) });
    sockets.broadcast({ type: "motorLogUpdate", log: entry });
    this.#flushSoon();
  }

  /**
   * Starts a flush shortly after the current step (LOG_FLUSH_AFTER_MS). Not in it: whatever the
   * flush stores (its backstop timer, an alarm) would hold this step's answer at the output gate,
   * and entries of the same step go to D1 together. A hub stopped before the flush starts finds its outbox
   * when it next starts (`resumeFlush`).
   */
  #flushSoon(): void {
    if (this.#flushPlanned) return;
    this.#flushPlanned = true;
    setTimeout(() => {
      this.#flushPlanned = false;
      // Nobody waits for it; whatever goes wrong, the entry is in the outbox and the timer will come.
      this.flushOutbox().catch((error: unknown) => this.hub.logError("motor log flush failed", error));
    }, LOG_FLUSH_AFTER_MS);
  }

  /** A hub starting with entries in its outbox (it stopped before writing them) writes them at once. */
  resumeFlush(): void {
    if (this.#outbox.waiting(1).length > 0) this.hub.timers.set(TIMERS.flushLogs, Date.now());
  }

  /** The newest entries, read from D1 (and the outbox) the first time and kept in the hub's state after. */
  async recent(): Promise<MotorLogEntry[]> {
    const { state, env, deviceId } = this.hub;
    for (;;) {
      if (state.current.lastLogs) return state.current.lastLogs;
      const changes = this.#changes;
      const rows = await listRecentMotorLogs(getDb(env.DB), deviceId, LIVE_MOTOR_LOG_LIMIT);
      // An entry added, or a batch moved from the outbox to D1, while D1 was read: read again.
      if (changes !== this.#changes) continue;
      const lastLogs = mergeRecent(
        deviceId,
        rows,
        this.#outbox.waiting<OutboxRow | LegacyOutboxRow>().map(outboxEntryOf),
      );
      state.save({ lastLogs });
      return lastLogs;
    }
  }

  /**
   * Writes what waits in the outbox to D1, oldest first, a batch per round trip, until it is
   * empty or D1 refuses (then the flush-logs timer tries again). Called after every entry, by
   * the flush-logs timer and before a farmer's log is read; one flush at a time, which takes
   * whatever is added while it runs.
   */
  flushOutbox(): Promise<void> {
    this.#flushing ??= this.#drain();
    return this.#flushing;
  }

  async #drain(): Promise<void> {
    try {
      while (await this.#writeBatch()) {
        // another batch waits
      }
    } finally {
      // In the same step as the last look at the outbox: an entry added after it starts a new flush.
      this.#flushing = null;
    }
  }

  /** Writes the oldest batch waiting; true when another may wait, false when done or refused. */
  async #writeBatch(): Promise<boolean> {
    const { timers, state, env, deviceId } = this.hub;
    const batch = this.#outbox.waiting<OutboxRow | LegacyOutboxRow>(MAX_MOTOR_LOGS_PER_INSERT).map(outboxEntryOf);
    if (batch.length === 0) {
      if (timers.has(TIMERS.flushLogs)) timers.delete(TIMERS.flushLogs);
      return false;
    }
    // Should the hub stop while D1 writes, this brings it back to finish.
    if (!timers.has(TIMERS.flushLogs)) timers.set(TIMERS.flushLogs, Date.now() + LOG_FLUSH_BACKSTOP_MS);
    let stored: MotorLogRow[];
    try {
      stored = await insertMotorLogs(
        getDb(env.DB),
        batch.map(({ id, row }) => ({ ...row, hubRef: hubRefOf(deviceId, id) })),
      );
    } catch (error) {
      this.hub.logError("D1 log write failed, will retry", error);
      timers.set(TIMERS.flushLogs, Date.now() + LOG_FLUSH_RETRY_MS);
      return false;
    }
    this.#outbox.removeUpTo(batch.at(-1)!.id);
    this.#changes += 1;
    // The recent list names the entries by D1's ids from now on.
    const written = new Map(batch.map(({ id }, index) => [-id, stored[index]!]));
    const cached = state.current.lastLogs;
    if (cached?.some((entry) => written.has(entry.id))) {
      state.save({
        lastLogs: cached.map((entry) => (written.has(entry.id) ? toMotorLogEntry(written.get(entry.id)!) : entry)),
      });
    }
    return true;
  }
}

function outboxEntryOf({ id, row }: { id: number; row: OutboxRow | LegacyOutboxRow }): { id: number; row: OutboxRow } {
  return { id, row: outboxRowOf(row) };
}
