// Boxes for admins: the list (or those a search by box id or owner's number finds), and
// provisioning: create a device with a fresh key, rotate its key, assign its owner (an account
// may own several).
// A key is shown exactly once, in the response that created it; D1 keeps only its hash.
import { Hono } from "hono";
import { fleetSearchQuerySchema } from "../../../common/admin-schemas.ts";
import {
  deviceListResponseSchema,
  hubStatsResponseSchema,
  keyRotatedResponseSchema,
  provisionResponseSchema,
} from "../../../common/api-responses/admin.ts";
import { accessChangeResponseSchema } from "../../../common/api-responses/refusals.ts";
import { mobileNoSchema } from "../../../common/api-schemas.ts";
import { generateDeviceId, generateDeviceKey, hashDeviceKey } from "../../../common/credentials.ts";
import { deviceKindSchema } from "../../../common/device-protocol.ts";
import { regionSchema } from "../../../common/installer-schemas.ts";
import { deviceIdSchema } from "../../../common/pump-schemas.ts";
import { z } from "../../../common/zod.ts";
import { getDb } from "../../db/client.ts";
import { findDeviceById, insertDevice, listDevicesWithOwners, setDeviceKeyHash } from "../../db/devices.ts";
import { readsThatMayLag } from "../../db/reads-that-may-lag.ts";
import { findUserByMobileNo } from "../../db/users.ts";
import { apiError } from "../../http/http-error.ts";
import { deviceHub } from "../../hubs/device-hubs.ts";
import { HUB_NOT_CONFIRMED } from "../../services/hub-notices.ts";
import { relinkPump } from "../../services/pump-relink.ts";
import { auditTarget } from "../admin-audit-middleware.ts";
import type { ApiEnv } from "../context.ts";
import { parseInput, readJsonBody } from "../input.ts";
import { requireAuth } from "../require-auth.ts";
import { respond } from "../respond.ts";

export const provisionSchema = z
  .object({
    kind: deviceKindSchema,
    ownerMobileNo: mobileNoSchema.optional(),
    /** The region of a box waiting for its farmer (docs/decisions/035-installer-regions.md). */
    region: regionSchema.optional(),
  })
  .refine((body) => !(body.ownerMobileNo && body.region), {
    error: "A box provisioned for an owner is in no region.",
    path: ["region"],
  });

export const ownerSchema = z.object({ mobileNo: mobileNoSchema.nullable() });

/** The account registered under `mobileNo`, or 404: a box is linked to an account, never a bare number. */
async function ownerFor(c: { env: Env }, mobileNo: string) {
  const user = await findUserByMobileNo(getDb(c.env.DB), mobileNo);
  if (!user) throw apiError(404, "userNotFound");
  return user;
}

export const adminDeviceRoutes = new Hono<ApiEnv>()
  .get("/devices", requireAuth("admin"), async (c) => {
    const { q } = parseInput(fleetSearchQuerySchema, c.req.query());
    const rows = await listDevicesWithOwners(getDb(readsThatMayLag(c.env)), q);
    return respond(c, deviceListResponseSchema, {
      success: true,
      devices: rows.map(({ device, ownerMobileNo }) => ({
        id: device.id,
        kind: device.kind,
        connection: device.connection,
        ownerMobileNo,
        ownerUserId: device.ownerUserId,
        online: device.online,
        lastSeenAt: device.lastSeenAt ? new Date(device.lastSeenAt).toISOString() : null,
        firmware: device.firmware,
      })),
    });
  })
  .post("/devices", requireAuth("admin"), async (c) => {
    const { kind, ownerMobileNo, region } = await readJsonBody(c, provisionSchema);
    const owner = ownerMobileNo ? await ownerFor(c, ownerMobileNo) : null;
    const key = generateDeviceKey();
    const device = await insertDevice(getDb(c.env.DB), {
      id: generateDeviceId(),
      kind,
      keyHash: await hashDeviceKey(key),
      ownerUserId: owner?.id ?? null,
      now: Date.now(),
      region: region ?? null,
    });
    auditTarget(c, device.id);
    return respond(
      c,
      provisionResponseSchema,
      {
        success: true,
        message: "Device provisioned. Write the key into the box now: it is not shown again.",
        device: { id: device.id, kind: device.kind, ownerMobileNo: owner?.mobileNo ?? null },
        key,
      },
      201,
    );
  })
  .get("/devices/:id/hub-stats", requireAuth("admin"), async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("id"));
    if (!(await findDeviceById(getDb(c.env.DB), deviceId))) throw apiError(404, "deviceNotFound");
    return respond(c, hubStatsResponseSchema, { success: true, stats: await deviceHub(c.env, deviceId).hubStats() });
  })
  .post("/devices/:id/rotate-key", requireAuth("admin"), async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("id"));
    auditTarget(c, deviceId);
    const key = generateDeviceKey();
    if (!(await setDeviceKeyHash(getDb(c.env.DB), deviceId, await hashDeviceKey(key)))) {
      throw apiError(404, "deviceNotFound");
    }
    // The old key stops working now, including for the connection it opened.
    await deviceHub(c.env, deviceId).disconnectDevice("Key rotated");
    return respond(c, keyRotatedResponseSchema, {
      success: true,
      message: "New key issued. It is not shown again.",
      key,
    });
  })
  .put("/devices/:id/owner", requireAuth("admin"), async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("id"));
    auditTarget(c, deviceId);
    const { mobileNo } = await readJsonBody(c, ownerSchema);
    if (!(await findDeviceById(getDb(c.env.DB), deviceId))) throw apiError(404, "deviceNotFound");
    const owner = mobileNo ? await ownerFor(c, mobileNo) : null;
    const relink = await relinkPump(c.env, deviceId, owner?.id ?? null);
    if (!relink.found) throw apiError(404, "deviceNotFound");
    const done = owner ? `Device assigned to ${owner.mobileNo}.` : "Device unassigned.";
    return respond(c, accessChangeResponseSchema, {
      success: true,
      message: relink.hubConfirmed ? done : `${done} ${HUB_NOT_CONFIRMED}`,
      hubConfirmed: relink.hubConfirmed,
    });
  });
