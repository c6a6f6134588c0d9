// Who installed a pump, for its people (docs/user-area.md, "The installer's visit"): the
// installer's name and number, so the farmer knows whom to call. The owner's "seen" also
// hands the pump over, if the installer had not: from then on the installer can do nothing with it.
import { Hono } from "hono";
import { installationResponseSchema } from "../../common/api-responses/installers.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { getDb } from "../db/client.ts";
import { findInstallation, markSeenByFarmer } from "../db/installers.ts";
import { apiError } from "../http/http-error.ts";
import { reportOf } from "../installers/commissioning.ts";
import type { ApiEnv } from "./context.ts";
import { apiLanguage } from "./language.ts";
import { requirePump } from "./require-auth.ts";
import { respond } from "./respond.ts";

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

export const pumpInstallationRoutes = new Hono<ApiEnv>()
  .get("/:deviceId/installation", requirePump("see", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    const installation = await findInstallation(getDb(c.env.DB), device.id);
    // An installation for an owner before a relink is not this owner's: nobody installed it for them.
    const found = installation?.farmerUserId === device.ownerUserId ? installation : undefined;
    return respond(c, installationResponseSchema, {
      success: true,
      installation: found
        ? {
            installerName: found.installerName,
            installerMobileNo: found.installerMobileNo,
            installedAt: iso(found.installedAt)!,
            handedOverAt: iso(found.handedOverAt),
            farmerSeenAt: iso(found.farmerSeenAt),
            report: reportOf(found.report),
          }
        : null,
    });
  })
  .post("/:deviceId/installation/seen", requirePump("see", "user"), async (c) => {
    if (c.var.pump.role !== "owner") throw apiError(403, "notAllowedForRole", { role: c.var.pump.role, action: "see" });
    await markSeenByFarmer(getDb(c.env.DB), c.var.pump.device.id, Date.now());
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.handedOver"),
    });
  });
