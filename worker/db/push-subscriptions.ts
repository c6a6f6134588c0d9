// Browsers that get alerts with the app closed (D1 `push_subscriptions`). Each row belongs to the
// session that saved it: it ends with that session, and only that account may change it.
import { and, desc, eq, gt, isNull, ne, notInArray, type SQL, sql } from "drizzle-orm";
import type { AlertKind } from "../../common/alerts.ts";
import { alertRecipientIds } from "./alert-recipients.ts";
import type { Db } from "./client.ts";
import { devices, type PushSubscriptionRow, pushSubscriptions, sessions } from "./schema.ts";

/**
 * A browser has one subscription; a session is one login in one browser, so more than one is a
 * browser that subscribed again (site data cleared, permission reset) or a script. Beyond this
 * the session's oldest goes: the newest is the one the farmer just turned on.
 */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 3;
/** The phones of a family and a helper or two; beyond this the account's oldest goes. */
export const MAX_SUBSCRIPTIONS_PER_ACCOUNT = 10;

export type PushSubscriptionInput = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  kinds: AlertKind[];
  language: "hi" | "en";
};

/** Whose subscription it is: the account and the session that saves it. */
export type SubscriptionOwner = { userId: number; sessionId: string };

/** The rows beyond the newest `keep` of those `scope` selects. */
function beyondNewest(db: Db, scope: SQL, keep: number) {
  const newest = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(scope)
    .orderBy(desc(pushSubscriptions.updatedAt), desc(pushSubscriptions.id))
    .limit(keep);
  return db.delete(pushSubscriptions).where(and(scope, notInArray(pushSubscriptions.id, newest)));
}

/**
 * Saves this browser's subscription for the session `owner`, in one D1 batch with the caps: the
 * session's and the account's oldest beyond MAX_SUBSCRIPTIONS_PER_SESSION and _ACCOUNT go.
 * An address the same account saved before moves to this session (the farmer logged in again on
 * that phone). An address another account holds is "taken": a push address is a capability, and
 * whoever learns one must not redirect that phone's alerts or stop them; the phone that really
 * changed hands was unsubscribed when its session ended. `replacing` is deleted first, in the
 * same batch (the push service moved the browser to a new address).
 */
export async function saveSubscription(
  db: Db,
  owner: SubscriptionOwner,
  input: PushSubscriptionInput,
  now = Date.now(),
  replacing?: string,
): Promise<PushSubscriptionRow | "taken"> {
  const values = {
    userId: owner.userId,
    sessionId: owner.sessionId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    kinds: input.kinds,
    language: input.language,
    updatedAt: now,
  };
  const upsert = db
    .insert(pushSubscriptions)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: values,
      setWhere: sql`${pushSubscriptions.userId} = excluded.user_id`,
    })
    .returning();
  const caps = [
    beyondNewest(db, eq(pushSubscriptions.sessionId, owner.sessionId), MAX_SUBSCRIPTIONS_PER_SESSION),
    beyondNewest(db, eq(pushSubscriptions.userId, owner.userId), MAX_SUBSCRIPTIONS_PER_ACCOUNT),
  ] as const;
  if (replacing !== undefined) {
    const [, saved] = await db.batch([
      db
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, owner.userId), eq(pushSubscriptions.endpoint, replacing))),
      upsert,
      ...caps,
    ]);
    return saved[0] ?? "taken";
  }
  const [saved] = await db.batch([upsert, ...caps]);
  return saved[0] ?? "taken";
}

export function findSubscription(db: Db, userId: number, endpoint: string): Promise<PushSubscriptionRow | undefined> {
  return db.query.pushSubscriptions.findFirst({
    where: and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)),
  });
}

/** The subscription's session is neither revoked nor run out at `now`. */
function sessionIsLive(now: number) {
  return and(eq(sessions.id, pushSubscriptions.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));
}

/** The user's subscription at `endpoint`, if its session is still live: the only kind a push goes to. */
export async function findLiveSubscription(
  db: Db,
  userId: number,
  endpoint: string,
  now = Date.now(),
): Promise<PushSubscriptionRow | undefined> {
  const [row] = await db
    .select({ subscription: pushSubscriptions })
    .from(pushSubscriptions)
    .innerJoin(sessions, sessionIsLive(now))
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .limit(1);
  return row?.subscription;
}

/** True when the user had this subscription. */
export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<boolean> {
  const deleted = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return deleted.length > 0;
}

/** The push service gave the address up (404/410), or it is not a push service's: whoever it belonged to. */
export async function deleteSubscriptionByEndpoint(db: Db, endpoint: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
}

/** For the batch that ends session `sessionId` (logout): its subscriptions end with it. */
export function deleteSubscriptionsOfSession(db: Db, sessionId: string) {
  return db.delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, sessionId));
}

/**
 * For the batch that ends every session of `userId` but `keptSessionId` (a password change), or
 * every one of them (null: a password reset by a code).
 */
export function deleteSubscriptionsOfOtherSessions(db: Db, userId: number, keptSessionId: string | null) {
  return db
    .delete(pushSubscriptions)
    .where(
      keptSessionId === null
        ? eq(pushSubscriptions.userId, userId)
        : and(eq(pushSubscriptions.userId, userId), ne(pushSubscriptions.sessionId, keptSessionId)),
    );
}

/**
 * Every browser that gets box `deviceId`'s alerts of `kind`, with the box's name, in one query:
 * browsers of live sessions of the pump's alert recipients (alert-recipients.ts), as D1 says
 * now (a member removed a moment ago gets nothing). Read
 * through the index on the account: the pump's few people, then their subscriptions.
 */
export async function subscriptionsForPump(
  db: Db,
  deviceId: string,
  kind: AlertKind,
  now = Date.now(),
): Promise<{ name: string | null; subscription: PushSubscriptionRow }[]> {
  const people = alertRecipientIds(deviceId);
  if (people === null) return [];
  const rows = await db
    .select({ name: devices.name, subscription: pushSubscriptions })
    .from(pushSubscriptions)
    .innerJoin(sessions, sessionIsLive(now))
    .innerJoin(devices, eq(devices.id, deviceId))
    .where(sql`${pushSubscriptions.userId} IN (${people})`);
  return rows.filter((row) => row.subscription.kinds.includes(kind));
}

export async function markSubscriptionSent(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.update(pushSubscriptions).set({ lastSentAt: now }).where(eq(pushSubscriptions.id, id));
}
