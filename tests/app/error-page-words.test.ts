// The top-level error and offline pages word themselves (app/error-page-words.ts): they show when
// the request that brings the reader's dictionary may be the one that failed.
import { describe, expect, it } from "vitest";
import { ERROR_PAGE_WORDS, errorPageLanguage } from "../../app/error-page-words.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";

const CATALOGUE_KEYS = {
  pageNotOpened: "offline.pageNotOpened",
  openDashboard: "offline.openDashboard",
  title: "error.title",
  notFound: "error.notFound",
  generic: "error.generic",
  home: "error.home",
} as const;

describe("the error and offline pages' own words", () => {
  it("are the catalogues' texts of the same names, in both languages", () => {
    for (const [language, catalogue] of [
      ["hi", hi],
      ["en", en],
    ] as const) {
      for (const [word, key] of Object.entries(CATALOGUE_KEYS)) {
        expect(ERROR_PAGE_WORDS[language][word as keyof typeof CATALOGUE_KEYS]).toBe(catalogue[key]);
      }
    }
  });

  it("never look like a catalogue key", () => {
    for (const words of Object.values(ERROR_PAGE_WORDS)) {
      for (const text of Object.values(words)) expect(text).not.toMatch(/^[a-z]+\.[a-zA-Z]+$/);
    }
  });

  it("are in the root data's language, else the language cookie's, else Hindi", () => {
    expect(errorPageLanguage("en", "")).toBe("en");
    expect(errorPageLanguage("hi", "sinchai_lang=en")).toBe("hi");
    expect(errorPageLanguage(undefined, "theme=x; sinchai_lang=en")).toBe("en");
    expect(errorPageLanguage(undefined, "sinchai_lang=en; other=1")).toBe("en");
    expect(errorPageLanguage(undefined, "sinchai_lang=hi")).toBe("hi");
    expect(errorPageLanguage(undefined, "")).toBe("hi");
  });
});
