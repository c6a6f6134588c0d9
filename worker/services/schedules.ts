// A farmer's own schedules, shared by the JSON API (SPEC §7 /api/schedule) and the schedule
// page's form, so both reach the same hub methods with the same checks and the same refusals:
// an `HttpError` with the API's code (noDevice, notFound, conflict, limit) that the API words
// in its `onError` and the page words from its code.

import { translateApi } from "../../app/i18n/api.ts";
import type { ScheduleFailure } from "../../common/hub-contract.ts";
import type { ScheduleInput, ScheduleView } from "../../common/schedule-schemas.ts";
import { formatClock } from "../../common/schedule-time.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { HttpError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { noDeviceError } from "../hubs/hub-failures.ts";

/**
 * A hub's refusal as the API answers it: `code` and `params` for pages (the conflict's
 * minute of the day, the limit), the words in the reader's language.
 */
export function scheduleFailureError(failure: ScheduleFailure): HttpError {
  switch (failure.code) {
    case "conflict": {
      const minuteOfDay = failure.minuteOfDay ?? 0;
      const time = formatClock(minuteOfDay);
      return new HttpError(409, "conflict", { minuteOfDay, time }, {}, (language) =>
        translateApi(language, "failure.scheduleConflict", { time }),
      );
    }
    case "limit": {
      const max = failure.max ?? 0;
      return new HttpError(409, "limit", { max }, {}, (language) =>
        translateApi(language, "failure.scheduleLimit", { max }),
      );
    }
    case "notFound":
      return new HttpError(404, "notFound", {}, {}, (language) => translateApi(language, "failure.scheduleNotFound"));
    default: {
      const unreachable: never = failure.code;
      throw new Error(`unhandled schedule failure ${String(unreachable)}`);
    }
  }
}

/** The hub of the farmer's own device, or null: nobody reaches another device's schedules. */
export async function ownScheduleHub(env: Env, userId: number) {
  const device = await findDeviceByOwner(getDb(env.DB), userId);
  return device ? deviceHub(env, device.id) : null;
}

async function requireOwnHub(env: Env, userId: number) {
  const hub = await ownScheduleHub(env, userId);
  if (!hub) throw noDeviceError();
  return hub;
}

/** Creates a schedule (`id` null) or changes one of the farmer's own; throws the refusal. */
export async function saveOwnSchedule(
  env: Env,
  userId: number,
  id: number | null,
  input: ScheduleInput,
): Promise<ScheduleView> {
  const hub = await requireOwnHub(env, userId);
  const result = id === null ? await hub.createSchedule(userId, input) : await hub.updateSchedule(userId, id, input);
  if (!result.ok) throw scheduleFailureError(result);
  return result.schedule;
}

/** Deletes one of the farmer's own schedules; throws the refusal. */
export async function deleteOwnSchedule(env: Env, userId: number, id: number): Promise<void> {
  const hub = await requireOwnHub(env, userId);
  if (!(await hub.deleteSchedule(userId, id))) throw scheduleFailureError({ ok: false, code: "notFound" });
}
