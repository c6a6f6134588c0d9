// Shared by the fuzz suites (tests/worker/api/fuzz.http.test.ts and
// tests/durable-objects/device-hub.fuzz.test.ts): reproducible seeds, generators of bad values
// and bad JSON, and snapshots of everything a rejected input must leave alone.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { hubStub } from "./helpers/hub-state.ts";

// ---- seeds --------------------------------------------------------------------------------

/** Fixed so CI is reproducible; `FUZZ_SEED=123 npx vitest run ...` explores other inputs. */
const DEFAULT_FUZZ_SEED = 20_261_123;

export function baseSeed(): number {
  const parsed = Number.parseInt(env.FUZZ_SEED ?? "", 10);
  return Number.isSafeInteger(parsed) ? parsed : DEFAULT_FUZZ_SEED;
}

/**
 * One seed per property, derived from the base seed and a label (the route, the message type):
 * every property explores its own inputs, and a failure names a seed that replays just it.
 */
export function seedFor(label: string): number {
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (baseSeed() ^ hash) | 0;
}

// ---- JSON that JSON.stringify cannot write ------------------------------------------------

const RAW = Symbol("raw JSON text");
const ENTRIES = Symbol("object entries");

/** A JSON token written as is: 1e999 (parses to Infinity), -0, 30-digit integers. */
export type RawJson = { [RAW]: string };
/** An object as a list of entries: duplicate keys and an own `__proto__` key survive. */
export type JsonEntries = { [ENTRIES]: [string, unknown][] };

export const raw = (text: string): RawJson => ({ [RAW]: text });
export const entries = (list: [string, unknown][]): JsonEntries => ({ [ENTRIES]: list });

function isRaw(value: unknown): value is RawJson {
  return typeof value === "object" && value !== null && RAW in value;
}
function isEntries(value: unknown): value is JsonEntries {
  return typeof value === "object" && value !== null && ENTRIES in value;
}

