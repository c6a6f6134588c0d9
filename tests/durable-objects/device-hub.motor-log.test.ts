// The hub writes motor logs as kinds with parameters (common/motor-log-event.ts): in D1, on the
// realtime socket and in its snapshot. Hubs that stored sentences before are read back.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrateHubSchema } from "../../durable-objects/device-hub/schema-versions.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { postJson } from "../worker/helpers/http.ts";
import { fireTimer, hubStub, motorLogRows, rewriteHubState } from "../worker/helpers/hub-state.ts";
import { browserWatching } from "../worker/helpers/sockets.ts";
import { withRooms } from "./room-support.ts";

async function storedLogs(deviceId: string) {
  return (await motorLogRows(deviceId)).map((row) => ({
    action: row.action,
    kind: row.kind,
    params: JSON.parse(row.params),
    message: row.message,
  }));
}

describe("motor logs as kinds", () => {
  it("are written with their parameters to D1, sent to browsers and kept in the snapshot", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: true });
    const browser = await browserWatching(user.mobileNo, { token });

    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    expect((await browser.next("motorLogUpdate")).log).toMatchObject({
      action: "on",
      kind: "switched",
      params: { relay: "on", origin: { by: "app" }, confirmed: "inTime" },
      logMessage: "Motor turned ON from the app",
    });
    box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing", phase: "Y" });
    expect((await browser.next("motorLogUpdate")).log).toMatchObject({
      kind: "phaseFault",
      params: { phase: "Y", detail: "Phase Y missing" },
    });
    box.send({ type: "event", event: "phaseOk", relay: "off" });
    await browser.next("phaseOk");
    box.send({ type: "event", event: "dryRun", relay: "off", current: 3.1 });
    await browser.next("dryRunDetected");

    await expect.poll(async () => (await storedLogs(device.deviceId)).length).toBe(4);
    expect(await storedLogs(device.deviceId)).toEqual([
      {
        action: "on",
        kind: "switched",
        params: { relay: "on", origin: { by: "app" }, confirmed: "inTime" },
        message: "Motor turned ON from the app",
      },
      {
        action: "off",
        kind: "phaseFault",
        params: { phase: "Y", detail: "Phase Y missing" },
        message: "Phase fault detected: Phase Y missing. Motor operation is disabled.",
      },
      { action: "other", kind: "phaseOk", params: {}, message: "Phase is OK now." },
      {
        action: "off",
        kind: "tripDryRun",
        params: { current: 3.1 },
        message: "Dry run detected. Motor turned OFF automatically.",
      },
    ]);
    const snapshot = await hubStub(device.deviceId).getSnapshot();
    expect(snapshot.lastLogs.map((log) => log.kind)).toEqual(["tripDryRun", "phaseOk", "phaseFault", "switched"]);
    box.close();
    browser.close();
  });

  it("name the phase of a phase fault as a code in the pump's faults too", async () => {
    const { device, box } = await farmerWithBox();
    box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase B missing", phase: "B" });
    await expect
      .poll(async () => (await hubStub(device.deviceId).getSnapshot()).pump.faults)
      .toEqual([expect.objectContaining({ kind: "phaseFault", phase: "B", detail: "Phase B missing" })]);
    box.close();
  });
});

