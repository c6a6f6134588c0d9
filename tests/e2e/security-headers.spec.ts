/// <reference lib="dom" />
// The Web controls of docs/security.md on the built app: a nonce CSP with no inline scripts,
// HSTS, nosniff, a referrer policy and no framing, on pages, API answers and static assets;
// and the pages still work under that CSP (hydration, the realtime socket, a command).
import { expect, type Page, test } from "@playwright/test";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { adminLogIn, texts as adminTexts } from "./admin-support.ts";
import { DEMO_USER, demoDeviceInEachTest, en, logIn, useLanguage } from "./support.ts";

const HEADERS_EVERYWHERE = {
  "strict-transport-security": /max-age=\d{7,}/,
  "x-content-type-options": /^nosniff$/,
  "referrer-policy": /^strict-origin-when-cross-origin$/,
  "x-frame-options": /^DENY$/,
};

function expectHeaders(headers: Record<string, string>, where: string) {
  for (const [name, pattern] of Object.entries(HEADERS_EVERYWHERE)) {
    expect(headers[name], `${name} on ${where}`).toMatch(pattern);
  }
  expect(headers["content-security-policy"], `CSP on ${where}`).toContain("frame-ancestors 'none'");
}

/** Collects every CSP violation the page reports, from the first byte on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI}`,
      );
    });
  });
  return violations;
}

test("pages carry a nonce CSP without unsafe-inline scripts, and the other headers", async ({ request }) => {
  for (const path of ["/", "/login", "/register", "/admin/login"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    expectHeaders(headers, path);
    const csp = headers["content-security-policy"] ?? "";
    const scriptSrc = csp
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith("script-src "));
    expect(scriptSrc, path).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'$/);
    expect(csp).not.toContain("unsafe-eval");

    // Every inline script in the HTML carries this response's nonce, and the nonce is fresh.
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc!)![1];
    const html = await response.text();
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
      if (!/\bsrc=/.test(tag)) expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`);
    }
    const again = (await request.get(path)).headers()["content-security-policy"];
    expect(again).not.toBe(csp);
  }
});

test("API answers and static assets carry the headers too", async ({ request }) => {
  const api = await request.post("/api/auth/login", { data: { mobileNo: "1", password: "x" } });
  expect(api.status()).toBe(400);
  expectHeaders(api.headers(), "the API");
  expect(api.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");

  const html = await (await request.get("/login")).text();
  const asset = /<link[^>]+href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  expect(asset).toMatch(/^\/assets\/[\w-]+\.css$/);
  const response = await request.get(asset!);
  expect(response.status()).toBe(200);
  expectHeaders(response.headers(), asset!);
});

test.describe("under the CSP", () => {
  const demo = demoDeviceInEachTest();

  test("the dashboard hydrates, opens its realtime socket and switches the pump with no violation", async ({
    page,
    context,
  }) => {
    await useLanguage(context, "en");
    const violations = await watchViolations(page);
    await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password, en);
    await expect(page.locator("[data-live=connected]")).toBeVisible();

    // A command through the socketed page, there and back: ON, then OFF after the cooldown.
    const state = page.getByTestId("motor-status");
    for (const wanted of ["on", "off"] as const) {
      await expect(async () => {
        if ((await state.getAttribute("data-state")) !== wanted)
          await page.getByTestId(wanted === "on" ? "motor-on" : "motor-off").click({ timeout: 1_000 });
        await expect(state).toHaveAttribute("data-state", wanted, { timeout: 1_000 });
      }).toPass({ timeout: CONDITION_LIMIT_MS, intervals: [1_000] });
      expect(demo.device.relay).toBe(wanted);
    }
    await page.goto("/logs");
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    expect(violations).toEqual([]);
  });

  test("the admin area works with no violation", async ({ page, context }) => {
    await useLanguage(context, "en");
    const violations = await watchViolations(page);
    await adminLogIn(page, adminTexts.en);
    await page.goto("/admin/users");
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    expect(violations).toEqual([]);
  });
});
