/// <reference lib="dom" />
// Every page in Hindi says everything in Hindi, and in English everything in English: only a
// short list of words may cross (the brand, units, ids, numbers). The check the screen and
// language specs run on every page they open.
import type { Page } from "@playwright/test";

/**
 * Latin words a Hindi farmer's page may show: units, the box's build types and identifiers as
 * printed on it, the starters' names as their plates print them (DOL, MSB), UPI, WhatsApp and
 * SMS, and a supply's phases as electricians label them (R, Y, B: the Hindi catalogue names a
 * phase fault's phase so, "Y फेज़ में", and the admin logs list every box's newest entries, such
 * as another spec's simulated phase fault), and SMS, as Hindi speakers write it (the admin's SMS
 * and call costs). Never "am" or "pm": Hindi times say सुबह, दोपहर, शाम or रात.
 */
export const LATIN_ALLOWED = new Set([
  "A",
  "W",
  "V",
  "kWh",
  "HP",
  "SIM",
  "Wi-Fi",
  "UPI",
  "M2M",
  "IMEI",
  "DOL",
  "MSB",
  "WhatsApp",
  // What phones call a text message, as they print it.
  "SMS",
  "R",
  "Y",
  "B",
]);

/** The admin pages show a box's signal in dBm, as installers read it; a farmer's page says it in words. */
export const ADMIN_LATIN_ALLOWED = new Set([...LATIN_ALLOWED, "dBm"]);

/** Visible words in the wrong script, with the element they are in. */
export async function wrongScript(page: Page, language: "hi" | "en", allowed = LATIN_ALLOWED): Promise<string[]> {
  const text = await page.locator("body").evaluate((body: HTMLElement) => {
    // The language switch names both languages on purpose; `translate="no"` marks ids as
    // printed on the box; `code` holds data as sent (an audit entry's request fields), not words.
    const skipped = [...body.querySelectorAll<HTMLElement>(".language-switch, [translate=no], code")];
    for (const node of skipped) node.style.display = "none";
    // biome-ignore lint/performance/useDomNodeTextContent: only the text a reader sees counts, which textContent does not know
    const visible = body.innerText;
    for (const node of skipped) node.style.display = "";
    return visible;
  });
  const words = text.split(/[\s,.;:!?()"'“”‘’/|+=<>…–—·•₹%]+/u).filter((word) => word && !/^[\d०-९-]+$/.test(word));
  return words.filter((word) => {
    // device ids (and their printed prefix, "SNC-"), firmware versions
    if (/^SNC-[A-Z0-9]*$/.test(word) || /^(sim|e2e|screens)-/.test(word)) return false;
    if (language === "hi") return /[A-Za-z]/.test(word) && !allowed.has(word);
    return /[\u0900-\u097F]/.test(word) && word !== "हिन्दी"; // the language switch names itself
  });
}