describe("what an older hub stored as sentences", () => {
  it("a command waiting for its answer, recent logs and the outbox are read back as kinds", async () => {
    const { user, device, box } = await farmerWithBox();
    const stub = hubStub(device.deviceId);
    await runInDurableObject(stub, (_hub: DeviceHub, state) => {
      const row = {
        deviceId: device.deviceId,
        userId: user.id,
        mobileNo: user.mobileNo,
        action: "off",
        message: "Power cut at the pump. Motor stopped.",
        createdAt: Date.now() - 120_000,
      };
      state.storage.sql.exec("INSERT INTO log_outbox (row) VALUES (?)", JSON.stringify(row));
      state.storage.sql.exec("INSERT INTO timers (name, due_at) VALUES ('flush-logs', ?)", Date.now() + 60_000);
    });
    await rewriteHubState(device.deviceId, (state) => ({
      ...state,
      // An older hub kept its owner without when the box became theirs.
      owner: { userId: user.id, mobileNo: user.mobileNo },
      motor: { status: "unknown", since: Date.now() - 60_000, source: "noAnswer" },
      pendingSwitch: {
        id: "before-kinds",
        relay: "on",
        source: "schedule",
        note: "6:00 AM, daily, for 30 minutes",
        sentAt: Date.now() - 60_000,
        state: "unanswered",
      },
      lastLogs: [
        { id: 1, action: "on", logMessage: "Motor turned ON from the app", timestamp: new Date().toISOString() },
      ],
    }));

    // Recent logs without kinds are a stale copy: read again. The outbox's sentence is read back
    // as its kind (and written to D1 before the state was rewritten above).
    expect((await stub.getSnapshot()).lastLogs).toEqual([
      expect.objectContaining({ action: "off", kind: "powerLost", params: {} }),
    ]);
    // The box says its relay is ON: the old command is confirmed late, with its schedule. Its
    // entry follows the older one out of the outbox, in the order they happened.
    box.send({ type: "relay", relay: "on", cause: "manual" });
    const expected = [
      { action: "off", kind: "powerLost", params: {}, message: "Power cut at the pump. Motor stopped." },
      {
        action: "on",
        kind: "switched",
        params: {
          relay: "on",
          origin: { by: "schedule", minuteOfDay: 360, repeat: "daily", forMinutes: 30 },
          confirmed: "late",
        },
        message: "Motor turned ON by schedule (6:00 AM, daily, for 30 minutes) (confirmed late)",
      },
    ];
    await expect.poll(() => storedLogs(device.deviceId)).toEqual(expected);
    await fireTimer(device.deviceId, "flush-logs"); // delivered again: nothing twice
    expect(await storedLogs(device.deviceId)).toEqual(expected);
    box.close();
  });

  it("an owed switch-off's label becomes its minutes, and only a box's own words stay as a run's reason", async () => {
    const { device } = await farmerWithBox();
    const offs = await withRooms((rooms, state) => {
      const sql = state.storage.sql;
      sql.exec("DROP TABLE schedule_offs");
      sql.exec(`CREATE TABLE schedule_offs (schedule_id INTEGER PRIMARY KEY, planned_at INTEGER NOT NULL, due_at INTEGER NOT NULL,
        label TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0)`);
      sql.exec("INSERT INTO schedule_offs VALUES (7, 1000, 2000, 'after 45 minutes', 1)");
      const insertRun = `INSERT INTO schedules (user_id, minute_of_day, action, repeat, created_at, last_outcome, last_code, last_message)
        VALUES (1, ?, 'on', 'daily', 0, 'failed', ?, ?)`;
      sql.exec(insertRun, 60, "phaseFault", "Phase fault detected. Motor operation is disabled until the phase is OK.");
      sql.exec(insertRun, 61, "rejected", "The device refused the command.");
      sql.exec(insertRun, 62, "rejected", "Relay stuck");
      // A hub from before schema versions: what one starting on this storage does.
      sql.exec("DROP TABLE schema_version");
      migrateHubSchema(state.storage);
      rooms.offs.owe({ scheduleId: 8, plannedAt: 3000, dueAt: 4000, afterMinutes: 20, attempts: 0 });
      const reasons = sql
        .exec<{ code: string; message: string | null }>(
          "SELECT last_code AS code, last_message AS message FROM schedules ORDER BY minute_of_day",
        )
        .toArray();
      return { due: rooms.offs.due(5000), reasons };
    }, device.deviceId);
    expect(offs.due).toEqual([
      { scheduleId: 7, plannedAt: 1000, dueAt: 2000, afterMinutes: 45, attempts: 1 },
      { scheduleId: 8, plannedAt: 3000, dueAt: 4000, afterMinutes: 20, attempts: 0 },
    ]);
    expect(offs.reasons).toEqual([
      { code: "phaseFault", message: null },
      { code: "rejected", message: null },
      { code: "rejected", message: "Relay stuck" },
    ]);
  });
});
