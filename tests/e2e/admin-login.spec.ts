// /admin/login and the admin shell: a session of its own, refused to farmers and strangers on
// the server, logout ending it on the server, the shell on phones and wide screens.
import { expect } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config.ts";
import { adminLogIn, DEMO_ADMIN, registerFarmer, test, texts } from "./admin-support.ts";
import { logIn as farmerLogIn } from "./support.ts";

const ADMIN_PAGES = [
  "/admin/dashboard",
  "/admin/users",
  "/admin/users/1",
  "/admin/users/1/update-config",
  "/admin/logs",
  "/admin/recharges",
  "/admin/audit",
  "/admin/telephony",
];

test("an admin logs in (Hindi), is kept in while the session lives, and logs out for good", async ({
  page,
  context,
}) => {
  const t = texts.hi;
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole("heading", { name: t["admin.login.title"] })).toBeVisible();
  await expect(page.getByLabel(t["auth.mobileNo"])).toHaveAttribute("required", "");
  await expect(page.getByLabel(t["auth.password"])).toHaveAttribute("required", "");

  await adminLogIn(page, t);
  const [cookie] = (await context.cookies()).filter((candidate) => candidate.name === "sinchai_admin_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  // A stored admin session goes straight to the dashboard.
  await page.goto("/admin/login");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/dashboard$/);

  await page.getByRole("button", { name: t["admin.shell.logout"] }).click();
  await expect(page).toHaveURL(/\/admin\/login\?loggedOut=1$/);
  await expect(page.getByText(t["admin.login.loggedOut"])).toBeVisible();
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/admin\/login$/);

  // The old cookie was ended on the server, not only deleted in the browser.
  await context.addCookies([cookie!]);
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/admin\/login\?session=expired$/);
  await expect(page.getByText(t["admin.login.sessionExpired"])).toBeVisible();
  await expect(page.getByTestId("login-notice")).toHaveClass(/warning/);
});

test("wrong credentials and a farmer's own credentials get the spec's message (English)", async ({
  page,
  english: t,
  request,
}) => {
  await page.goto("/admin/login");
  await expect(page.getByRole("heading", { name: t["admin.login.title"] })).toBeVisible();

  await page.getByLabel(t["auth.mobileNo"]).fill(DEMO_ADMIN.mobileNo);
  await page.getByLabel(t["auth.password"]).fill("not-the-password");
  await page.getByRole("button", { name: t["admin.login.button"], exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(t["admin.login.failed"]);

  const farmer = await registerFarmer(request);
  await page.getByLabel(t["auth.mobileNo"]).fill(farmer.mobileNo);
  await page.getByLabel(t["auth.password"]).fill(farmer.password);
  await page.getByRole("button", { name: t["admin.login.button"], exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(t["admin.login.failed"]);
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test("both fields are required by the server too, not only by the form", async ({ request }) => {
  const response = await request.post("/admin/login", {
    form: { mobileNo: "", password: "" },
    headers: { Origin: `http://localhost:${E2E_PORT}`, Cookie: "sinchai_lang=en" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(400);
  expect(await response.text()).toContain(texts.en["admin.login.required"]);
  expect(response.headers()["set-cookie"] ?? "").not.toContain("sinchai_admin_session");
});

test("a signed-in farmer gets no admin page: every one sends them to the admin login", async ({ browser, request }) => {
  const farmer = await registerFarmer(request);
  const context = await browser.newContext();
  const page = await context.newPage();
  await farmerLogIn(page, farmer.mobileNo, farmer.password);
  for (const path of ADMIN_PAGES) {
    const response = await page.goto(path);
    await expect(page, path).toHaveURL(/\/admin\/login$/);
    expect(await response?.text(), path).not.toContain(DEMO_ADMIN.mobileNo);
  }
  await context.close();
});

test("the shell: bottom bar on a phone, sidebar on a wide screen, both leading to every page", async ({ page }) => {
  const t = texts.hi;
  await adminLogIn(page, t);
  const bottom = page.locator(".admin-bottom-bar");
  const sidebar = page.locator(".admin-sidebar");
  await expect(bottom).toBeVisible();
  await expect(sidebar).toBeHidden();
  await bottom.getByRole("link", { name: t["admin.nav.users"] }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole("heading", { name: t["admin.users.title"] })).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(bottom).toBeHidden();
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByText(t["admin.shell.signedInAs"].replace("{mobileNo}", DEMO_ADMIN.mobileNo))).toBeVisible();
  for (const [label, path, heading] of [
    ["admin.nav.logs", /\/admin\/logs$/, "admin.logs.title"],
    ["admin.nav.recharges", /\/admin\/recharges$/, "admin.recharges.title"],
    ["admin.nav.audit", /\/admin\/audit$/, "admin.audit.title"],
    ["admin.nav.dashboard", /\/admin\/dashboard$/, "admin.dashboard.title"],
  ] as const) {
    await sidebar.getByRole("link", { name: t[label] }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole("heading", { name: t[heading] })).toBeVisible();
  }
});