/** JSON text of `value`, with raw tokens and entry lists written as they are. */
export function toJsonText(value: unknown): string {
  if (isRaw(value)) return value[RAW];
  if (isEntries(value)) {
    const members = value[ENTRIES].filter(([, item]) => item !== undefined);
    return `{${members.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(",")}}`;
  }
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? "null" : toJsonText(item))).join(",")}]`;
  if (typeof value === "object" && value !== null) return toJsonText(entries(Object.entries(value)));
  return JSON.stringify(value) ?? "null";
}

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

// ---- bad values ---------------------------------------------------------------------------

/** Numbers as text at the edges of parsing: not-a-number, infinite, overflowing, negative, zero. */
const NUMBER_EDGE_TEXTS = ["NaN", "Infinity", "-Infinity", "1e309", "-1", "0", "-0"];

/** Strings that have broken parsers before: numbers in disguise, other scripts' digits, markup. */
const NASTY_STRINGS = [
  "",
  " ",
  "\t\n",
  "\u0000",
  "\u0000abc",
  ...NUMBER_EDGE_TEXTS,
  "0.0",
  "1.5",
  "1e3",
  "0x1F",
  "0b11",
  "0o7",
  "1_000",
  "+5",
  " 5",
  "5 ",
  "٣",
  "９",
  "१२३४५६७८९०",
  "９８７６５４３２１０",
  "null",
  "undefined",
  "true",
  "false",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "../../etc/passwd",
  "%00",
  "%",
  "\u202e",
  "\ufeff",
  "\u2028\u2029",
  "\ud800",
  "\udfff",
  "\ud83d",
  "😀",
  "ऋषि",
  "on",
  "ON ",
  "OFF\u0000",
  "off\n",
  "Off",
  "oN",
  "1phase ",
  "3PHASE",
  "wifi\u0000",
  "paid ",
];

const CONTROL_CHARS = fc.constantFrom(
  "\u0000",
  "\u0007",
  "\b",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u200b",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\u202e",
  "\ud800",
  "\udc00",
);

/** Up to 20,000 characters: past every length limit, and past the 16 KB body limit in UTF-8. */
export const hugeString = fc
  .tuple(fc.integer({ min: 65, max: 20_000 }), fc.constantFrom("x", "é", "😀", "\u0000", "9", "ऋ"))
  .map(([count, unit]) => unit.repeat(count));

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: CONTROL_CHARS, minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: hugeString },
);

/** Numbers written as text, the way a form field or a path segment carries them. */
export const numericString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...NUMBER_EDGE_TEXTS,
    "0.5",
    "1.5",
    "1e3",
    "1e-7",
    "0x1F",
    "0b1",
    "1_0",
    "+1",
    " 1",
    "1 ",
    "01",
    "00000000001",
    "9007199254740993",
    "99999999999999999999999999",
  ),
  fc.double().map(String),
  fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

/** Numbers out of every range: NaN and infinities (null in JSON), -0, floats, huge, tiny, raw. */
export const weirdNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(),
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    -0.5,
    1e308,
    -1e308,
    2 ** 53 + 2,
    Number.MIN_VALUE,
    1e21,
    2 ** 32,
    101,
    1001,
    1_000_001,
  ),
  fc
    .constantFrom("1e999", "-1e999", "1e-999", "-0", "-0.0", "123456789012345678901234567890", "1E+2", "0.1e1")
    .map(raw),
);

export const smallJson = fc.jsonValue({ maxDepth: 2 });

/**
 * Values that are right for some field, somewhere: a field gets another field's value, or a
 * well-formed value naming nothing that exists (another mobile number, an id no row has).
 */
export const plausibleValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.stringMatching(/^[1-9][0-9]{9}$/),
  fc.integer({ min: 1, max: 1_000_000 }),
  fc.constantFrom(2 ** 53 - 1, 2 ** 31, 1e15),
  fc.constantFrom(
    "wifi",
    "sim",
    "on",
    "off",
    "ON",
    "OFF",
    "paid",
    "failed",
    "1phase",
    "3phase",
    "daily",
    "once",
    "6:30 AM",
    "23:59",
    "upi",
    "1month",
    "connected",
  ),
  fc.boolean(),
);

/** Anything a field should not hold: wrong types, bad strings, bad numbers, nesting. */
export const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: plausibleValue },
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: numericString },
  { weight: 3, arbitrary: weirdNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(smallJson, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), smallJson, { maxKeys: 3 }) },
);

/** Keys an attacker tries to slip in next to the real ones. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "isAdmin",
    "userId",
    "id",
    "amount",
    "status",
    "role",
    "ownerUserId",
    "owner",
    "admin",
    "sql",
    "",
  ),
  fc.string({ maxLength: 12 }),
);

type Mutation =
  | { kind: "delete"; key: string }
  | { kind: "set"; key: string; value: unknown }
  | { kind: "duplicate"; key: string; value: unknown }
  | { kind: "extra"; key: string; value: unknown };

/**
 * A valid object with one to three things broken: a field removed, set to a bad value, sent
 * twice (the last one wins in JSON.parse) or joined by an extra field. `fields` should name the
 * optional fields too. The result may still be valid (an extra field is often ignored): every
 * caller checks it against the real schema.
 */
export function brokenObject(template: Record<string, unknown>, fields: readonly string[]): fc.Arbitrary<JsonEntries> {
  const field = fc.constantFrom(...fields);
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 2, arbitrary: field.map((key): Mutation => ({ kind: "delete", key })) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("set" as const), key: field, value: badValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("duplicate" as const), key: field, value: badValue }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("extra" as const),
        key: extraKey,
        value: fc.oneof(badValue, smallJson),
      }),
    },
  );
  return fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => {
    let list: [string, unknown][] = Object.entries(template);
    for (const change of mutations) {
      if (change.kind === "delete") list = list.filter(([key]) => key !== change.key);
      else if (change.kind === "set") {
        list = list.some(([key]) => key === change.key)
          ? list.map(([key, value]) => [key, key === change.key ? change.value : value])
          : [...list, [change.key, change.value]];
      } else list = [...list, [change.key, change.value]];
    }
    return entries(list);
  });
}

/** An object over the expected field names holding only bad values (any subset of them), after `fixed`. */
export function junkObject(fields: readonly string[], fixed: [string, unknown][] = []): fc.Arbitrary<JsonEntries> {
  return fc
    .uniqueArray(fc.constantFrom(...fields), { maxLength: fields.length })
    .chain((keys) => fc.tuple(...keys.map((key) => badValue.map((value): [string, unknown] => [key, value]))))
    .map((list) => entries([...fixed, ...list]));
}

/** Text that is not JSON at all, or is JSON cut short or bent out of shape. */
export function malformedJson(validText: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: 1, max: Math.max(1, validText.length - 1) }).map((cut) => validText.slice(0, cut)),
    fc.constantFrom(
      "{",
      "}",
      "[",
      '{"a":}',
      "{'a':1}",
      "{a:1}",
      "[1,2",
      '{"a":1,}',
      "NaN",
      "undefined",
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":0x10}',
      '{"a":01}',
      '{"a":"\\x41"}',
      '{"a":"\\u12"}',
      "//\n{}",
      "{}{}",
      '{"a":1}garbage',
      "\u0000",
      "nul",
      "tru",
      '"unterminated',
      '{"a":"line\nbreak"}',
    ),
    fc.string({ unit: "binary", maxLength: 60 }).filter((text) => !parsesAsJson(text)),
    fc.integer({ min: 1, max: 5_000 }).map((depth) => "[".repeat(depth)),
    fc.constant(validText.replace(/"/g, "'")),
    fc.constant(`${validText},`),
  );
}

/** JSON that is valid but not an object: a number, a string, an array, null. */
export const nonObjectJson: fc.Arbitrary<string> = fc.oneof(
  fc
    .jsonValue({ maxDepth: 2 })
    .filter((value) => typeof value !== "object" || value === null || Array.isArray(value))
    .map((value) => JSON.stringify(value)),
  fc.integer({ min: 1, max: 3_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
);

export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// ---- state that rejected input must leave alone -------------------------------------------

export type Rows = Record<string, unknown>[];

/** Every row of every table in D1 (ours are small in these tests), keyed by table. */
export async function d1Snapshot(): Promise<Record<string, Rows>> {
  await alertDeliveriesSettled();
  const { results: tables } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  const snapshot: Record<string, Rows> = {};
  for (const { name } of tables) {
    snapshot[name] = (
      await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all<Record<string, unknown>>()
    ).results;
  }
  return snapshot;
}

/**
 * Waits until no SMS or call is still being handed to the provider: an alert raised by an
 * earlier step (a watched box that went away while its motor ran) counts the provider's answer
 * into D1's month in the background (its delivery is kept in the pump's hub, out of this
 * snapshot's sight), and a snapshot taken in between would see it change later. Settled: the
 * counts read the same twice, a provider's answer apart.
 */
async function alertDeliveriesSettled(): Promise<void> {
  const counts = async () =>
    JSON.stringify(
      await env.DB.prepare(
        "SELECT (SELECT COALESCE(SUM(sent), 0) FROM phone_alert_days) AS days, (SELECT COALESCE(SUM(sms + calls + capped), 0) FROM phone_alert_months) AS months",
      ).first(),
    );
  const deadline = Date.now() + 10_000;
  let last = await counts();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = await counts();
    if (now === last) return;
    last = now;
  }
  throw new Error("the phone alerts' counts kept changing for 10 s");
}

/**
 * A hub's own storage: its key-value records and every SQL table (schedules, timers, outbox, power
 * samples, debug lines). Leaves out the counters (wakes, frames handled), which tests compare
 * on purpose, and the liveness timer's due time, which moves with every heartbeat.
 */
export async function hubStorageSnapshot(deviceId: string): Promise<Record<string, unknown>> {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
      )
      .toArray()
      .map((row) => row.name);
    const snapshot: Record<string, unknown> = {};
    for (const [key, value] of state.storage.kv.list()) if (!key.startsWith("stats")) snapshot[`kv:${key}`] = value;
    for (const name of tables) {
      const order = name === "timers" ? "name" : "rowid"; // a timer set again may get a new rowid
      const rows = sql.exec<Record<string, SqlStorageValue>>(`SELECT * FROM "${name}" ORDER BY ${order}`).toArray();
      snapshot[name] =
        name === "timers"
          ? rows.map((row) => (row.name === "liveness" ? { ...row, due_at: "(moves)" } : row))
          : rows.map(plainRow);
    }
    return snapshot;
  });
}

/** SQL blobs come back as ArrayBuffers, which toEqual compares by reference count only. */
function plainRow(row: Record<string, SqlStorageValue>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, value instanceof ArrayBuffer ? [...new Uint8Array(value)] : value]),
  );
}
