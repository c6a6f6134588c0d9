// A box's schedules, shared by the JSON API (SPEC §7 /api/schedule, /api/pumps/{id}/schedules)
// and the schedule page's form, so all reach the same hub methods with the same checks and the
// same refusals: an `HttpError` with the API's code (notFound, conflict, limit, notAllowed)
// that the API words in its `onError` and the page words from its code.

import type { PumpPerson, ScheduleFailure } from "../../common/hub-contract.ts";
import { translateApi } from "../../common/i18n/api.ts";
import type { ScheduleInput, ScheduleView } from "../../common/schedule-schemas.ts";
import { formatClock } from "../../common/schedule-time.ts";
import { HttpError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

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
    case "notAllowed":
      return new HttpError(403, "notAllowed", {}, {}, (language) => translateApi(language, "failure.notAllowed"));
    default: {
      const unreachable: never = failure.code;
      throw new Error(`unhandled schedule failure ${String(unreachable)}`);
    }
  }
}

/** Whose schedules, of which box: the box's hub and the person it checks again. */
export type ScheduleTarget = { deviceId: string; person: PumpPerson };

/** Creates a schedule (`id` null) or changes one of the box's; throws the refusal. */
export async function savePumpSchedule(
  env: Env,
  target: ScheduleTarget,
  id: number | null,
  input: ScheduleInput,
): Promise<ScheduleView> {
  const hub = deviceHub(env, target.deviceId);
  const result =
    id === null ? await hub.createSchedule(target.person, input) : await hub.updateSchedule(target.person, id, input);
  if (!result.ok) throw scheduleFailureError(result);
  return result.schedule;
}

/** Deletes one of the box's schedules; throws the refusal. */
export async function deletePumpSchedule(env: Env, target: ScheduleTarget, id: number): Promise<void> {
  const result = await deviceHub(env, target.deviceId).deleteSchedule(target.person, id);
  if (!result.ok) throw scheduleFailureError(result);
}

/** The box's schedules as `target.person` may see them. */
export function listPumpSchedules(env: Env, target: ScheduleTarget): Promise<ScheduleView[]> {
  return deviceHub(env, target.deviceId).listSchedules(target.person);
}
