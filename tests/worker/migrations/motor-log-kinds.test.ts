// Migration 0007 reads the sentences motor logs were stored as back into kinds with parameters.
// Old rows are written into a database migrated up to 0006, then 0007 is applied.
import { expect } from "vitest";
import { z } from "../../../common/zod.ts";
import { legacyMotorLogEvent } from "../../../durable-objects/device-hub/legacy-motor-log.ts";
import { MOTOR_LOG_EXAMPLES } from "../../app/motor-log-examples.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { testMigration } from "./step-by-step.ts";

freshStorageForThisFile();

const MIGRATION = "0007_motor_log_kinds.sql";

/** Sentences no hub wrote in these words, and one that only looks like one. */
const UNREADABLE = [
  "Pump serviced by Ramesh",
  "Motor turned ON (by a neighbour)",
  "Motor turned ON by schedule (25:00 AM, daily)",
  "Scheduled ON at 6 AM was missed: the device was offline.",
  "Motor turned OFF by the server: a reason nobody wrote.",
];

testMigration(
  MIGRATION,
  "gives every sentence the hub wrote its kind and parameters, and keeps the rest as legacy text",
  async ({ db, applyRest }) => {
    const written = MOTOR_LOG_EXAMPLES.filter(
      (example) => example.written !== false && example.event.kind !== "legacy",
    );
    const rows = [
      ...written.map((example) => ({ action: example.action, message: example.english })),
      ...UNREADABLE.map((message) => ({ action: "other", message })),
    ];
    await db.batch(
      rows.map((row, index) =>
        db
          .prepare(
            "INSERT INTO motor_logs (device_id, user_id, mobile_no, action, message, created_at) VALUES ('SNC-OLDROWS', NULL, '9876543210', ?, ?, ?)",
          )
          .bind(row.action, row.message, index),
      ),
    );

    await applyRest();

    const { results } = await db
      .prepare(
        "SELECT kind, params, message, action FROM motor_logs WHERE device_id = 'SNC-OLDROWS' ORDER BY created_at",
      )
      .all<{ kind: string; params: string; message: string; action: string }>();
    const converted = results.map((row) => ({
      kind: row.kind,
      ...z.record(z.string(), z.unknown()).parse(JSON.parse(row.params)),
    }));
    expect(converted.slice(0, written.length)).toEqual(written.map((example) => example.event));
    expect(converted.slice(written.length)).toEqual(UNREADABLE.map((text) => ({ kind: "legacy", text })));
    // The sentence and the action stay as they were.
    expect(results.map((row) => [row.action, row.message])).toEqual(rows.map((row) => [row.action, row.message]));
    // Hubs read sentences left in their own storage the same way.
    expect(rows.map((row) => legacyMotorLogEvent(row.message))).toEqual(converted);
    // Its helper tables are gone.
    const { results: tables } = await db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'motor_log_*'")
      .all();
    expect(tables).toEqual([]);
    console.log(`migration ${MIGRATION}: ${written.length} old rows given a kind, ${UNREADABLE.length} kept as legacy`);
  },
);
