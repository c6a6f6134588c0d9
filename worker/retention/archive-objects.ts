// Rows moved out of D1 into R2 (docs/decisions/034-what-lives-where.md): one NDJSON object per
// group of rows (a box's month of motor logs, a month of the admin trail), one row a line, in id
// order. Written before any row leaves D1, and rewritten whole with the rows it already holds, so
// an archiving run killed at any point and run again loses nothing and doubles nothing.
import type { z } from "../../common/zod.ts";

type ArchivedRow = { id: number };

/** What an archive object says of itself, so a reader can skip it without opening it. */
export type ArchiveObjectMetadata = { minId: number; maxId: number; rows: number };

/** Reads an archive object's rows; a line that does not parse throws (never overwrite what cannot be read). */
export function parseArchive<Row extends ArchivedRow>(text: string, schema: z.ZodType<Row>): Row[] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => schema.parse(JSON.parse(line)));
}

/** The object's rows, oldest first; none when there is no object. */
export async function readArchive<Row extends ArchivedRow>(
  bucket: R2Bucket,
  key: string,
  schema: z.ZodType<Row>,
): Promise<Row[]> {
  const object = await bucket.get(key);
  return object ? parseArchive(await object.text(), schema) : [];
}

/**
 * Adds `rows` to the object at `key` (creating it), merged by id with what it holds: a row
 * archived by an earlier run that died before deleting it is there once. The write is
 * conditional on the object being the one read (or on there being none), so two runs at once
 * never drop each other's rows: the loser gets `false` and must delete nothing. `true`: every
 * one of `rows` is now in R2 (the put resolved, its SHA-256 checked by R2).
 */
export async function archiveRows<Row extends ArchivedRow>(
  bucket: R2Bucket,
  key: string,
  rows: Row[],
  schema: z.ZodType<Row>,
): Promise<boolean> {
  if (rows.length === 0) return true;
  const existing = await bucket.get(key);
  const byId = new Map<number, Row>();
  if (existing) for (const row of parseArchive(await existing.text(), schema)) byId.set(row.id, row);
  for (const row of rows) byId.set(row.id, schema.parse(row));
  const merged = [...byId.values()].sort((a, b) => a.id - b.id);
  const body = `${merged.map((row) => JSON.stringify(row)).join("\n")}\n`;
  const metadata: ArchiveObjectMetadata = {
    minId: merged[0]!.id,
    maxId: merged.at(-1)!.id,
    rows: merged.length,
  };
  const written = await bucket.put(key, body, {
    onlyIf: existing ? { etagMatches: existing.etag } : { etagDoesNotMatch: "*" },
    httpMetadata: { contentType: "application/x-ndjson; charset=utf-8" },
    customMetadata: Object.fromEntries(Object.entries(metadata).map(([name, value]) => [name, String(value)])),
    sha256: await sha256Hex(body),
  });
  return written !== null;
}

/** The metadata an archive object was written with; null for an object this code did not write. */
export function archiveMetadata(object: Pick<R2Object, "customMetadata">): ArchiveObjectMetadata | null {
  const { minId, maxId, rows } = object.customMetadata ?? {};
  const numbers = [minId, maxId, rows].map(Number);
  return numbers.every((value) => Number.isSafeInteger(value))
    ? { minId: numbers[0]!, maxId: numbers[1]!, rows: numbers[2]! }
    : null;
}

/** Every object under `prefix` with its metadata (R2 lists 1,000 at a time). */
export async function listArchive(bucket: R2Bucket, prefix: string): Promise<R2Object[]> {
  const objects: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, include: ["customMetadata"] });
    objects.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
