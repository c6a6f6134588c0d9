// Run hours, starts and energy per India day, kept USAGE_RETENTION_DAYS in the hub's SQLite
// (docs/decisions/021-run-hours-and-energy.md). The hub's belief about the motor is the truth:
// `follow` is called wherever it may have changed (commands.ts setMotor, the box going offline,
// the hub starting) and credits the time since it last looked; usage-model.ts decides what.
// Each step writes the cursor and the days it credits in one transaction, so a restart or an
// alarm delivered twice neither loses nor counts anything twice.
import type { PumpUsage } from "../../common/api-responses/usage.ts";
import { istDay, istDayBefore, lastIstDays, splitByIstDay, USAGE_RETENTION_DAYS } from "../../common/pump-usage.ts";
import type { HubContext } from "./context.ts";
import { Room } from "./room.ts";
import { advanceUsage, type UsageCredit, type UsageCursor, type UsageView, withReading } from "./usage-model.ts";
import { type UsageRow, UsageTables } from "./usage-tables.ts";

const MS_PER_HOUR = 3_600_000;
const NOTHING: UsageRow = { runningMs: 0, starts: 0, energyWh: 0 };

export class Usage extends Room {
  readonly #tables: UsageTables;

  constructor(hub: HubContext) {
    super(hub);
    this.#tables = new UsageTables(hub.ctx.storage.sql);
  }

  /** Counts up to `now` from what the hub believes; safe to call any number of times. */
  follow(now: number): void {
    this.#step(now, (cursor) => cursor);
  }

  /** A wattage reading: what the last one stood for is credited, and this one stands from now. */
  onReading(watts: number, now: number): void {
    this.#step(now, (cursor) => withReading(cursor, watts, now));
  }

  /**
   * The last `count` IST days, today last, days without a run as zeros; a run still going counts
   * up to `now`. Days before the IST day of `since` are zeros too (another owner's). Writes nothing.
   */
  days(count: number, now: number, since: number | null = null): PumpUsage {
    const names = lastIstDays(now, Math.min(Math.max(Math.trunc(count), 1), USAGE_RETENTION_DAYS));
    const totals = new Map(names.map((day) => [day, NOTHING]));
    for (const { day, ...row } of this.#tables.since(names[0]!)) addTo(totals, day, row);
    const { credits } = advanceUsage(this.#tables.cursor<UsageCursor>(), this.#view(), now);
    for (const [day, row] of perDay(credits)) if (totals.has(day)) addTo(totals, day, row);
    if (since !== null) {
      const first = istDay(since);
      for (const day of names) if (day < first) totals.set(day, NOTHING);
    }
    const days = names.map((date) => ({ date, ...rounded(totals.get(date)!) }));
    const sum = [...totals.values()].reduce(plus, NOTHING);
    return { days, totals: rounded(sum), asOf: new Date(now).toISOString() };
  }

  #view(): UsageView {
    const { motor, online, lastSeenAt } = this.hub.state.current;
    return { status: motor.status, since: motor.since, online, lastSeenAt };
  }

  #step(now: number, then: (cursor: UsageCursor) => UsageCursor): void {
    const { ctx } = this.hub;
    const tables = this.#tables;
    ctx.storage.transactionSync(() => {
      const stored = tables.cursor<UsageCursor>();
      const advanced = advanceUsage(stored, this.#view(), now);
      const cursor = then(advanced.cursor);
      // Nothing to remember yet: a hub that never counted keeps no cursor (reads change no storage).
      if (stored === null && cursor.lastKnown === null && cursor.run === null) return;
      if (JSON.stringify(cursor) !== JSON.stringify(stored)) tables.setCursor(cursor);
      const days = perDay(advanced.credits);
      for (const [day, row] of days) tables.add(day, row);
      // The oldest day kept, worked out alone: this runs with every reading of a running pump.
      if (days.size > 0) tables.deleteBefore(istDayBefore(now, USAGE_RETENTION_DAYS - 1));
    });
  }
}

/** Credits as additions to each IST day they touch (a span across midnight is split). */
function perDay(credits: UsageCredit[]): Map<string, UsageRow> {
  const days = new Map<string, UsageRow>();
  for (const item of credits) {
    if (item.kind === "start") {
      addTo(days, istDay(item.at), { ...NOTHING, starts: 1 });
      continue;
    }
    for (const part of splitByIstDay(item.from, item.to)) {
      const ms = part.to - part.from;
      const row =
        item.kind === "running"
          ? { ...NOTHING, runningMs: ms }
          : { ...NOTHING, energyWh: (item.watts * ms) / MS_PER_HOUR };
      addTo(days, part.day, row);
    }
  }
  return days;
}

function plus(row: UsageRow, add: UsageRow): UsageRow {
  return {
    runningMs: row.runningMs + add.runningMs,
    starts: row.starts + add.starts,
    energyWh: row.energyWh + add.energyWh,
  };
}

function addTo(days: Map<string, UsageRow>, day: string, add: UsageRow): void {
  days.set(day, plus(days.get(day) ?? NOTHING, add));
}

/** Minutes to a hundredth (under a second), kWh to a watt-hour. */
function rounded(row: UsageRow): PumpUsage["totals"] {
  return {
    runningMinutes: Math.round(row.runningMs / 600) / 100,
    starts: row.starts,
    kwh: Math.round(row.energyWh) / 1000,
  };
}
