// Motor schedules (SPEC §7 POST /api/schedule, plus list, update and delete). They live in the
// device's DeviceHub, which carries them out at their time in India time with its own alarm.
import { Hono } from "hono";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import type { ScheduleFailure } from "../../durable-objects/device-hub.ts";
import { getDb } from "../db/client.ts";
import { findDeviceByOwner } from "../db/devices.ts";
import { deviceHub } from "../device-hubs.ts";
import { HttpError } from "../http-error.ts";
import type { ApiEnv } from "./context.ts";
import { NO_DEVICE_MESSAGE } from "../motor-commands.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { requireAuth } from "./require-auth.ts";

const STATUS: Record<ScheduleFailure["code"], HttpError["status"]> = { notFound: 404, conflict: 409, limit: 409 };

/** The hub of the signed-in farmer's own device: nobody reaches another device's schedules. */
async function ownHub(c: { env: Env; var: ApiEnv["Variables"] }) {
  const device = await findDeviceByOwner(getDb(c.env.DB), c.var.user.id);
  if (!device) throw new HttpError(404, NO_DEVICE_MESSAGE);
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
    if (!result.ok) throw new HttpError(STATUS[result.code], result.message);
    return c.json({ success: true, message: "Schedule saved.", schedule: result.schedule }, 201);
  })
  .put("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const input = await readJsonBody(c, scheduleRequestSchema);
    const result = await (await ownHub(c)).updateSchedule(c.var.user.id, id, input);
    if (!result.ok) throw new HttpError(STATUS[result.code], result.message);
    return c.json({ success: true, message: "Schedule updated.", schedule: result.schedule });
  })
  .delete("/:id", requireAuth("user"), async (c) => {
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    if (!(await (await ownHub(c)).deleteSchedule(c.var.user.id, id))) throw new HttpError(404, "Schedule not found.");
    return c.json({ success: true, message: "Schedule deleted." });
  });
