// Motor schedules (SPEC §7 POST /api/schedule, plus list, update and delete). They live in the
// device's DeviceHub, which carries them out at their time in India time with its own alarm.
// The schedule page's form reaches the same functions (worker/services/schedules.ts), refusals included.
import { type Context, Hono } from "hono";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { scheduleListResponseSchema, scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { getDb } from "../db/client.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { noDeviceError } from "../hubs/hub-failures.ts";
import { firstPumpOf, personOf } from "../services/pump-access.ts";
import { deletePumpSchedule, type ScheduleTarget, savePumpSchedule } from "../services/schedules.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** SPEC §7 keys these by the caller: their first box's schedules. */
async function firstBoxSchedules(c: Context<ApiEnv>): Promise<ScheduleTarget> {
  const access = await firstPumpOf(getDb(c.env.DB), c.var.user);
  if (!access) throw noDeviceError();
  return { deviceId: access.device.id, person: personOf(c.var.user, access) };
}

export const scheduleRoutes = new Hono<ApiEnv>()
  .get("/", requireAuth("user"), async (c) => {
    const { deviceId, person } = await firstBoxSchedules(c);
    const schedules = await deviceHub(c.env, deviceId).listSchedules(person);
    return respond(c, scheduleListResponseSchema, { success: true, schedules });
  })
  .post("/", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, scheduleRequestSchema);
    const schedule = await savePumpSchedule(c.env, await firstBoxSchedules(c), null, input);
    return respond(
      c,
      scheduleResponseSchema,
      { success: true, message: translateApi(apiLanguage(c.req.raw), "api.scheduleSaved"), schedule },
      201,
    );
  })
  .put("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const input = await readJsonBody(c, scheduleRequestSchema);
    const schedule = await savePumpSchedule(c.env, await firstBoxSchedules(c), id, input);
    return respond(c, scheduleResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.scheduleUpdated"),
      schedule,
    });
  })
  .delete("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    await deletePumpSchedule(c.env, await firstBoxSchedules(c), id);
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.scheduleDeleted"),
    });
  });
