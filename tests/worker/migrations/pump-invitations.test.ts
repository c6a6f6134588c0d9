// Migration 0011 makes a membership an invitation until its number accepts, and adds the hubs'
// notices. The people owners added before keep the access they had: rows written into a database
// migrated up to 0010 are accepted (as of when they were added) once 0011 is applied.
import { expect } from "vitest";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { testMigration } from "./step-by-step.ts";

freshStorageForThisFile();

testMigration(
  "0011_pump_invitations_and_hub_notices.sql",
  "counts every earlier member as accepted when they were added, and starts with no notices",
  async ({ db, applyRest }) => {
    await db.batch([
      db.prepare("INSERT INTO users (id, mobile_no, password_hash, created_at) VALUES (1, '9876500001', 'x', 1)"),
      db.prepare(
        "INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at) VALUES ('SNC-OWNED1', 1, '3phase', 'h', 10)",
      ),
      db.prepare(
        `INSERT INTO device_members (device_id, mobile_no, role, label, invited_by_user_id, created_at)
         VALUES ('SNC-OWNED1', '9876500002', 'operator', 'Ram', 1, 111), ('SNC-OWNED1', '9876500003', 'viewer', 'Sita', 1, 222)`,
      ),
    ]);

    await applyRest();

    const { results: members } = await db
      .prepare("SELECT mobile_no, created_at, accepted_at FROM device_members ORDER BY mobile_no")
      .all();
    expect(members).toEqual([
      { mobile_no: "9876500002", created_at: 111, accepted_at: 111 },
      { mobile_no: "9876500003", created_at: 222, accepted_at: 222 },
    ]);
    expect((await db.prepare("SELECT * FROM hub_notices").all()).results).toEqual([]);
    // A row added from now on is an invitation until its number accepts.
    await db
      .prepare(
        "INSERT INTO device_members (device_id, mobile_no, role, label, created_at) VALUES ('SNC-OWNED1', '9876500004', 'viewer', 'Gita', 333)",
      )
      .run();
    const invited = await db.prepare("SELECT accepted_at FROM device_members WHERE mobile_no = '9876500004'").first();
    expect(invited).toEqual({ accepted_at: null });
  },
);
