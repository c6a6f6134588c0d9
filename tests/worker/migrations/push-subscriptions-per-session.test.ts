// Migration 0011 gives every push subscription the session it belongs to. Rows saved before it
// go to the newest live farmer session of their account, or are deleted when it has none, and an
// account keeps its 10 newest. Rows are written into a database migrated up to 0010.
import { expect } from "vitest";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { testMigration } from "./step-by-step.ts";

freshStorageForThisFile();

testMigration(
  "0012_push_subscriptions_per_session.sql",
  "ties each old subscription to its account's newest live farmer session, drops those of accounts without one, keeps 10 an account",
  async ({ db, applyRest }) => {
    const now = Date.now();
    const day = 86_400_000;
    await db.batch([
      db.prepare(
        `INSERT INTO users (id, mobile_no, password_hash, created_at)
         VALUES (1, '9876500001', 'x', 1), (2, '9876500002', 'x', 1), (3, '9876500003', 'x', 1)`,
      ),
      db
        .prepare(
          `INSERT INTO sessions (id, user_id, audience, created_at, expires_at, revoked_at) VALUES
           ('old-live', 1, 'user', ?1, ?2, NULL),
           ('new-live', 1, 'user', ?3, ?2, NULL),
           ('newest-revoked', 1, 'user', ?4, ?2, ?4),
           ('newest-admin', 1, 'admin', ?4, ?2, NULL),
           ('expired', 2, 'user', ?1, ?5, NULL),
           ('many', 3, 'user', ?1, ?2, NULL)`,
        )
        .bind(now - 3 * day, now + day, now - 2 * day, now - day, now - 1),
      ...Array.from({ length: 14 }, (_, index) =>
        db
          .prepare(
            `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, language, kinds, created_at, updated_at)
             VALUES (?1, ?2, 'k', 'a', 'hi', '["phase"]', ?3, ?3)`,
          )
          .bind(index < 2 ? index + 1 : 3, `https://fcm.googleapis.com/fcm/send/${index}`, index),
      ),
    ]);

    await applyRest();

    const { results } = await db
      .prepare("SELECT user_id, session_id, endpoint FROM push_subscriptions ORDER BY id")
      .all<{ user_id: number; session_id: string; endpoint: string }>();
    expect(results[0]).toEqual({
      user_id: 1,
      session_id: "new-live",
      endpoint: "https://fcm.googleapis.com/fcm/send/0",
    });
    // The account whose only session has expired keeps nothing.
    expect(results.filter((row) => row.user_id === 2)).toEqual([]);
    // Twelve of account 3: the ten newest stay.
    const many = results.filter((row) => row.user_id === 3);
    expect(many.map((row) => row.endpoint)).toEqual(
      Array.from({ length: 10 }, (_, index) => `https://fcm.googleapis.com/fcm/send/${index + 4}`),
    );
    expect(new Set(many.map((row) => row.session_id))).toEqual(new Set(["many"]));

    // Ending the session now ends its subscriptions (the foreign key).
    await db.prepare("DELETE FROM sessions WHERE id = 'new-live'").run();
    const left = await db.prepare("SELECT COUNT(*) AS count FROM push_subscriptions WHERE user_id = 1").first();
    expect(left).toEqual({ count: 0 });
  },
);
