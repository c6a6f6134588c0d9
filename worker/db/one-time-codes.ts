// One-time codes in D1 (`one_time_codes`), as worker/auth/one-time-codes.ts keeps them. Each step
// that must not race is one statement: two checks at once each count a try, and of two right
// codes checked at once only one is used.
import { and, eq, gt, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "./client.ts";
import { oneTimeCodes } from "./schema.ts";

export type CodePurpose = (typeof oneTimeCodes.$inferSelect)["purpose"];

/** A new code for this number and purpose; the code it replaces (if any) stops working. */
export async function saveCode(
  db: Db,
  code: { purpose: CodePurpose; mobileNo: string; codeHash: string; createdAt: number; expiresAt: number },
): Promise<void> {
  const fresh = {
    codeHash: code.codeHash,
    tries: 0,
    createdAt: code.createdAt,
    expiresAt: code.expiresAt,
    usedAt: null,
  };
  await db
    .insert(oneTimeCodes)
    .values({ purpose: code.purpose, mobileNo: code.mobileNo, ...fresh })
    .onConflictDoUpdate({ target: [oneTimeCodes.purpose, oneTimeCodes.mobileNo], set: fresh });
}

/**
 * Counts one try of the live code for this number and purpose and returns its hash, or null
 * when there is none to try (never sent, used, expired, or out of tries).
 */
export async function countTry(
  db: Db,
  purpose: CodePurpose,
  mobileNo: string,
  maxTries: number,
  now: number,
): Promise<{ codeHash: string; tries: number } | null> {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ tries: sql`${oneTimeCodes.tries} + 1` })
    .where(
      and(
        eq(oneTimeCodes.purpose, purpose),
        eq(oneTimeCodes.mobileNo, mobileNo),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, now),
        lt(oneTimeCodes.tries, maxTries),
      ),
    )
    .returning({ codeHash: oneTimeCodes.codeHash, tries: oneTimeCodes.tries });
  return row ?? null;
}

/** Marks the code with this hash used; false when it was used (or replaced) meanwhile. */
export async function markUsed(
  db: Db,
  purpose: CodePurpose,
  mobileNo: string,
  codeHash: string,
  now: number,
): Promise<boolean> {
  const rows = await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(oneTimeCodes.purpose, purpose),
        eq(oneTimeCodes.mobileNo, mobileNo),
        eq(oneTimeCodes.codeHash, codeHash),
        isNull(oneTimeCodes.usedAt),
      ),
    )
    .returning({ purpose: oneTimeCodes.purpose });
  return rows.length === 1;
}

/** Deletes codes that can no longer be used: expired, or used, a day ago or more. */
export async function purgeOldCodes(db: Db, now: number): Promise<number> {
  const dayAgo = now - 24 * 60 * 60 * 1000;
  const rows = await db
    .delete(oneTimeCodes)
    .where(or(lte(oneTimeCodes.expiresAt, dayAgo), lte(oneTimeCodes.usedAt, dayAgo)))
    .returning({ purpose: oneTimeCodes.purpose });
  return rows.length;
}
