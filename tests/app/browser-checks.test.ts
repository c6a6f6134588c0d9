// The page's checks without zod (app/checks/generated.ts, docs/decisions/036): the file is what
// the generator makes from the schemas today, and each reader gives zod's answer for every
// input, valid or mutated: the same accept or refuse, and on accept the same value (undeclared
// keys dropped, defaults filled in, keys in the same order). Inputs are JSON, as everything the
// page checks arrives (the socket's frames, the status answer, the phone's own cache).
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as generated from "../../app/checks/generated.ts";
import type { Check } from "../../app/checks/json-reader.ts";
import { z } from "../../common/zod-mini.ts";
import { BROWSER_CHECKS, BROWSER_CHECKS_FILE, browserChecksModule } from "../../scripts/generate-browser-checks.ts";
import { OFF_SINCE_HELLO } from "./pump-state-examples.ts";

type Schema = z.core.$ZodType;

/** Fixed so a run is reproducible; `FUZZ_SEED=123 npx vitest run tests/app/browser-checks.test.ts` explores others. */
const SEED = Number.parseInt(process.env.FUZZ_SEED ?? "", 10) || 20_261_126;
const RUNS = 300;

/** JSON a schema accepts, drawn from the schema itself (zod is asked below, so a miss here shows). */
function valid(schema: Schema): fc.Arbitrary<unknown> {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("on", "off", "2026-11-26T10:00:00.000Z"));
    case "number":
      return (def as { format?: string }).format === "safeint"
        ? fc.maxSafeInteger()
        : fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "boolean":
      return fc.boolean();
    case "literal":
      return fc.constantFrom(...(def as unknown as z.core.$ZodLiteralDef<z.core.util.Literal>).values);
    case "enum":
      return fc.constantFrom(...Object.values((def as unknown as z.core.$ZodEnumDef).entries));
    case "nullable":
      return fc.option(valid((def as unknown as z.core.$ZodNullableDef).innerType), { nil: null });
    case "optional":
    case "default":
      // undefined leaves the key out once the value is JSON
      return fc.option(valid((def as unknown as z.core.$ZodOptionalDef).innerType), { nil: undefined });
    case "array":
      return fc.array(valid((def as unknown as z.core.$ZodArrayDef).element), { maxLength: 3 });
    case "custom":
      return fc.jsonValue({ maxDepth: 2 });
    case "object": {
      const { shape, catchall } = def as unknown as z.core.$ZodObjectDef;
      const declared = fc.record(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, valid(field)])));
      if (!catchall) return declared;
      return fc
        .tuple(declared, fc.dictionary(fc.string({ maxLength: 6 }), valid(catchall), { maxKeys: 3 }))
        .map(([known, rest]) => ({ ...rest, ...known }));
    }
    case "union":
      return fc.oneof(...(def as unknown as z.core.$ZodUnionDef).options.map(valid));
    default:
      throw new Error(`No valid values drawn for a ${def.type}`);
  }
}

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null");

/** Values a reader must judge as zod does: odd numbers, near-miss words, wrong types. */
const oddValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, "", "on", "unknown", "initialData", 0, -0, 1.5, -1, 2 ** 53, Infinity, true, [], {}),
);

type Mutation =
  | { kind: "replace"; value: unknown }
  | { kind: "delete" }
  | { kind: "add"; key: string; value: unknown }
  | { kind: "proto"; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  oddValue.map((value) => ({ kind: "replace" as const, value })),
  fc.constant({ kind: "delete" as const }),
  fc
    .tuple(fc.constantFrom("extra", "type", "kind", "toString", "constructor", "stopsAt"), oddValue)
    .map(([key, value]) => ({ kind: "add" as const, key, value })),
  oddValue.map((value) => ({ kind: "proto" as const, value })),
);

/** Every place in a JSON value: the value itself (null parent) and each member of each container. */
function places(
  value: unknown,
  parent: object | null = null,
  key: string | number = "",
): [object | null, string | number, unknown][] {
  const here: [object | null, string | number, unknown][] = [[parent, key, value]];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => places(item, value, index))];
  if (typeof value === "object" && value !== null) {
    return [...here, ...Object.entries(value).flatMap(([name, item]) => places(item, value, name))];
  }
  return here;
}

