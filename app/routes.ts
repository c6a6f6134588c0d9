import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // ---- public ----
  index("routes/landing.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("login-code", "routes/login-code.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("logout", "routes/logout.tsx"),
  route("language", "routes/language.ts"),
  route("phone-card", "routes/phone-card.tsx"),
  // ---- the installer's visit: an installer's own page, outside the farmer's shell ----
  route("installer", "routes/installer/route.tsx", { id: "routes/installer" }),
  // ---- user area ----
  layout("routes/user-shell.tsx", [
    route("motor-control", "routes/motor-control/route.tsx", { id: "routes/motor-control" }),
    route("motor-schedule", "routes/motor-schedule/route.tsx", { id: "routes/motor-schedule" }),
    route("recharge", "routes/recharge/route.tsx", { id: "routes/recharge" }),
    route("logs", "routes/logs.tsx"),
    route("change-password", "routes/change-password.tsx"),
    route("verify-number", "routes/verify-number.tsx"),
    route("alerts", "routes/alerts/route.tsx", { id: "routes/alerts" }),
    route("pump", "routes/pump.ts"),
    route("pump-people", "routes/pump-people.tsx"),
    route("pump-settings", "routes/pump-settings.tsx"),
    route("pump-invitation", "routes/pump-invitation.ts"),
    route("pump-installer", "routes/pump-installer.ts"),
  ]),
  // ---- admin area ----
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/logout", "routes/admin/logout.ts"),
  route("admin", "routes/admin/shell.tsx", [
    index("routes/admin/index.ts"),
    route("dashboard", "routes/admin/dashboard.tsx"),
    route("users", "routes/admin/users.tsx"),
    route("users/:userId", "routes/admin/user-detail.tsx"),
    route("users/:userId/update-config", "routes/admin/update-config.tsx"),
    route("logs", "routes/admin/logs.tsx"),
    route("recharges", "routes/admin/recharges.tsx"),
    route("audit", "routes/admin/audit.tsx"),
    route("telephony", "routes/admin/telephony.tsx"),
    route("installers", "routes/admin/installers/route.tsx", { id: "routes/admin/installers" }),
  ]),
] satisfies RouteConfig;
