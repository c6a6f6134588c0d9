// Motor logs and power history of one device, both from its hub.
import { type Context, Hono } from "hono";
import { motorLogsResponseSchema, powerHistoryResponseSchema } from "../../common/api-responses/logs.ts";
import { z } from "../../common/zod.ts";
import { ownedSince } from "../db/devices.ts";
import { toMotorLogEntry } from "../db/motor-logs.ts";
import type { DeviceRow } from "../db/schema.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { motorLogsPage } from "../hubs/motor-log-pages.ts";
import type { ApiEnv } from "./context.ts";
import { deviceForMobileNo } from "./device-access.ts";
import { parseInput } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { requireAuth } from "./require-auth.ts";
import { respond } from "./respond.ts";

export const motorLogsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Only logs older than this id: the next page. */
  before: z.coerce.number().int().positive().optional(),
});

export const powerLogsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(2000).default(200),
});

/**
 * A page of a box's motor logs, newest first, each worded in the caller's language: the hub's,
 * then the archive's in R2, one list for the pages' "older" paging (worker/hubs/motor-log-pages.ts).
 * `since`: only what was written from then on (a farmer's view: `sinceFor`).
 */
export async function motorLogsAnswer(c: Context<ApiEnv>, deviceId: string, since: number | undefined) {
  const { limit, before } = parseInput(motorLogsQuery, c.req.query());
  const rows = await motorLogsPage(c.env, deviceId, { limit, before, since });
  const language = apiLanguage(c.req.raw);
  return respond(
    c,
    motorLogsResponseSchema,
    rows.map((row) => toMotorLogEntry(row, language)),
  );
}

/**
 * From when the caller sees a box's log and usage: everything for an admin; for its people, from
 * when it became its owner's (what came before was another owner's, with their people's names).
 */
export function sinceFor(admin: boolean, device: Pick<DeviceRow, "linkedAt" | "createdAt">): number | undefined {
  return admin ? undefined : ownedSince(device);
}

export const logRoutes = new Hono<ApiEnv>()
  .get("/motor/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    return motorLogsAnswer(c, device.id, sinceFor(c.var.user.audience === "admin", device));
  })
  .get("/power/:mobileNo", requireAuth("user", "admin"), async (c) => {
    const { device } = await deviceForMobileNo(c, c.req.param("mobileNo"));
    const { limit } = parseInput(powerLogsQuery, c.req.query());
    return respond(c, powerHistoryResponseSchema, await deviceHub(c.env, device.id).powerHistory(limit));
  });
