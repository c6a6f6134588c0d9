// Motor schedules (SPEC §7 POST /api/schedule, plus list, update and delete). They live in the
// device's DeviceHub, which carries them out at their time in India time with its own alarm.
import { Hono } from "hono";
import { translateApi } from "../../app/i18n/api.ts";
import type { Language } from "../../app/i18n/catalogue.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { formatClock } from "../../common/schedule-time.ts";
import type { ScheduleFailure } from "../../durable-objects/device-hub.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { deviceHub } from "../device-hubs.ts";
import { noDeviceError } from "../hub-failures.ts";
import { HttpError } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";

/**
 * A refusal as the API answers it: `code` and `params` for the page (the conflict's time, the
 * limit), `message` in the caller's language.
 */
function scheduleFailureError(failure: ScheduleFailure): HttpError {
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
      return new HttpError(409, "limit", { max }, {}, (language) => translateApi(language, "failure.scheduleLimit", { max }));
    }
    case "notFound":
      return new HttpError(404, "notFound", {}, {}, (language) => translateApi(language, "failure.scheduleNotFound"));
    default: {
      const unreachable: never = failure.code;
      throw new Error(`unhandled schedule failure ${String(unreachable)}`);
    }
  }
}

/** The hub of the signed-in farmer's own device: nobody reaches another device's schedules. */
async function ownHub(c: { env: Env; var: ApiEnv["Variables"]; req: { raw: Request } }) {
  const device = await findDeviceByOwner(getDb(c.env.DB), c.var.user.id);
  if (!device) throw noDeviceError();
  return deviceHub(c.env, device.id);
}

export const scheduleRoutes = new Hono<ApiEnv>()
  .get("/", requireAuth("user"), async (c) => {
    const hub = await ownHub(c);
    return c.json({ success: true, schedules: await hub.listSchedules(c.var.user.id) });
  })
  .post("/", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, scheduleRequestSchema);
    const result = await (await ownHub(c)).createSchedule(c.var.user.id, input);
    const language = apiLanguage(c.req.raw);
    if (!result.ok) throw scheduleFailureError(result);
    return c.json({ success: true, message: translateApi(language, "api.scheduleSaved"), schedule: result.schedule }, 201);
  })
  .put("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const input = await readJsonBody(c, scheduleRequestSchema);
    const result = await (await ownHub(c)).updateSchedule(c.var.user.id, id, input);
    const language = apiLanguage(c.req.raw);
    if (!result.ok) throw scheduleFailureError(result);
    return c.json({ success: true, message: translateApi(language, "api.scheduleUpdated"), schedule: result.schedule });
  })
  .delete("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const language = apiLanguage(c.req.raw);
    if (!(await (await ownHub(c)).deleteSchedule(c.var.user.id, id))) throw scheduleFailureError({ ok: false, code: "notFound" });
    return c.json({ success: true, message: translateApi(language, "api.scheduleDeleted") });
  });
