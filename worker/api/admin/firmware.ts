// Firmware images for OTA: uploaded by admins into R2, recorded with version and SHA-256 in D1.
import { Hono } from "hono";
import { firmwareListResponseSchema, firmwareUploadResponseSchema } from "../../../common/api-responses/admin.ts";
import { z } from "../../../common/zod.ts";
import { getDb } from "../../db/client.ts";
import { findFirmwareVersion, insertFirmware, listFirmware } from "../../db/firmware.ts";
import { apiError } from "../../http/http-error.ts";
import { auditInput, auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

/** ESP32 and SIM7600 application images stay well under this. */
export const MAX_FIRMWARE_BYTES = 4 * 1024 * 1024;

export const uploadSchema = z.object({
  deviceType: z.enum(["wifi", "sim"], { error: 'deviceType must be "wifi" or "sim".' }),
  version: z.string({ error: "version is required." }).regex(/^[0-9A-Za-z][0-9A-Za-z._-]{0,31}$/, {
    error: "version may use letters, digits, dot, dash and underscore (at most 32).",
  }),
  file: z.instanceof(File, { error: "file is required." }),
});

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const adminFirmwareRoutes = new Hono<ApiEnv>()
  .get("/firmware", requireAuth("admin"), async (c) => {
    const images = await listFirmware(getDb(c.env.DB));
    return respond(c, firmwareListResponseSchema, {
      success: true,
      firmware: images.map(({ r2Key: _r2Key, ...image }) => ({
        ...image,
        uploadedAt: new Date(image.uploadedAt).toISOString(),
      })),
    });
  })
  .post("/firmware", requireAuth("admin"), async (c) => {
    if (Number(c.req.header("Content-Length") ?? 0) > MAX_FIRMWARE_BYTES + 64 * 1024) {
      throw apiError(413, "firmwareTooLarge");
    }
    if (!c.req.header("Content-Type")?.startsWith("multipart/form-data")) {
      throw apiError(415, "firmwareNotMultipart");
    }
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw apiError(400, "firmwareUnreadable");
    }
    const { deviceType, version, file } = parseInput(uploadSchema, form);
    // The trail keeps the file's name and size, never its bytes (auditDetails).
    auditInput(c, { deviceType, version, file });
    auditTarget(c, `firmware:${deviceType}/${version}`);
    if (file.size === 0) throw apiError(400, "firmwareEmpty");
    if (file.size > MAX_FIRMWARE_BYTES) throw apiError(413, "firmwareTooLarge");
    const db = getDb(c.env.DB);
    if (await findFirmwareVersion(db, deviceType, version)) {
      throw apiError(409, "firmwareExists", { version, deviceType });
    }
    const bytes = await file.arrayBuffer();
    const sha256 = toHex(await crypto.subtle.digest("SHA-256", bytes));
    const r2Key = `firmware/${deviceType}/${version}`;
    await c.env.FIRMWARE.put(r2Key, bytes, { customMetadata: { sha256 } });
    try {
      const image = await insertFirmware(db, {
        deviceType,
        version,
        sha256,
        size: file.size,
        r2Key,
        uploadedByUserId: c.var.user.id,
        uploadedAt: Date.now(),
      });
      return respond(
        c,
        firmwareUploadResponseSchema,
        {
          success: true,
          message: `Firmware ${version} for ${deviceType} devices uploaded.`,
          firmware: { id: image.id, deviceType, version, sha256, size: image.size },
        },
        201,
      );
    } catch (error) {
      // Never leave a file in R2 that D1 does not know about.
      await c.env.FIRMWARE.delete(r2Key);
      throw error;
    }
  });
