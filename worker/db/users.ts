import { eq } from "drizzle-orm";
import type { PublicUser } from "../../common/api-responses/accounts.ts";
import type { Db } from "./client.ts";
import { type UserRow, users } from "./schema.ts";

export function findUserByMobileNo(db: Db, mobileNo: string): Promise<UserRow | undefined> {
  return db.query.users.findFirst({ where: eq(users.mobileNo, mobileNo) });
}

/** Inserts a user; returns undefined when the mobile number is already registered. */
export async function insertUser(
  db: Db,
  values: { mobileNo: string; passwordHash: string; isAdmin?: boolean; now: number },
): Promise<UserRow | undefined> {
  const rows = await db
    .insert(users)
    .values({
      mobileNo: values.mobileNo,
      passwordHash: values.passwordHash,
      isAdmin: values.isAdmin ?? false,
      createdAt: values.now,
    })
    .onConflictDoNothing({ target: users.mobileNo })
    .returning();
  return rows[0];
}

export async function recordLogin(db: Db, userId: number, now: number): Promise<void> {
  await db.update(users).set({ lastLogin: now }).where(eq(users.id, userId));
}

export function toPublicUser(user: Pick<UserRow, "id" | "mobileNo" | "isAdmin">): PublicUser {
  return { id: user.id, mobileNo: user.mobileNo, isAdmin: user.isAdmin };
}
