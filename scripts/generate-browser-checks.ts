// Writes app/checks/generated.ts: plain readers, built from app/checks/json-reader.ts, for the
// zod schemas the pump's page parses (its socket's messages, the status answer, a refusal, the
// health and state it keeps on the phone), so that the page checks everything it did without
// downloading zod's runtime (docs/decisions/036-browser-checks-without-zod.md). The schemas stay
// the one source of truth: run `npm run checks:generate` after changing one of them;
// tests/app/browser-checks.test.ts fails while the file is out of date, and proves the readers
// and the schemas give the same answers. Only what these schemas use is translated (objects,
// catch-alls, literals, enums, strings, numbers, integers, booleans, nullable, optional,
// defaults, arrays, unions, discriminated unions, a custom without a check): anything else
// stops the generator rather than being read differently.
import { writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import * as lastState from "../app/offline/last-state-schema.ts";
import * as apiDevices from "../common/api-responses/devices.ts";
import * as apiLogs from "../common/api-responses/logs.ts";
import * as apiRefusals from "../common/api-responses/refusals.ts";
import * as deviceEnums from "../common/device-enums.ts";
import * as pumpState from "../common/pump-state.ts";
import * as realtimeProtocol from "../common/realtime-protocol.ts";
import type { z } from "../common/zod-mini.ts";

export const BROWSER_CHECKS_FILE = "app/checks/generated.ts";

type Schema = z.core.$ZodType;

/** What the page checks: the export's name, its schema, and where the schema is exported from (for its type). */
export const BROWSER_CHECKS: { name: string; schema: Schema; schemaName: string; from: string }[] = [
  {
    name: "realtimeMessageCheck",
    schema: realtimeProtocol.realtimeMessageSchema,
    schemaName: "realtimeMessageSchema",
    from: "common/realtime-protocol.ts",
  },
  {
    name: "motorStatusResponseCheck",
    schema: apiDevices.motorStatusResponseSchema,
    schemaName: "motorStatusResponseSchema",
    from: "common/api-responses/devices.ts",
  },
  {
    name: "healthReadingResponseCheck",
    schema: apiDevices.healthReadingResponseSchema,
    schemaName: "healthReadingResponseSchema",
    from: "common/api-responses/devices.ts",
  },
  {
    name: "otaResponseCheck",
    schema: apiDevices.otaResponseSchema,
    schemaName: "otaResponseSchema",
    from: "common/api-responses/devices.ts",
  },
  {
    name: "motorLogsResponseCheck",
    schema: apiLogs.motorLogsResponseSchema,
    schemaName: "motorLogsResponseSchema",
    from: "common/api-responses/logs.ts",
  },
  {
    name: "apiErrorCheck",
    schema: apiRefusals.apiErrorSchema,
    schemaName: "apiErrorSchema",
    from: "common/api-responses/refusals.ts",
  },
  {
    name: "healthDataCheck",
    schema: realtimeProtocol.healthDataSchema,
    schemaName: "healthDataSchema",
    from: "common/realtime-protocol.ts",
  },
  {
    name: "lastStateCheck",
    schema: lastState.lastStateSchema,
    schemaName: "lastStateSchema",
    from: "app/offline/last-state-schema.ts",
  },
  {
    name: "relayStateCheck",
    schema: deviceEnums.relayStateSchema,
    schemaName: "relayStateSchema",
    from: "common/device-enums.ts",
  },
];

/** The readers json-reader.ts offers: no schema's reader may take one of these names. */
const READERS = [
  "anything",
  "array",
  "boolean",
  "check",
  "int",
  "nullable",
  "number",
  "object",
  "oneOf",
  "optional",
  "string",
  "tagged",
  "union",
  "withDefault",
];

/** Exported schemas get a reader of the same name (without "Schema"), so the file reads like the modules. */
function schemaNames(): Map<Schema, string> {
  const names = new Map<Schema, string>();
  for (const module of [deviceEnums, pumpState, realtimeProtocol, apiRefusals, apiDevices, apiLogs, lastState]) {
    for (const [exported, value] of Object.entries(module)) {
      if (!exported.endsWith("Schema") || typeof value !== "object" || value === null || !("_zod" in value)) continue;
      const name = exported.slice(0, -"Schema".length);
      if (READERS.includes(name) || [...names.values()].includes(name))
        throw new Error(`Two readers would be named ${name}`);
      names.set(value as Schema, name);
    }
  }
  return names;
}

const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function literal(value: unknown): string {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return JSON.stringify(value);
  throw new Error(`A literal or default the browser's checks cannot write: ${String(value)}`);
}

/** The discriminator's values an option of a discriminated union answers to. */
function tagsOf(option: Schema, discriminator: string): unknown[] {
  const def = option._zod.def as z.core.$ZodObjectDef;
  const tag =
    def.type === "object" ? (def.shape[discriminator]?._zod.def as z.core.$ZodTypeDef | undefined) : undefined;
  if (tag?.type === "literal") return [...(tag as z.core.$ZodLiteralDef<z.core.util.Literal>).values];
  if (tag?.type === "enum") return Object.values((tag as z.core.$ZodEnumDef).entries);
  throw new Error(`An option of a union on "${discriminator}" without a literal or enum there`);
}

export function browserChecksModule(): string {
  const names = schemaNames();
  const declared = new Set<Schema>();
  const lines: string[] = [];

  /** The reader of `schema`: its name once declared (declaring it first if it has one), else inline. */
  function reader(schema: Schema): string {
    const name = names.get(schema);
    if (name === undefined) return expression(schema);
    if (!declared.has(schema)) {
      const body = expression(schema);
      declared.add(schema);
      lines.push(`const ${name} = ${body};`);
    }
    return name;
  }

  function expression(schema: Schema): string {
    const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
    const checks = (def.checks ?? []) as unknown[];
    const intFormat = def.type === "number" && (def as { format?: string }).format === "safeint";
    if (checks.length > 0 && !(intFormat && checks.length === 1 && checks[0] === schema)) {
      throw new Error(`A ${def.type} with checks (lengths, ranges, refinements) the browser's checks cannot read`);
    }
    switch (def.type) {
      case "string":
      case "boolean":
        return def.type;
      case "number":
        if (intFormat) return "int";
        if ((def as { format?: string }).format !== undefined) throw new Error("A number format other than an integer");
        return "number";
      case "literal":
        return `oneOf(${[...(def as unknown as z.core.$ZodLiteralDef<z.core.util.Literal>).values].map(literal).join(", ")})`;
      case "enum":
        return `oneOf(${Object.values((def as unknown as z.core.$ZodEnumDef).entries)
          .map(literal)
          .join(", ")})`;
      case "nullable":
        return `nullable(${reader((def as unknown as z.core.$ZodNullableDef).innerType)})`;
      case "optional": {
        const inner = (def as unknown as z.core.$ZodOptionalDef).innerType;
        if (inner._zod.def.type === "default") throw new Error("An optional default");
        return `optional(${reader(inner)})`;
      }
      case "default": {
        const { innerType, defaultValue } = def as unknown as z.core.$ZodDefaultDef;
        return `withDefault(${reader(innerType)}, ${literal(defaultValue)})`;
      }
      case "array":
        return `array(${reader((def as unknown as z.core.$ZodArrayDef).element)})`;
      case "custom":
        // z.custom<T>() with no check of its own accepts anything; one with a check cannot be translated.
        if (String((def as unknown as z.core.$ZodCustomDef).fn) !== "() => true") throw new Error("A custom check");
        return "anything";
      case "object": {
        const { shape, catchall } = def as unknown as z.core.$ZodObjectDef;
        if (catchall?._zod.def.type === "never") throw new Error("A strict object");
        const fields = Object.entries(shape).map(([name, field]) => {
          const type = field._zod.def.type;
          if (type === "custom") throw new Error(`A custom field (${name}): zod refuses it absent, a reader would not`);
          return `${key(name)}: ${reader(field)}`;
        });
        const rest = catchall ? `, ${reader(catchall)}` : "";
        return `object(${fields.length ? `{ ${fields.join(", ")} }` : "{}"}${rest})`;
      }
      case "union": {
        const { options, discriminator } = def as unknown as z.core.$ZodDiscriminatedUnionDef;
        if (discriminator === undefined) return `union(${options.map(reader).join(", ")})`;
        const tagged = options.map(
          (option) => `\n  [[${tagsOf(option, discriminator).map(literal).join(", ")}], ${reader(option)}],`,
        );
        return `tagged(${JSON.stringify(discriminator)}, [${tagged.join("")}\n])`;
      }
      default:
        throw new Error(`A ${def.type} schema, which the browser's checks do not read`);
    }
  }

  const checks = BROWSER_CHECKS.map(({ name, schema, schemaName }) => {
    const read = reader(schema);
    return `export const ${name} = check<z.output<typeof ${schemaName}>>(${read});`;
  });
  const typeImports = [...new Set(BROWSER_CHECKS.map(({ from }) => from))].map((from) => {
    const imported = BROWSER_CHECKS.filter((entry) => entry.from === from).map((entry) => entry.schemaName);
    const path = relative(dirname(BROWSER_CHECKS_FILE), from);
    return `import type { ${[...new Set(imported)].sort().join(", ")} } from "${path.startsWith(".") ? path : `./${path}`}";`;
  });
  const used = READERS.filter((name) => [...lines, ...checks].some((line) => new RegExp(`\\b${name}\\b`).test(line)));
  return [
    "// Generated by scripts/generate-browser-checks.ts from the zod schemas imported below. Do not edit:",
    "// change the schema, then run `npm run checks:generate` (tests/app/browser-checks.test.ts fails",
    "// while this file is out of date). The page parses with these instead of zod, the same answers",
    "// for fewer bytes (docs/decisions/036-browser-checks-without-zod.md).",
    ...typeImports.sort(),
    'import type { z } from "../../common/zod-mini.ts";',
    `import { ${used.join(", ")} } from "./json-reader.ts";`,
    "",
    ...lines,
    "",
    ...checks,
    "",
  ].join("\n");
}

if (import.meta.main) {
  writeFileSync(join(dirname(new URL(import.meta.url).pathname), "..", BROWSER_CHECKS_FILE), browserChecksModule());
  console.log(`Wrote ${BROWSER_CHECKS_FILE}`);
}
