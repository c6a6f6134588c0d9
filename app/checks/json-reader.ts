// The pieces app/checks/generated.ts is built from: each reads a JSON value exactly as the zod
// schema it was generated from parses it (the same values accepted, the same output: undeclared
// keys dropped, defaults filled in), without zod's runtime in the phone's download
// (docs/decisions/036-browser-checks-without-zod.md). The schemas in common/ stay the one
// source of truth: scripts/generate-browser-checks.ts writes the generated file from them, and
// tests/app/browser-checks.test.ts holds both to the same answers.

/** Reads a value as its schema parses it, or throws the Flaw that stops it. */
export type Reader = (value: unknown) => unknown;

/** Where a value stops matching, and what was expected there: the page logs it, nothing more. */
export class Flaw {
  readonly path: (string | number)[] = [];
  readonly expected: string;

  constructor(expected: string) {
    this.expected = expected;
  }
}

const fail = (expected: string): never => {
  throw new Flaw(expected);
};

/** `read` of `value`, a Flaw in it naming `key` on its way out. */
function at(key: string | number, read: Reader, value: unknown): unknown {
  try {
    return read(value);
  } catch (flaw) {
    if (flaw instanceof Flaw) flaw.path.unshift(key);
    throw flaw;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const string: Reader = (value) => (typeof value === "string" ? value : fail("string"));

/** zod's `z.number()`: a finite number (JSON's 1e999 reads as Infinity). */
export const number: Reader = (value) => (typeof value === "number" && Number.isFinite(value) ? value : fail("number"));

/** zod's `z.int()`: a safe integer. */
export const int: Reader = (value) => (Number.isSafeInteger(value) ? value : fail("int"));

export const boolean: Reader = (value) => (typeof value === "boolean" ? value : fail("boolean"));

/** Anything at all (zod's `z.custom()` without a check). */
export const anything: Reader = (value) => value;

/** One of these values (zod's `z.literal` and `z.enum`). */
export const oneOf =
  (...values: unknown[]): Reader =>
  (value) =>
    values.includes(value) ? value : fail(values.join("|"));

export const nullable =
  (read: Reader): Reader =>
  (value) =>
    value === null ? null : read(value);

export const optional =
  (read: Reader): Reader =>
  (value) =>
    value === undefined ? undefined : read(value);

/** zod's `z._default`: the fallback when the value is absent, else the value read. */
export const withDefault =
  (read: Reader, fallback: unknown): Reader =>
  (value) =>
    value === undefined ? fallback : read(value);

export const array =
  (read: Reader): Reader =>
  (value) =>
    Array.isArray(value) ? Array.from(value, (item, index) => at(index, read, item)) : fail("array");

/**
 * zod's `z.object` (and `z.catchall`, given `rest`): a new object of the declared keys in their
 * order, an absent optional key left out; then, with `rest`, every other key read with it
 * (never `__proto__`, which would replace the object's prototype instead).
 */
export const object =
  (shape: Record<string, Reader>, rest?: Reader): Reader =>
  (value) => {
    if (!isObject(value)) return fail("object");
    const read: Record<string, unknown> = {};
    for (const key in shape) {
      const field = at(key, shape[key]!, value[key]);
      if (field !== undefined || key in value) read[key] = field;
    }
    if (rest) {
      for (const key in value) {
        if (!Object.hasOwn(shape, key) && key !== "__proto__") read[key] = at(key, rest, value[key]);
      }
    }
    return read;
  };

/** zod's `z.union`: the first option that reads the value. */
export const union =
  (...options: Reader[]): Reader =>
  (value) => {
    for (const read of options) {
      try {
        return read(value);
      } catch (flaw) {
        if (!(flaw instanceof Flaw)) throw flaw;
      }
    }
    return fail("union");
  };

/** zod's `z.discriminatedUnion`: the option whose tags hold the value at `key` reads the object. */
export const tagged = (key: string, options: [tags: unknown[], read: Reader][]): Reader => {
  const byTag = new Map(options.flatMap(([tags, read]) => tags.map((tag) => [tag, read] as const)));
  return (value) => {
    if (!isObject(value)) return fail("object");
    const read = byTag.get(value[key]);
    if (read) return read(value);
    const flaw = new Flaw([...byTag.keys()].join("|"));
    flaw.path.push(key);
    throw flaw;
  };
};

/** What a page's checks answer: the shape of zod's `safeParse`, so callers read either alike. */
export type Check<T> = {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: Flaw[] } };
};

export function check<T>(read: Reader): Check<T> {
  return {
    safeParse(input) {
      try {
        return { success: true, data: read(input) as T };
      } catch (flaw) {
        if (!(flaw instanceof Flaw)) throw flaw;
        return { success: false, error: { issues: [flaw] } };
      }
    },
  };
}
