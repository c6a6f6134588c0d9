// The installer's calls (docs/user-area.md, "The installer's visit"): their boxes, claiming one
// with its sticker's code and the farmer's SMS code, commissioning it (a test run the box
// measures, then the settings accepted, then if they choose a dry-run check), and the hand-over. A farmer's session of an
// account an admin made an installer; any other is refused (403 notAnInstaller).
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { codeRequestResponseSchema } from "../../common/api-responses/accounts.ts";
import {
  claimLinkedResponseSchema,
  commissionedResponseSchema,
  dryRunCheckResponseSchema,
  installerBoxesResponseSchema,
  supplyResponseSchema,
  testRunResponseSchema,
} from "../../common/api-responses/installers.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import {
  commissioningRequestSchema,
  DRY_RUN_CHECK_SECONDS,
  dryRunCheckRequestSchema,
  testRunRequestSchema,
} from "../../common/commissioning.ts";
import { translateApi } from "../../common/i18n/api.ts";
import { claimConfirmSchema, claimRequestSchema } from "../../common/installer-schemas.ts";
import { deviceIdSchema } from "../../common/pump-schemas.ts";
import { getDb } from "../db/client.ts";
import { installedBy, stockOf } from "../db/installers.ts";
import { claimant, confirmClaim, startClaim } from "../installers/claims.ts";
import { commission, reportOf, runDryRunCheck, runTestRun, supplyReading } from "../installers/commissioning.ts";
import { handOver, requireInstaller } from "../installers/installer-access.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { authenticateRequest } from "./require-auth.ts";
import { respond } from "./respond.ts";

/** A test run long enough for the surge to pass and the running current to settle. */
const DEFAULT_TEST_RUN_SECONDS = 10;

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** A farmer's session of an installer's account, checked before any input is read (403 `notAnInstaller`). */
const requireInstallerSession = createMiddleware<ApiEnv>(async (c, next) => {
  const { user } = await authenticateRequest(c.req.raw, c.env, ["user"]);
  c.set("user", user);
  await requireInstaller(c.env, user.id);
  await next();
});

export const installerRoutes = new Hono<ApiEnv>()
  .get("/boxes", requireInstallerSession, async (c) => {
    const installer = await requireInstaller(c.env, c.var.user.id);
    const db = getDb(c.env.DB);
    const [stock, installed] = await Promise.all([stockOf(db, installer.userId), installedBy(db, installer.userId)]);
    return respond(c, installerBoxesResponseSchema, {
      success: true,
      installer: { name: installer.name },
      stock: stock.map(({ deviceId, kind, via }) => ({ deviceId, kind, via })),
      installed: installed.map(({ installation, online, lastSeenAt }) => ({
        deviceId: installation.deviceId,
        online,
        lastSeenAt: iso(lastSeenAt),
        installedAt: iso(installation.installedAt)!,
        handedOverAt: iso(installation.handedOverAt),
        report: reportOf(installation.report),
      })),
    });
  })
  .post("/claims", requireInstallerSession, async (c) => {
    const input = await readJsonBody(c, claimRequestSchema);
    const answer = await startClaim(c.env, {
      ...input,
      ...(await claimant(c.env, c.req.raw, c.var.user)),
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      language: apiLanguage(c.req.raw),
    });
    return respond(
      c,
      codeRequestResponseSchema,
      { success: true, message: translateApi(apiLanguage(c.req.raw), "api.claimCodeSent"), ...answer },
      202,
    );
  })
  .post("/claims/confirm", requireInstallerSession, async (c) => {
    const input = await readJsonBody(c, claimConfirmSchema);
    const linked = await confirmClaim(c.env, { ...input, ...(await claimant(c.env, c.req.raw, c.var.user)) });
    return respond(c, claimLinkedResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.boxLinked"),
      deviceId: input.deviceId,
      hubConfirmed: linked.hubConfirmed,
    });
  })
  .post("/boxes/:deviceId/supply", requireInstallerSession, async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("deviceId"));
    const supply = await supplyReading(c.env, c.var.user.id, deviceId);
    return respond(c, supplyResponseSchema, { success: true, ...supply });
  })
  .post("/boxes/:deviceId/test-run", requireInstallerSession, async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("deviceId"));
    const { seconds } = await readJsonBody(c, testRunRequestSchema);
    const { measured, suggested } = await runTestRun(
      c.env,
      c.var.user.id,
      deviceId,
      seconds ?? DEFAULT_TEST_RUN_SECONDS,
    );
    return respond(c, testRunResponseSchema, { success: true, measured, suggested });
  })
  .post("/boxes/:deviceId/commissioning", requireInstallerSession, async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("deviceId"));
    const input = await readJsonBody(c, commissioningRequestSchema);
    const done = await commission(c.env, { userId: c.var.user.id, mobileNo: c.var.user.mobileNo }, deviceId, {
      ...input,
      feeder: input.feeder ?? null,
    });
    return respond(c, commissionedResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.commissioned"),
      ...done,
    });
  })
  .post("/boxes/:deviceId/dry-run-check", requireInstallerSession, async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("deviceId"));
    const { seconds } = await readJsonBody(c, dryRunCheckRequestSchema);
    const { check, report } = await runDryRunCheck(c.env, c.var.user.id, deviceId, seconds ?? DRY_RUN_CHECK_SECONDS);
    return respond(c, dryRunCheckResponseSchema, { success: true, check, report });
  })
  .post("/boxes/:deviceId/hand-over", requireInstallerSession, async (c) => {
    const deviceId = parseInput(deviceIdSchema, c.req.param("deviceId"));
    await handOver(c.env, c.var.user.id, deviceId);
    return respond(c, messageResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.handedOver"),
    });
  });
