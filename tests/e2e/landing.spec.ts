/// <reference lib="dom" />
// The landing page: everything SPEC §1 asks it to say, as plain HTML with no script, from
// our own origin only (its 60 KB budget is in page-weight.spec.ts).
import { expect, type Page, test } from "@playwright/test";
import { BASE_URL, DEMO_USER, en, hi, logIn, type Texts, useLanguage, VIEWPORTS } from "./support.ts";

async function expectContent(page: Page, texts: Texts) {
  for (const key of [
    "landing.devices",
    "landing.included",
    "landing.order",
    "landing.support",
    "landing.testimonials",
    "landing.faq",
    "landing.contact",
  ] as const) {
    await expect(page.getByRole("heading", { name: texts[key], exact: true })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: texts["landing.device1.name"] })).toBeVisible();
  await expect(page.getByText("₹4,000")).toBeVisible();
  await expect(page.getByText(texts["landing.device1.starters"])).toBeVisible();
  await expect(page.getByRole("heading", { name: texts["landing.device3.name"] })).toBeVisible();
  await expect(page.getByText("₹5,000")).toBeVisible();
  await expect(page.getByText(texts["landing.device3.starters"])).toBeVisible();
  for (const key of [
    "landing.included.sim",
    "landing.included.connectivity",
    "landing.included.warranty",
    "landing.included.replacement",
    "landing.included.motors",
  ] as const) {
    await expect(page.getByText(texts[key])).toBeVisible();
  }
  const chat = page.getByRole("link", { name: texts["landing.order.chat"] });
  expect(await chat.getAttribute("href")).toMatch(/^https:\/\/wa\.me\/\d+\?text=/);
  expect(
    await page
      .getByRole("link", { name: new RegExp(texts["landing.order.call"].replace(" {phone}", "")) })
      .getAttribute("href"),
  ).toMatch(/^tel:\+91\d{10}$/);
  await expect(page.getByText(texts["landing.testimonials.sample"])).toBeVisible();
  // The FAQ is native <details>: it opens without any script.
  await page.getByText(texts["landing.faq.plan.q"]).click();
  await expect(page.getByText(texts["landing.faq.plan.a"].replace("{price}", "₹1,111"))).toBeVisible();
  await page.getByText(texts["landing.faq.network.q"]).click();
  await expect(page.getByText(texts["landing.faq.network.a"])).toBeVisible();
  await page.getByText(texts["landing.faq.weather.q"]).click();
  await expect(page.getByText(texts["landing.faq.weather.a"])).toBeVisible();
  expect(await page.locator('a[href^="mailto:"]').count()).toBe(1);
  await expect(page.getByRole("link", { name: texts["landing.login"], exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: texts["landing.register"], exact: true })).toBeVisible();
  expect(await page.getByRole("link", { name: texts["landing.adminLink"] }).getAttribute("href")).toBe("/admin/login");
}

test("says everything SPEC §1 asks, in Hindi on a phone, with no script and nothing from other sites", async ({
  page,
}) => {
  const origins = new Set<string>();
  page.on("request", (request) => {
    if (!request.url().startsWith("data:")) origins.add(new URL(request.url()).origin);
  });
  const response = await page.goto("/");
  expect(await response!.text()).not.toMatch(/<script/i);
  await expect(page.locator("html")).toHaveAttribute("lang", "hi");
  await expectContent(page, hi);
  expect([...origins]).toEqual([BASE_URL]);
});

test.describe("in English on a wide screen", () => {
  test.use({ viewport: VIEWPORTS.desktop });

  test("says the same in the spec's English", async ({ page, context }) => {
    await useLanguage(context, "en");
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expectContent(page, en);
  });
});

test("works with JavaScript disabled, language switch included", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: hi["landing.devices"] })).toBeVisible();
  await page.getByRole("button", { name: hi["language.label"] }).click();
  await expect(page.getByRole("heading", { name: en["landing.devices"] })).toBeVisible();
  await page.getByText(en["landing.faq.weather.q"]).click();
  await expect(page.getByText(en["landing.faq.weather.a"])).toBeVisible();
  await context.close();
});

// Its weight in bytes is measured with every other page's in page-weight.spec.ts.
test("serves its one Hindi font itself", async ({ request }) => {
  const html = await (await request.get("/", { headers: { Cookie: "sinchai_lang=hi" } })).body();
  const stylesheets = [...html.toString().matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map(
    (match) => match[1]!,
  );
  expect(stylesheets.length).toBeGreaterThan(0);
  const fonts: string[] = [];
  for (const href of stylesheets) {
    const css = await (await request.get(href)).body();
    fonts.push(...[...css.toString().matchAll(/url\(["']?([^"')]+\.woff2)["']?\)/g)].map((match) => match[1]!));
  }
  expect(fonts).toHaveLength(1); // one weight of Noto Sans Devanagari
  for (const href of fonts) {
    const font = await request.get(href);
    expect(font.status()).toBe(200);
    expect(new URL(font.url()).origin).toBe(BASE_URL);
  }
});

test("the Hindi font covers Devanagari only, so English pages never need it", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const href = /<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/.exec(html)![1]!;
  const css = await (await request.get(href)).text();
  const face = /@font-face\s*{[^}]*}/.exec(css)![0];
  expect(face).toContain("font-display:swap");
  const range = /unicode-range:([^;}]+)/.exec(face)![1]!;
  expect(range).toMatch(/U\+0?900-97F/i);
  expect(range).not.toMatch(/U\+0{0,3}0-|U\+20B9|U\+0?0[0-7]/i); // no Latin, no ₹
});

test("a signed-in farmer is sent straight to the dashboard", async ({ page }) => {
  await logIn(page, DEMO_USER.mobileNo, DEMO_USER.password);
  await page.goto("/");
  await expect(page).toHaveURL(/\/motor-control$/);
});
