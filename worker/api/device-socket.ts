// What a controller box calls (docs/device-protocol.md): its WebSocket and firmware downloads.
// Credentials are checked here, against D1, before anything reaches a Durable Object.
import { Hono } from "hono";
import { z } from "../../common/zod.ts";
import { getDb } from "../db/client.ts";
import { findFirmware } from "../db/firmware.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub, hubSocketAnswer, hubSocketRequest } from "../hubs/device-hubs.ts";
import type { ApiEnv } from "./context.ts";
import { authenticateDevice } from "./device-auth.ts";
import { parseInput } from "./input.ts";

export const firmwareIdSchema = z.coerce.number().int().positive();

export const deviceSocketRoutes = new Hono<ApiEnv>()
  .get("/connect", async (c) => {
    if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
      throw apiError(426, "expectedWebSocket");
    }
    const device = await authenticateDevice(c);
    return hubSocketAnswer(await deviceHub(c.env, device.id).fetch(hubSocketRequest({ role: "device" })));
  })
  .get("/firmware/:id", async (c) => {
    await authenticateDevice(c);
    const id = parseInput(firmwareIdSchema, c.req.param("id"));
    const image = await findFirmware(getDb(c.env.DB), id);
    const object = image ? await c.env.FIRMWARE.get(image.r2Key) : null;
    if (!image || !object) throw apiError(404, "noFirmwareImage");
    return new Response(object.body, {
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(object.size),
        "X-Firmware-Version": image.version,
        "X-Firmware-SHA256": image.sha256,
      },
    });
  });
