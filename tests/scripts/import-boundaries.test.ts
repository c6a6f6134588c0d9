// Which folder may import which (docs/architecture.md, "The hub's rooms"): the Durable Objects
// take from the Worker only its D1 layer (worker/db/) and its alert senders (worker/alerts/,
// worker/push/), the Worker reaches durable-objects/ only
// in its entry point (worker/index.ts, which exports the classes for Cloudflare) and otherwise
// through the public contract in common/hub-contract.ts, the Worker, the hub and common/ never
// import the pages' folder (app/), common/ imports neither runtime, the pages reach the Worker
// only through worker/services/ (docs/architecture.md, "Pages and the server"), and no file
// imports itself in a circle. Read from the import statements of every .ts and .tsx file,
// type-only ones included.

/**
 * Circles made only of `import type` (harmless when the code runs, but still two files that
 * cannot be read one without the other). None today; one that must stay gets listed here with
 * its reason. Each file set, sorted.
 */
const KNOWN_TYPE_CYCLES: string[][] = [];

import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
/** Generated or installed, never written here. */
const SKIPPED = new Set([
  "node_modules",
  "build",
  ".react-router",
  ".wrangler",
  ".git",
  "test-results",
  "playwright-report",
]);

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string) => {
    for (const entry of await readdir(join(ROOT, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) await walk(path);
      else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(path);
    }
  };
  await walk("");
  return files.sort();
}

/** After one of these (or at the start) a `/` begins a regular expression, not a division. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
const STATIC_IMPORT = /^(?:import|export)(?:\s+type)?\s*[\w$\s{},*]*?\bfrom\s*(["'])([^"'\n]+)\1/;
const SIDE_EFFECT_IMPORT = /^import\s*(["'])([^"'\n]+)\1/;

/**
 * The specifiers of a module's `import ... from`, `import "..."` and `export ... from`
 * statements, which start a line (nested code is indented). Comments, strings, template
 * literals and regular expressions are stepped over, so an import written inside a template
 * (a test's fixture) is not one. A quote or slash in JSX text can be misread as the start of a
 * string or an expression, but never past its line. Dynamic `import()` is not a dependency of
 * the file's own loading and is left out.
 */
function importSpecifiers(source: string): { specifier: string; typeOnly: boolean }[] {
  const specifiers: { specifier: string; typeOnly: boolean }[] = [];
  let previous = ""; // the last character that was not whitespace or a comment
  let index = 0;
  /** Steps over a string, or a regular expression with `quote` "/", ending at its line's end at the latest. */
  const skipQuoted = (quote: string) => {
    let inClass = false;
    for (index++; index < source.length && source[index] !== "\n"; index++) {
      const char = source[index];
      if (char === "\\") index++;
      else if (quote === "/" && char === "[") inClass = true;
      else if (quote === "/" && char === "]") inClass = false;
      else if (char === quote && !inClass) break;
    }
    index++;
  };
  const skipTemplate = () => {
    for (index++; index < source.length && source[index] !== "`"; index++) {
      if (source[index] === "\\") {
        index++;
      } else if (source.startsWith("${", index)) {
        // An expression inside the template: step over it to its own closing brace.
        let braces = 1;
        for (index += 2; index < source.length && braces > 0; index++) {
          const char = source[index]!;
          if (char === "{") braces++;
          else if (char === "}") braces--;
          else if (char === '"' || char === "'") {
            skipQuoted(char);
            index--;
          } else if (char === "`") {
            skipTemplate();
            index--;
          }
        }
        index--;
      }
    }
    index++;
  };
  while (index < source.length) {
    const char = source[index]!;
    const lineStart = index === 0 || source[index - 1] === "\n";
    if (source.startsWith("//", index)) {
      const end = source.indexOf("\n", index);
      index = end === -1 ? source.length : end;
    } else if (source.startsWith("/*", index)) {
      const end = source.indexOf("*/", index);
      index = end === -1 ? source.length : end + 2;
    } else if (char === '"' || char === "'" || (char === "/" && (previous === "" || BEFORE_REGEX.has(previous)))) {
      skipQuoted(char);
      previous = char;
    } else if (char === "`") {
      skipTemplate();
      previous = char;
    } else if (/\s/.test(char)) {
      index++;
    } else {
      const found = lineStart
        ? (STATIC_IMPORT.exec(source.slice(index, index + 2_000)) ??
          SIDE_EFFECT_IMPORT.exec(source.slice(index, index + 200)))
        : null;
      if (found) {
        specifiers.push({ specifier: found[2]!, typeOnly: /^(import|export)\s+type\s/.test(found[0]) });
        index += found[0].length;
        previous = found[1]!;
      } else {
        previous = char;
        index++;
      }
    }
  }
  return specifiers;
}

type Graph = Map<string, string[]>;

/** Who imports whom among our files; `withTypes: false` leaves out `import type` statements. */
async function importGraph({ withTypes }: { withTypes: boolean }): Promise<Graph> {
  const files = await sourceFiles();
  const known = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const targets = importSpecifiers(await readFile(join(ROOT, file), "utf8"))
      .filter(({ specifier, typeOnly }) => specifier.startsWith(".") && (withTypes || !typeOnly))
      .map(({ specifier }) =>
        relative(ROOT, resolve(ROOT, dirname(file), specifier))
          .split("\\")
          .join("/"),
      )
      // Generated route types (./+types/...) and the like are not files of ours.
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle of imports (each strongly connected group, shown as one path round it). */
function importCycles(graph: Graph): string[][] {
  // Tarjan's algorithm, without recursion: the graph is a few hundred files deep at most, but a
  // stack of our own keeps the error about the cycle rather than the call stack.
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (order.has(start)) continue;
    const work: { file: string; next: number }[] = [{ file: start, next: 0 }];
    order.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.file) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!order.has(target)) {
          order.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, order.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) === order.get(frame.file)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.file);
        const selfImport = graph.get(frame.file)?.includes(frame.file) ?? false;
        if (group.length > 1 || selfImport) groups.push(group);
      }
    }
  }
  return groups.map((group) => pathRound(graph, new Set(group)));
}

