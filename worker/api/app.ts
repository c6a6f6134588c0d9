// The HTTP API (SPEC §7) and the two WebSocket endpoints, as one Hono app under /api.
// It never imports the React Router build, so worker tests load it on its own.
import { type Context, Hono } from "hono";
import { apiErrorSchema } from "../../common/api-responses/refusals.ts";
import { apiError, HttpError, refusalBody } from "../http/http-error.ts";
import { adminAuditRoutes } from "./admin/audit-trail.ts";
import { adminAuthRoutes } from "./admin/auth.ts";
import { adminDeviceConfigRoutes } from "./admin/device-config.ts";
import { adminDeviceRoutes } from "./admin/devices.ts";
import { adminFirmwareRoutes } from "./admin/firmware.ts";
import { adminInstallerRoutes } from "./admin/installers.ts";
import { adminMotorConfigRoutes } from "./admin/motor-config.ts";
import { adminMotorLogRoutes } from "./admin/motor-logs.ts";
import { adminPaymentRoutes } from "./admin/payments.ts";
import { adminRechargeRoutes } from "./admin/recharges.ts";
import { adminSignInCodeRoutes } from "./admin/sign-in-codes.ts";
import { adminStatsRoutes } from "./admin/stats.ts";
import { adminTelephonyUsageRoutes } from "./admin/telephony-usage.ts";
import { adminUserRoutes } from "./admin/users.ts";
import { auditAdminWrites } from "./admin-audit-middleware.ts";
import { alertRoutes } from "./alerts.ts";
import { authRoutes } from "./auth.ts";
import type { ApiEnv } from "./context.ts";
import { deviceSocketRoutes } from "./device-socket.ts";
import { deviceRoutes } from "./devices.ts";
import { healthRoutes } from "./health.ts";
import { hubNoticeRoutes } from "./hub-notices.ts";
import { installerRoutes } from "./installer.ts";
import { apiLanguage } from "./language.ts";
import { logRoutes } from "./logs.ts";
import { otaRoutes } from "./ota.ts";
import { paymentRoutes } from "./payments.ts";
import { pumpInstallationRoutes } from "./pump-installation.ts";
import { pumpRoutes } from "./pumps.ts";
import { pushRoutes } from "./push.ts";
import { realtimeRoutes } from "./realtime.ts";
import { rechargeRoutes } from "./recharges.ts";
import { respond } from "./respond.ts";
import { scheduleRoutes } from "./schedules.ts";
import { telephonyRoutes } from "./telephony.ts";

export const apiApp = new Hono<ApiEnv>().basePath("/api");

// Before every route: records each write an admin session makes, wherever it is routed.
apiApp.use("*", auditAdminWrites);

apiApp.route("/health", healthRoutes);
apiApp.route("/hub-notices", hubNoticeRoutes);
apiApp.route("/auth", authRoutes);
apiApp.route("/devices", deviceRoutes);
apiApp.route("/logs", logRoutes);
apiApp.route("/mqtt", otaRoutes);
apiApp.route("/recharge", rechargeRoutes);
apiApp.route("/payments", paymentRoutes);
apiApp.route("/schedule", scheduleRoutes);
apiApp.route("/pumps", pumpRoutes);
apiApp.route("/pumps", pumpInstallationRoutes);
apiApp.route("/push", pushRoutes);
apiApp.route("/alerts", alertRoutes);
apiApp.route("/device", deviceSocketRoutes);
apiApp.route("/realtime", realtimeRoutes);
apiApp.route("/telephony", telephonyRoutes);
apiApp.route("/installer", installerRoutes);
apiApp.route("/admin", adminAuthRoutes);
apiApp.route("/admin", adminDeviceConfigRoutes);
apiApp.route("/admin", adminDeviceRoutes);
apiApp.route("/admin", adminFirmwareRoutes);
apiApp.route("/admin", adminRechargeRoutes);
apiApp.route("/admin", adminPaymentRoutes);
apiApp.route("/admin", adminStatsRoutes);
apiApp.route("/admin", adminUserRoutes);
apiApp.route("/admin", adminSignInCodeRoutes);
apiApp.route("/admin", adminMotorConfigRoutes);
apiApp.route("/admin", adminMotorLogRoutes);
apiApp.route("/admin", adminAuditRoutes);
apiApp.route("/admin", adminTelephonyUsageRoutes);
apiApp.route("/admin", adminInstallerRoutes);

/** Every refusal as one shape: `code` and `params` for programs, `message` for people in the caller's language. */
function refusal(c: Context<ApiEnv>, error: HttpError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return respond(c, apiErrorSchema, refusalBody(error, apiLanguage(c.req.raw)), error.status);
}

apiApp.notFound((c) => refusal(c, apiError(404, "notFound")));

// Anything that is not a refusal is a 500 that says nothing of its cause.
apiApp.onError((thrown, c) => {
  if (thrown instanceof HttpError) return refusal(c, thrown);
  console.error(`${c.req.method} ${c.req.path} failed`, thrown);
  return refusal(c, apiError(500, "internal"));
});
