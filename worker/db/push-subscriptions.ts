// Browsers that get a farmer's alerts (D1 `push_subscriptions`).
import { and, eq } from "drizzle-orm";
import type { AlertKind } from "../../common/alerts.ts";
import type { Db } from "./client.ts";
import { type PushSubscriptionRow, pushSubscriptions } from "./schema.ts";

export type PushSubscriptionInput = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  kinds: AlertKind[];
  language: "hi" | "en";
};

/**
 * Saves this browser's subscription for `userId`. A browser has one: an endpoint another
 * account had (the phone changed hands after a logout that did not reach us) now belongs here.
 */
export async function saveSubscription(
  db: Db,
  userId: number,
  input: PushSubscriptionInput,
  now = Date.now(),
): Promise<PushSubscriptionRow> {
  const values = {
    userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    kinds: input.kinds,
    language: input.language,
    updatedAt: now,
  };
  const [row] = await db
    .insert(pushSubscriptions)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
    .returning();
  return row!;
}

export function findSubscription(db: Db, userId: number, endpoint: string): Promise<PushSubscriptionRow | undefined> {
  return db.query.pushSubscriptions.findFirst({
    where: and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)),
  });
}

/** True when the user had this subscription. */
export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

/** The push service gave the address up (404/410): whoever it belonged to. */
export async function deleteSubscriptionByEndpoint(db: Db, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
}

/** The push service moved this browser to a new address: same account, kinds and language. */
export async function renewSubscription(
  db: Db,
  userId: number,
  oldEndpoint: string,
  fresh: { endpoint: string; keys: { p256dh: string; auth: string } },
  now = Date.now(),
): Promise<PushSubscriptionRow | undefined> {
  const old = await findSubscription(db, userId, oldEndpoint);
  if (!old) return undefined;
  await deleteSubscription(db, userId, oldEndpoint);
  return saveSubscription(db, userId, { ...fresh, kinds: old.kinds, language: old.language }, now);
}

/** Every browser of `userId` that wants alerts of `kind`. */
export async function subscriptionsFor(db: Db, userId: number, kind: AlertKind): Promise<PushSubscriptionRow[]> {
  const rows = await db.query.pushSubscriptions.findMany({ where: eq(pushSubscriptions.userId, userId) });
  return rows.filter((row) => row.kinds.includes(kind));
}

export async function markSubscriptionSent(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSentAt: now }).where(eq(pushSubscriptions.id, id));
}
