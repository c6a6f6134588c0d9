// A farmer's own schedules, shared by the JSON API (SPEC §7 /api/schedule) and the schedule
// page's form, so both reach the same hub methods with the same checks.
import type { ScheduleInput } from "../common/schedule-schemas.ts";
import type { ScheduleResult } from "../durable-objects/device-hub.ts";
import { getDb } from "./db/client.ts";
import { findDeviceByOwner } from "./db/devices.ts";
import { deviceHub } from "./device-hubs.ts";
import { NO_DEVICE_MESSAGE } from "./motor-commands.ts";

export type NoDevice = { ok: false; code: "noDevice"; message: string };
export type OwnScheduleResult = ScheduleResult | NoDevice;

const NO_DEVICE: NoDevice = { ok: false, code: "noDevice", message: NO_DEVICE_MESSAGE };

/** The hub of the farmer's own device: nobody reaches another device's schedules. */
export async function ownScheduleHub(env: Env, userId: number) {
  const device = await findDeviceByOwner(getDb(env.DB), userId);
  return device ? deviceHub(env, device.id) : null;
}

/** Creates a schedule (`id` null) or changes one of the farmer's own. */
export async function saveOwnSchedule(env: Env, userId: number, id: number | null, input: ScheduleInput): Promise<OwnScheduleResult> {
  const hub = await ownScheduleHub(env, userId);
  if (!hub) return NO_DEVICE;
  return id === null ? hub.createSchedule(userId, input) : hub.updateSchedule(userId, id, input);
}

export async function deleteOwnSchedule(
  env: Env,
  userId: number,
  id: number,
): Promise<{ ok: true } | NoDevice | { ok: false; code: "notFound"; message: string }> {
  const hub = await ownScheduleHub(env, userId);
  if (!hub) return NO_DEVICE;
  return (await hub.deleteSchedule(userId, id)) ? { ok: true } : { ok: false, code: "notFound", message: "Schedule not found." };
}