/** `value` with one place changed; JSON's 1e999 is Infinity, and JSON.parse makes an own `__proto__` key. */
function mutate(value: unknown, at: number, change: Mutation): unknown {
  const root = structuredClone(value);
  const all = places(root);
  const [parent, key, target] = all[at % all.length]!;
  const replace = (next: unknown) => {
    if (parent === null) return next;
    (parent as Record<string | number, unknown>)[key] = next;
    return root;
  };
  switch (change.kind) {
    case "replace":
      return replace(change.value);
    case "delete":
      if (parent === null) return undefined;
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete (parent as Record<string, unknown>)[key];
      return root;
    case "add":
      if (typeof target !== "object" || target === null || Array.isArray(target)) return replace(change.value);
      (target as Record<string, unknown>)[change.key] = change.value;
      return root;
    case "proto":
      if (typeof target !== "object" || target === null || Array.isArray(target)) return replace(change.value);
      Object.defineProperty(target, "__proto__", {
        value: change.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return root;
  }
}

/** The reader's answer is zod's: accepted or refused alike, and the same value, key for key and in order. */
function expectSameAnswer(schema: Schema, reader: Check<unknown>, input: unknown) {
  const expected = z.safeParse(schema, input);
  const actual = reader.safeParse(input);
  expect(actual.success, JSON.stringify(input)).toBe(expected.success);
  if (expected.success && actual.success) {
    expect(actual.data).toStrictEqual(expected.data);
    expect(JSON.stringify(actual.data)).toBe(JSON.stringify(expected.data));
  }
}

const readers = new Map<string, Check<unknown>>(Object.entries(generated));

describe("app/checks/generated.ts", () => {
  it("is what the generator makes from the schemas (run npm run checks:generate)", () => {
    expect(readFileSync(BROWSER_CHECKS_FILE, "utf8")).toBe(browserChecksModule());
  });

  for (const { name, schema } of BROWSER_CHECKS) {
    const reader = readers.get(name)!;

    describe(name, () => {
      it("accepts every valid value and reads it as zod does", () => {
        fc.assert(
          fc.property(valid(schema).map(asJson), (input) => {
            expect(z.safeParse(schema, input).success).toBe(true);
            expectSameAnswer(schema, reader, input);
          }),
          { seed: SEED, numRuns: RUNS },
        );
      });

      it("gives zod's answer for a valid value with one place changed", () => {
        fc.assert(
          fc.property(valid(schema).map(asJson), fc.nat(), mutation, (input, at, change) => {
            expectSameAnswer(schema, reader, mutate(input, at, change));
          }),
          { seed: SEED, numRuns: RUNS * 5 },
        );
      });

      it("gives zod's answer for any JSON at all", () => {
        fc.assert(
          fc.property(fc.jsonValue(), (input) => expectSameAnswer(schema, reader, input)),
          { seed: SEED, numRuns: RUNS },
        );
      });
    });
  }
});

describe("what the page refuses and keeps, as it did with zod", () => {
  // An older hub's state: no stopsAt nor startedBy, and a fault without its phase.
  const { stopsAt: _newer, startedBy: _newest, ...older } = OFF_SINCE_HELLO;
  const state = { ...older, faults: [{ kind: "phaseFault", since: 5, detail: null }] };

  it("a message of a type the page does not know, a reading of 1e999 volts, a log id of 1.5: refused, naming where", () => {
    const refused = [
      { type: "motorStarted" },
      JSON.parse('{"type":"powerDataUpdate","powerData":{"current":1,"wattage":1e999}}'),
      { type: "motorLogUpdate", log: { id: 1.5, action: "on", logMessage: "", timestamp: "", kind: "x", params: {} } },
    ];
    const paths = refused.map((input) => {
      const answer = generated.realtimeMessageCheck.safeParse(input);
      return answer.success ? null : answer.error.issues[0]!.path;
    });
    expect(paths).toEqual([["type"], ["powerData", "wattage"], ["log", "id"]]);
  });

  it("an older state without stopsAt, startedBy or a phase reads them as null, and a field the page does not know is dropped", () => {
    const answer = generated.realtimeMessageCheck.safeParse({
      type: "pumpState",
      pump: { ...state, newer: 1 },
      extra: true,
    });
    expect(answer).toEqual({
      success: true,
      data: {
        type: "pumpState",
        pump: {
          ...state,
          faults: [{ kind: "phaseFault", since: 5, detail: null, phase: null }],
          stopsAt: null,
          startedBy: null,
        },
      },
    });
  });

  it("a refusal's params keep every key but an own __proto__, and a switch's value is on or off only", () => {
    const refusal = generated.apiErrorCheck.safeParse(
      JSON.parse('{"success":false,"message":"m","code":"c","params":{"seconds":5,"__proto__":{"polluted":1}}}'),
    );
    expect(refusal.success && Object.getPrototypeOf(refusal.data.params)).toBe(Object.prototype);
    expect(refusal.success && refusal.data.params).toEqual({ seconds: 5 });
    expect(["on", "off", "ON", null].map((value) => generated.relayStateCheck.safeParse(value).success)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
