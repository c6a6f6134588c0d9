// The logs page reads a pump's log as days of runs: each ON paired with the OFF that ended it,
// everything else as it came, newest first, grouped by India's calendar day.
import { describe, expect, it } from "vitest";
import { logDays } from "../../app/log-runs.ts";
import type { MotorLogEntry } from "../../common/realtime-protocol.ts";

let nextId = 1;
/** An entry at an India time on a day of November 2026 ("26 10:05"), as the API sends them. */
function entry(action: MotorLogEntry["action"], when: string): MotorLogEntry {
  const [day, time] = when.split(" ");
  return {
    id: nextId++,
    action,
    logMessage: action,
    timestamp: new Date(`2026-11-${day}T${time}:00+05:30`).toISOString(),
    kind: action === "other" ? "powerRestored" : "switched",
    params: {},
  };
}

/** A log, oldest first, from lines of an action and its time as `entry` takes it: "on 26 10:05". */
function logOf(...lines: `${MotorLogEntry["action"]} ${string}`[]): MotorLogEntry[] {
  return lines.map((line) => {
    const [action, when] = line.split(/ (.*)/) as [MotorLogEntry["action"], string];
    return entry(action, when);
  });
}

/** What the page shows, in words a test can compare: "run 10:05–10:50", "entry other 11:00". */
function shape(entries: MotorLogEntry[]) {
  const time = (item: MotorLogEntry) =>
    new Date(item.timestamp).toLocaleTimeString("en-GB", { timeZone: "Asia/Kolkata", timeStyle: "short" });
  // The API answers newest first.
  return logDays([...entries].reverse()).map(({ day, items }) => ({
    day,
    items: items.map((item) =>
      item.type === "run"
        ? `run ${time(item.on)}–${item.off ? time(item.off) : item.ended ? "?" : "…"}`
        : `${item.entry.action} ${time(item.entry)}`,
    ),
  }));
}

describe("logDays", () => {
  it("pairs each ON with the OFF after it, newest first, and keeps other entries between them", () => {
    const log = logOf("on 26 06:00", "off 26 06:45", "on 26 10:05", "other 26 10:20", "off 26 10:50", "other 26 11:00");
    expect(shape(log)).toEqual([
      { day: "2026-11-26", items: ["other 11:00", "other 10:20", "run 10:05–10:50", "run 06:00–06:45"] },
    ]);
  });

  it("groups by India's day, a run under the day it began", () => {
    const log = logOf("on 24 23:30", "off 25 00:30", "on 25 05:00", "off 25 05:10");
    expect(shape(log)).toEqual([
      { day: "2026-11-25", items: ["run 05:00–05:10"] },
      { day: "2026-11-24", items: ["run 23:30–00:30"] },
    ]);
  });

  it("says what is not known: a run still going, an ON whose stop was never logged, an OFF whose start is older", () => {
    const log = logOf("off 26 05:00", "on 26 06:00", "on 26 07:00", "off 26 07:30", "on 26 09:00");
    const days = logDays([...log].reverse());
    expect(shape(log)).toEqual([
      { day: "2026-11-26", items: ["run 09:00–…", "run 07:00–07:30", "run 06:00–?", "off 05:00"] },
    ]);
    const runs = days[0]!.items.filter((item) => item.type === "run");
    // Still going as far as the log knows; the 6:00 ON was followed by another ON, not by an OFF.
    expect(runs.map((run) => run.type === "run" && run.ended)).toEqual([false, true, true]);
    expect(runs.map((run) => run.type === "run" && run.seconds)).toEqual([null, 30 * 60, null]);
  });

  it("keeps every entry exactly once, whatever the order it came in", () => {
    const log = logOf("on 26 08:00", "other 26 08:01", "off 26 08:02", "off 26 08:03");
    const shown = logDays([log[2]!, log[0]!, log[3]!, log[1]!]).flatMap(({ items }) =>
      items.flatMap((item) => (item.type === "run" ? [item.on, ...(item.off ? [item.off] : [])] : [item.entry])),
    );
    expect(shown.map((item) => item.id).sort()).toEqual(log.map((item) => item.id).sort());
  });

  it("is empty for no entries", () => {
    expect(logDays([])).toEqual([]);
  });
});
