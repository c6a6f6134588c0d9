// Every page route that has a route action (a form post), by path: the page rows of the
// authorisation matrix's cross-site section. tests/scripts/page-actions.test.ts checks this
// list against the route modules, so an action added without a row fails.
export const PAGE_ACTIONS = [
  "/login",
  "/register",
  "/login-code",
  "/forgot-password",
  "/logout",
  "/language",
  "/motor-control",
  "/motor-schedule",
  "/recharge",
  "/change-password",
  "/alerts",
  "/verify-number",
  "/pump",
  "/pump-people",
  "/pump-settings",
  "/pump-invitation",
  "/pump-installer",
  "/installer",
  "/admin/login",
  "/admin/logout",
  "/admin/users/:userId/update-config",
  "/admin/installers",
] as const;
