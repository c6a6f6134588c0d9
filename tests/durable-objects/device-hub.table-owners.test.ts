// Each of the hub's SQLite tables is read and written by the one room that owns it
// (docs/architecture.md, "The hub's rooms"); a room that needs another's data asks that room.
// Checked on the sources, bundled in at build time (Vite's `?raw`).
import { describe, expect, it } from "vitest";

const sources = import.meta.glob<string>("../../durable-objects/device-hub/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});
const fileOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** The module whose SQL touches each table, and the room that module serves. */
const OWNERS: Record<string, { module: string; room: string }> = {
  alert_deliveries: { module: "alert-deliveries-table.ts", room: "alerts.ts" },
  timers: { module: "timers-table.ts", room: "timers.ts" },
  log_outbox: { module: "log-outbox-table.ts", room: "motor-log.ts" },
  motor_log: { module: "motor-log-table.ts", room: "motor-log.ts" },
  power_samples: { module: "power-samples-table.ts", room: "power-history.ts" },
  debug_lines: { module: "debug-lines-table.ts", room: "debug-lines.ts" },
  usage_days: { module: "usage-tables.ts", room: "usage.ts" },
  usage_cursor: { module: "usage-tables.ts", room: "usage.ts" },
  window_runs: { module: "window-runs-table.ts", room: "window-runs.ts" },
  schedules: { module: "schedule-book.ts", room: "schedule-book.ts" },
  schedule_offs: { module: "owed-switch-offs.ts", room: "owed-switch-offs.ts" },
};

describe("the hub's tables", () => {
  it("each is queried in one module only (the schema's steps aside)", () => {
    const touching = (table: string) =>
      Object.entries(sources)
        .filter(([path]) => fileOf(path) !== "schema-versions.ts")
        .filter(([, text]) => new RegExp(`\\b(FROM|INTO|UPDATE|JOIN)\\s+${table}\\b`).test(text))
        .map(([path]) => fileOf(path));
    const found = Object.fromEntries(Object.keys(OWNERS).map((table) => [table, touching(table)]));
    expect(found).toEqual(Object.fromEntries(Object.entries(OWNERS).map(([table, { module }]) => [table, [module]])));
  });

  it("a room's own table module is used by that room alone (others may name its row types)", () => {
    const modules = new Set(Object.values(OWNERS).map(({ module }) => module));
    const users = (module: string) =>
      Object.entries(sources)
        .filter(([, text]) =>
          new RegExp(`^import \\{[^}]*\\} from "\\./${module.replace(".", "\\.")}";`, "m").test(text),
        )
        .filter(([, text]) => {
          const names = text.match(
            new RegExp(`^import \\{([^}]*)\\} from "\\./${module.replace(".", "\\.")}";`, "m"),
          )![1]!;
          return names.split(",").some((name) => name.trim() !== "" && !name.trim().startsWith("type "));
        })
        .map(([path]) => fileOf(path));
    const found = [...modules]
      .filter((module) => module.endsWith("-table.ts") || module.endsWith("-tables.ts"))
      .map((module) => [module, users(module)]);
    expect(Object.fromEntries(found)).toEqual(
      Object.fromEntries(
        Object.values(OWNERS)
          .filter(({ module }) => module.endsWith("-table.ts") || module.endsWith("-tables.ts"))
          .map(({ module, room }) => [module, [room]]),
      ),
    );
  });

  it("only the tables' modules and the schema's steps run SQL", () => {
    const running = Object.entries(sources)
      .filter(([, text]) => /sql\s*\.exec\b/.test(text))
      .map(([path]) => fileOf(path))
      .sort();
    const owners = new Set(Object.values(OWNERS).map(({ module }) => module));
    expect(running).toEqual([...owners, "schema-versions.ts"].sort());
  });
});
