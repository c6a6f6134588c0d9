// Code passed to page.evaluate() runs in the browser: the check needs the DOM's types.
/// <reference lib="dom" />
// The reusable check of farmer pages' touch targets: every control a thumb can reach is at least
// 44 × 44 CSS px (WCAG 2.5.5's size, Apple's and Android's guidance), and chart labels at least
// 12 px. A page that breaks it gets a list of what is too small, as a reader can find it.
import type { Page } from "@playwright/test";

/** The smallest a control may be, each way, in CSS px. */
export const MIN_TARGET_PX = 44;
/** Not a farmer's control: SPEC §2's nearly invisible dot on the landing page that leads admins in. */
const NOT_A_FARMERS_CONTROL = ".admin-dot";

/** The smallest a chart's label may be drawn, in CSS px. */
export const MIN_CHART_TEXT_PX = 12;

/**
 * Visible controls (links, buttons, fields, disclosure summaries, anything focusable) smaller
 * than 44 × 44 px, as "tag 'its text' W×H". A checkbox or radio is measured by its label,
 * which is what a thumb taps. Off-screen skip links, and controls the page has hidden, are not
 * targets.
 */
export function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(
    ([min, exempt]) => {
      const controls = document.querySelectorAll<HTMLElement>(
        "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])",
      );
      const found: string[] = [];
      for (const control of controls) {
        if (control.matches(exempt)) continue;
        if (!control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        const box = control.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        // A skip link waits off-screen until it is focused.
        if (box.right <= 0 || box.left >= document.documentElement.clientWidth) continue;
        const input = control instanceof HTMLInputElement ? control : null;
        const tapped =
          input && (input.type === "checkbox" || input.type === "radio") && input.labels?.[0]
            ? input.labels[0].getBoundingClientRect()
            : box;
        if (tapped.width >= min - 0.5 && tapped.height >= min - 0.5) continue;
        const text = (control.textContent || control.getAttribute("aria-label") || input?.name || "")
          .trim()
          .slice(0, 40);
        found.push(
          `${control.tagName.toLowerCase()} '${text}' ${Math.round(tapped.width)}×${Math.round(tapped.height)}`,
        );
      }
      return found;
    },
    [MIN_TARGET_PX, NOT_A_FARMERS_CONTROL] as const,
  );
}

/** Text in the page's SVG charts drawn smaller than 12 px, as "'label' N px". */
export function smallChartText(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const found: string[] = [];
    for (const text of document.querySelectorAll<SVGTextElement>("svg text")) {
      if (!text.checkVisibility()) continue;
      const svg = text.ownerSVGElement;
      const scale =
        svg && svg.viewBox.baseVal.width > 0 ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 1;
      const drawn = Number.parseFloat(getComputedStyle(text).fontSize) * scale;
      if (drawn < min - 0.05) found.push(`'${text.textContent}' ${drawn.toFixed(1)} px`);
    }
    return found;
  }, MIN_CHART_TEXT_PX);
}