/** One circle through a group: from its first file, along imports inside the group, back to it. */
function pathRound(graph: Graph, group: Set<string>): string[] {
  const [first] = [...group].sort();
  const cameFrom = new Map<string, string>();
  const queue = [first!];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!group.has(target)) continue;
      if (target === first) {
        const path = [file];
        while (path[0] !== first) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, first];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [first!, first!];
}

/** The imports that break the folder rules, one sentence each. */
function boundaryViolations(graph: Graph): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (
        file.startsWith("durable-objects/") &&
        target.startsWith("worker/") &&
        !target.startsWith("worker/db/") &&
        !target.startsWith("worker/alerts/") &&
        !target.startsWith("worker/push/")
      ) {
        violations.push(
          `${file} imports ${target}: durable-objects/ may take only worker/db/, worker/alerts/ and worker/push/ from the Worker`,
        );
      }
      if (file.startsWith("worker/") && target.startsWith("durable-objects/") && file !== "worker/index.ts") {
        violations.push(
          `${file} imports ${target}: only worker/index.ts imports durable-objects/; the rest takes common/hub-contract.ts`,
        );
      }
      if (/^(worker|durable-objects|common)\//.test(file) && target.startsWith("app/")) {
        violations.push(
          `${file} imports ${target}: only pages import app/; wording and formatting live in common/i18n/`,
        );
      }
      if (file.startsWith("common/") && /^(worker|durable-objects)\//.test(target)) {
        violations.push(`${file} imports ${target}: common/ runs everywhere and imports none of the runtimes' folders`);
      }
      if (file.startsWith("app/") && target.startsWith("worker/") && !target.startsWith("worker/services/")) {
        violations.push(
          `${file} imports ${target}: pages reach the Worker only through worker/services/, types included`,
        );
      }
      if (file.startsWith("app/") && target.startsWith("durable-objects/")) {
        violations.push(`${file} imports ${target}: pages take what they know of the hub from common/hub-contract.ts`);
      }
    }
  }
  return violations;
}

describe("import boundaries", () => {
  it("reads every kind of static import and nothing inside strings, comments or templates", () => {
    const source = [
      'import { a, type B } from "./a.ts";',
      "import type {",
      "  C,",
      '} from "../c.ts";',
      'import "./side-effect.ts";',
      'export { d } from "./d.ts";',
      'export * as e from "./e.ts";',
      '// import { no } from "./comment.ts";',
      '/* import { no } from "./block.ts"; */',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture is source text with a template literal in it
      'const text = `import { no } from "./template.ts"; ${"}"}`;',
      "const pattern = /\"'`/;",
      "const quoted = \"import { no } from './string.ts'\";",
      'const later = await import("./dynamic.ts");',
      "function f() {",
      '  return { import: "./indented.ts" };',
      "}",
      "export const g = 1;",
      'import { h } from "./h.ts";',
    ].join("\n");
    expect(importSpecifiers(source)).toEqual([
      { specifier: "./a.ts", typeOnly: false },
      { specifier: "../c.ts", typeOnly: true },
      { specifier: "./side-effect.ts", typeOnly: false },
      { specifier: "./d.ts", typeOnly: false },
      { specifier: "./e.ts", typeOnly: false },
      { specifier: "./h.ts", typeOnly: false },
    ]);
  });

  it("finds a circle and names its files in order", () => {
    const graph: Graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCycles(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  });

  it("refuses a page that imports the Worker past worker/services/, even for a type", () => {
    const graph: Graph = new Map([
      ["app/routes/pumps.tsx", ["worker/services/pump-list.ts", "worker/db/client.ts"]],
      ["app/components/card.tsx", ["worker/auth/sessions.ts"]],
    ]);
    expect(boundaryViolations(graph)).toEqual([
      "app/routes/pumps.tsx imports worker/db/client.ts: pages reach the Worker only through worker/services/, types included",
      "app/components/card.tsx imports worker/auth/sessions.ts: pages reach the Worker only through worker/services/, types included",
    ]);
  });

  it("durable-objects/ takes only worker/db/, worker/alerts/ and worker/push/ from the Worker; the Worker reaches durable-objects/ only in worker/index.ts; nothing but pages imports app/; pages take only worker/services/ from the Worker", async () => {
    const graph = await importGraph({ withTypes: true });
    // The one import the rules allow, read from the real files: the reading works.
    expect(graph.get("worker/index.ts")).toContain("durable-objects/device-hub.ts");
    const violations = boundaryViolations(graph);
    expect(violations, `imports across the boundaries:\n${violations.join("\n")}`).toEqual([]);
  });

  it("no file imports itself through others", async () => {
    const cycles = importCycles(await importGraph({ withTypes: false })).map((cycle) => cycle.join(" → "));
    expect(cycles, `import cycles:\n${cycles.join("\n")}`).toEqual([]);
  });

  it("nor through type imports, but for the circles listed in KNOWN_TYPE_CYCLES", async () => {
    const known = new Set(KNOWN_TYPE_CYCLES.map((files) => files.join(" ")));
    const cycles = importCycles(await importGraph({ withTypes: true }))
      .filter((cycle) => !known.has([...new Set(cycle)].sort().join(" ")))
      .map((cycle) => cycle.join(" → "));
    expect(cycles, `import cycles (type imports included):\n${cycles.join("\n")}`).toEqual([]);
  });
});
