// The glossary (docs/glossary.md) is the one list of plain words; this holds every catalogue to
// it, so a translator's "कूलडाउन" fails here rather than on a farmer's phone.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adminEn } from "../../common/i18n/admin-en.ts";
import { adminHi } from "../../common/i18n/admin-hi.ts";
import { apiEn } from "../../common/i18n/api-en.ts";
import { apiHi } from "../../common/i18n/api-hi.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { SMS_TEMPLATE_CODES, SMS_TEMPLATES } from "../../worker/telephony/sms-templates.ts";
import { VOICE_SCRIPT_CODES, VOICE_SCRIPTS } from "../../worker/telephony/voice-scripts.ts";

type Row = { english: string; avoidHindi: string[]; avoidEnglish: string[] };

/** The glossary's table rows; an "avoid" cell lists words separated by commas or slashes. */
function glossaryRows(): Row[] {
  const markdown = readFileSync(new URL("../../docs/glossary.md", import.meta.url), "utf8");
  const words = (cell: string) =>
    cell
      .replace(/\(.*?\)/g, "")
      .split(/[,/]/)
      .map((word) => word.trim())
      .filter(Boolean);
  return markdown
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| English"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .map(([english = "", , avoidHindi = "", avoidEnglish = ""]) => ({
      english,
      avoidHindi: words(avoidHindi),
      avoidEnglish: words(avoidEnglish),
    }));
}

/** The SMS and the calls' words (worker/telephony/), in one language, as a catalogue. */
function telephonyTexts(language: "hi" | "en"): Record<string, string> {
  return Object.fromEntries([
    ...SMS_TEMPLATE_CODES.map((code) => [`sms ${code}`, SMS_TEMPLATES[code].text[language]]),
    ...VOICE_SCRIPT_CODES.map((code) => [`call ${code}`, VOICE_SCRIPTS[code].text[language]]),
  ]);
}

const HINDI: Record<string, Record<string, string>> = {
  "hi.ts": hi,
  "admin-hi.ts": adminHi,
  "api-hi.ts": apiHi,
  telephony: telephonyTexts("hi"),
};
const ENGLISH: Record<string, Record<string, string>> = {
  "en.ts": en,
  "admin-en.ts": adminEn,
  "api-en.ts": apiEn,
  telephony: telephonyTexts("en"),
};

/** `word` alone, not inside a longer one (ऑन in ऑनलाइन, यंत्र in नियंत्रण). */
function wholeWord(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{M}])${escaped}(?![\\p{L}\\p{M}])`, "u");
}

function uses(catalogues: Record<string, Record<string, string>>, word: string): string[] {
  return Object.entries(catalogues).flatMap(([file, messages]) =>
    Object.entries(messages)
      .filter(([, text]) => wholeWord(word).test(text))
      .map(([key]) => `${file} ${key}`),
  );
}

describe("the glossary", () => {
  const rows = glossaryRows();

  it("has its table (the test would pass vacuously without it)", () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.flatMap((row) => row.avoidHindi)).toContain("कूलडाउन");
  });

  for (const row of rows) {
    it(`"${row.english}": no catalogue uses a word the glossary avoids`, () => {
      const found = [
        ...row.avoidHindi.flatMap((word) => uses(HINDI, word).map((where) => `${where}: ${word}`)),
        ...row.avoidEnglish.flatMap((word) => uses(ENGLISH, word).map((where) => `${where}: ${word}`)),
      ];
      expect(found).toEqual([]);
    });
  }
});
