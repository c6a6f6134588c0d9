// Migration 0008 moves the motor settings from the account to each box, and lets an account own
// several boxes. Rows are written into a database migrated up to 0007, then 0008 is applied.
import { expect } from "vitest";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { testMigration } from "./step-by-step.ts";

freshStorageForThisFile();

testMigration(
  "0008_many_pumps.sql",
  "gives each box its owner's settings and history, keeps an unowned box at the defaults, and lets an account own a second box",
  async ({ db, applyRest }) => {
    await db.batch([
      db.prepare(
        `INSERT INTO users (id, mobile_no, password_hash, created_at, default_current, dry_run_threshold, over_current_threshold)
         VALUES (1, '9876500001', 'x', 1, 8.9, 25, 35), (2, '9876500002', 'x', 1, 4.2, 30, 30), (3, '9876500003', 'x', 1, 6, 20, 40)`,
      ),
      db.prepare(
        `INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at)
         VALUES ('SNC-OWNED1', 1, '3phase', 'h', 10), ('SNC-OWNED2', 2, '1phase', 'h', 11), ('SNC-NOBODY', NULL, '3phase', 'h', 12)`,
      ),
      db.prepare(
        `INSERT INTO motor_config_history (user_id, default_current, dry_run_threshold, over_current_threshold, change_note, created_at)
         VALUES (1, 8.9, 25, 35, 'Set by installer', 5), (3, 6, 20, 40, 'No box yet', 6)`,
      ),
    ]);

    await applyRest();

    const { results: boxes } = await db
      .prepare("SELECT id, name, default_current, dry_run_threshold, over_current_threshold FROM devices ORDER BY id")
      .all();
    expect(boxes).toEqual([
      { id: "SNC-NOBODY", name: null, default_current: 1, dry_run_threshold: 30, over_current_threshold: 30 },
      { id: "SNC-OWNED1", name: null, default_current: 8.9, dry_run_threshold: 25, over_current_threshold: 35 },
      { id: "SNC-OWNED2", name: null, default_current: 4.2, dry_run_threshold: 30, over_current_threshold: 30 },
    ]);
    const { results: history } = await db
      .prepare("SELECT user_id, device_id, default_current FROM motor_config_history ORDER BY id")
      .all();
    expect(history).toEqual([
      { user_id: 1, device_id: "SNC-OWNED1", default_current: 8.9 },
      { user_id: 3, device_id: null, default_current: 6 },
    ]);
    const { results: userColumns } = await db.prepare("SELECT name FROM pragma_table_info('users')").all();
    expect(userColumns.map((column) => column.name)).not.toContain("default_current");

    // A second box for the same account is now allowed.
    await db
      .prepare(
        "INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at) VALUES ('SNC-OWNED3', 1, '3phase', 'h', 13)",
      )
      .run();
    const { results: owned } = await db
      .prepare("SELECT id FROM devices WHERE owner_user_id = 1 ORDER BY created_at")
      .all();
    expect(owned.map((row) => row.id)).toEqual(["SNC-OWNED1", "SNC-OWNED3"]);
  },
);
