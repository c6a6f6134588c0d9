// Motor schedules (SPEC §7 POST /api/schedule, plus list, update and delete). They live in the
// device's DeviceHub, which carries them out at their time in India time with its own alarm.
import { Hono } from "hono";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { HttpError } from "../http-error.ts";
import { NO_DEVICE_MESSAGE } from "../motor-commands.ts";
import { deleteOwnSchedule, ownScheduleHub, saveOwnSchedule, type OwnScheduleResult } from "../schedules.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { requireAuth } from "./require-auth.ts";

const STATUS: Record<Exclude<OwnScheduleResult, { ok: true }>["code"], HttpError["status"]> = {
  noDevice: 404,
  notFound: 404,
  conflict: 409,
  limit: 409,
};

export const scheduleRoutes = new Hono<ApiEnv>()
  .get("/", requireAuth("user"), async (c) => {
    const hub = await ownScheduleHub(c.env, c.var.user.id);
    if (!hub) throw new HttpError(404, NO_DEVICE_MESSAGE);
    return c.json({ success: true, schedules: await hub.listSchedules(c.var.user.id) });
  })
  .post("/", requireAuth("user"), async (c) => {
    const input = await readJsonBody(c, scheduleRequestSchema);
    const result = await saveOwnSchedule(c.env, c.var.user.id, null, input);
    if (!result.ok) throw new HttpError(STATUS[result.code], result.message);
    return c.json({ success: true, message: "Schedule saved.", schedule: result.schedule }, 201);
  })
  .put("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const input = await readJsonBody(c, scheduleRequestSchema);
    const result = await saveOwnSchedule(c.env, c.var.user.id, id, input);
    if (!result.ok) throw new HttpError(STATUS[result.code], result.message);
    return c.json({ success: true, message: "Schedule updated.", schedule: result.schedule });
  })
  .delete("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const result = await deleteOwnSchedule(c.env, c.var.user.id, id);
    if (!result.ok) throw new HttpError(STATUS[result.code], result.message);
    return c.json({ success: true, message: "Schedule deleted." });
  });
