// Motor schedules (SPEC §7 POST /api/schedule, plus list, update and delete). They live in the
// device's DeviceHub, which carries them out at their time in India time with its own alarm.
// The schedule page's form reaches the same functions (worker/services/schedules.ts), refusals included.
import { Hono } from "hono";
import { translateApi } from "../../app/i18n/api.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { scheduleListResponseSchema, scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { noDeviceError } from "../hubs/hub-failures.ts";
import { deleteOwnSchedule, ownScheduleHub, saveOwnSchedule } from "../services/schedules.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

export const scheduleRoutes = new Hono<ApiEnv>()
  .get("/", requireAuth("user"), async (c) => {
    const hub = await ownScheduleHub(c.env, c.var.user.id);
    if (!hub) throw noDeviceError();
    return respond(c, scheduleListResponseSchema, { success: true, schedules: await hub.listSchedules(c.var.user.id) });
  })
  .post("/", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, scheduleRequestSchema);
    const schedule = await saveOwnSchedule(c.env, c.var.user.id, null, input);
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
    const schedule = await saveOwnSchedule(c.env, c.var.user.id, id, input);
    return respond(c, scheduleResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.scheduleUpdated"),
      schedule,
    });
  })
  .delete("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    await deleteOwnSchedule(c.env, c.var.user.id, id);
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.scheduleDeleted"),
    });
  });
