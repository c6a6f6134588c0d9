// Every message exists in both languages with the same arguments, and every one renders.
import { describe, expect, it } from "vitest";
import { adminEn } from "../../common/i18n/admin-en.ts";
import { adminHi } from "../../common/i18n/admin-hi.ts";
import { apiEn } from "../../common/i18n/api-en.ts";
import { apiHi } from "../../common/i18n/api-hi.ts";
import { formatMessage } from "../../common/i18n/catalogue.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";

/** The argument names a pattern uses: `{name}` and `{name, select|plural, …}`. */
function argumentsOf(pattern: string): string[] {
  return [...new Set([...pattern.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1]!))].sort();
}

describe.each([
  ["farmer and common texts", en as Record<string, string>, hi as Record<string, string>],
  ["admin texts", adminEn as Record<string, string>, adminHi as Record<string, string>],
  ["API texts", apiEn as Record<string, string>, apiHi as Record<string, string>],
])("%s", (_, english, hindi) => {
  it("have the same keys in English and Hindi", () => {
    expect(Object.keys(hindi).sort()).toEqual(Object.keys(english).sort());
  });

  it("use the same arguments in both languages, and every pattern parses", () => {
    for (const key of Object.keys(english)) {
      // Hindi may leave out a select's argument that only English needs (a full stop after the server's reason).
      // And invalidInput: English gives the schema's own sentence, Hindi names the field in Hindi.
      const hindiArgs = argumentsOf(hindi[key]!).filter((name) => !(key === "error.invalidInput" && name === "field"));
      expect({ key, missing: hindiArgs.filter((name) => !argumentsOf(english[key]!).includes(name)) }).toEqual({
        key,
        missing: [],
      });
      expect(() => formatMessage(english[key]!, {}, "en")).not.toThrow();
      expect(() => formatMessage(hindi[key]!, {}, "hi")).not.toThrow();
    }
  });
});
