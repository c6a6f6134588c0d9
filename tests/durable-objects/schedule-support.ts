// Schedules for the hub's tests: made and read through the API as the app does, made due by
// moving the stored run time (never by waiting), and what the box was told to do.
import { runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { readJson } from "../../common/api-client.ts";
import { scheduleListResponseSchema, scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { switchMessageSchema } from "../../common/device-protocol.ts";
import type { ScheduleInput, ScheduleView } from "../../common/schedule-schemas.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";
import { getJson, postJson } from "../worker/helpers/http.ts";
import { hubStub, rewriteHubState } from "../worker/helpers/hub-state.ts";
import type { DevicePeer } from "../worker/helpers/sockets.ts";

/** A schedule or a window made through POST /api/schedule (201), as the schedule page makes it. */
export async function createSchedule(token: string, body: object): Promise<ScheduleView> {
  const response = await postJson("/api/schedule", body, token);
  expect(response.status).toBe(201);
  return (await readJson(response, scheduleResponseSchema)).schedule;
}

/** The schedules GET /api/schedule lists for the account of `token`. */
export async function listSchedules(token: string): Promise<ScheduleView[]> {
  return (await readJson(await getJson("/api/schedule", token), scheduleListResponseSchema)).schedules;
}

/** Moves a schedule's next run to `at` (default: a second ago), as if its time had come. */
export async function makeDue(deviceId: string, scheduleId: number, at = Date.now() - 1_000) {
  await runInDurableObject(hubStub(deviceId), (_hub: DeviceHub, state) => {
    state.storage.sql.exec("UPDATE schedules SET next_run_at = ? WHERE id = ?", at, scheduleId);
  });
}

/** Every `switch` the box received so far. */
export function switchesSeen(box: DevicePeer) {
  return box.raw
    .filter((text) => text.includes('"type":"switch"'))
    .map((text) => switchMessageSchema.parse(JSON.parse(text)).relay);
}

/** Ends the pause after the last command, so that the next switch is not held back by it. */
export const endCooldown = (deviceId: string) => rewriteHubState(deviceId, (state) => ({ ...state, cooldownUntil: 0 }));

/** A daily 6:00 AM ON (with `changes`), as a room's `create` takes it. */
export const at6 = (changes: Partial<Extract<ScheduleInput, { kind: "clock" }>> = {}): ScheduleInput => ({
  kind: "clock",
  minuteOfDay: 360,
  action: "on",
  repeat: "daily",
  daysMask: null,
  durationMinutes: null,
  windowEnd: null,
  randomDelay: false,
  resume: false,
  ...changes,
});
