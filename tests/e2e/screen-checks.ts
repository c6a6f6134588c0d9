/// <reference lib="dom" />
// What every screen must be, checked the same way wherever a screen is opened: its heading, the
// page's language, nothing wider than the screen, and no serious or critical axe-core problem.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";
import { fitsTheScreen } from "./support.ts";

// Evaluated through the DevTools protocol rather than added as a <script>: the page's CSP
// (rightly) refuses inline scripts without its nonce, and the CSP stays on while axe looks.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
}

/** Adds to `problems` what is wrong with the screen at `path`, after its heading and language are checked. */
export async function checkScreen(page: Page, path: string, heading: string, language: string, problems: string[]) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await expect(page.locator("html")).toHaveAttribute("lang", language);
  if (path === "/logs") await expect(page.getByTestId("logs-loading")).toBeHidden();
  if (!(await fitsTheScreen(page))) problems.push(`${path}: wider than the screen`);
  for (const violation of await seriousAxeViolations(page)) problems.push(`${path}: ${violation}`);
}
