// docs/ is a contract, held to the code: every route the Worker's API router has is named in it,
// with its method, on the line that says what it takes and answers (as `METHOD /api/path/{param}`);
// every field of a schedule as the API answers it; every SQLite table a DeviceHub creates.
// The texts are bundled in at build time (Vite's `?raw`): the tests run in workerd, beside the
// router itself.
import { describe, expect, it } from "vitest";
import { scheduleViewSchema } from "../../../common/schedule-view.ts";
import hubSchema from "../../../durable-objects/device-hub/schema-versions.ts?raw";
import readme from "../../../README.md?raw";
import { apiApp } from "../../../worker/api/app.ts";

const docs = import.meta.glob<string>("../../../docs/*.md", { query: "?raw", import: "default", eager: true });
const doc = (name: string) => docs[`../../../docs/${name}`] ?? "";
const docLines = () => [...Object.values(docs), readme].flatMap((text) => text.split("\n"));

/** A route's path as the docs write it: `/api/pumps/{deviceId}/logs` (or `<deviceId>`), as a pattern. */
function documented(path: string): RegExp {
  const written = path
    .replace(/\/$/, "")
    .split(/(:\w+)/)
    .map((part) => (part.startsWith(":") ? `[{<]${part.slice(1)}[}>]` : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`${written}(?![\\w/{<-])`);
}

describe("docs/", () => {
  it("names every route of the router with its method", () => {
    const lines = docLines();
    const routes = [
      ...new Set(
        apiApp.routes.filter((route) => route.method !== "ALL").map((route) => `${route.method} ${route.path}`),
      ),
    ];
    const missing = routes.filter((route) => {
      const [method, path] = route.split(" ") as [string, string];
      const pattern = documented(path);
      return !lines.some((line) => pattern.test(line) && new RegExp(`\\b${method}\\b`).test(line));
    });
    expect(missing).toEqual([]);
  });

  it("lists every field of a schedule as the API answers it", () => {
    const userArea = doc("user-area.md");
    const table = userArea.slice(userArea.indexOf("A `schedule` (`ScheduleView`"));
    const rows = table.slice(0, table.indexOf("\n\n", table.indexOf("| Field |")));
    const named = new Set([...rows.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => row[1]!.match(/`\w+`/g) ?? []));
    expect(Object.keys(scheduleViewSchema.shape).filter((field) => !named.has(`\`${field}\``))).toEqual([]);
  });

  it("names every SQLite table of the DeviceHub where architecture.md lists them", () => {
    // A table made only to rebuild another in its place (`…_reshaped`) is not one of the hub's.
    const tables = [...hubSchema.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/g)]
      .map((match) => match[1]!)
      .filter((table) => !table.endsWith("_reshaped"));
    expect(tables.length).toBeGreaterThan(0);
    const architecture = doc("architecture.md");
    const bullet = architecture.slice(architecture.indexOf("- `schema-versions.ts`"));
    const listed = bullet.slice(0, bullet.indexOf("\n- "));
    expect(listed).toContain(
      `hub's ${["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"][tables.length]} SQLite tables`,
    );
    expect(tables.filter((table) => !listed.includes(`\`${table}\``))).toEqual([]);
  });
});
