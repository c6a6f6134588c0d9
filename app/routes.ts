import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // ---- public ----
  index("routes/landing.tsx"),
  route("login", "routes/login.tsx"),
  route("register", "routes/register.tsx"),
  route("logout", "routes/logout.ts"),
  route("language", "routes/language.ts"),
  // ---- user area (issue 4) ----
  layout("routes/user-shell.tsx", [
    route("motor-control", "routes/motor-control.tsx"),
    route("motor-schedule", "routes/motor-schedule.tsx"),
    route("recharge", "routes/recharge.tsx"),
    route("logs", "routes/logs.tsx"),
  ]),
  // ---- admin area (issue 5) ----
] satisfies RouteConfig;
