// The top-level error and offline pages' own words, in both languages. These pages show when
// something failed, which can be the very request that brings the reader's dictionary with the
// root's data (app/i18n/i18n.ts): looked up there, a farmer offline read "offline.pageNotOpened"
// and a button "offline.openDashboard". The same texts as the catalogues' keys of those names
// (tests/app/error-page-words.test.ts keeps them equal).
import type { Language } from "../common/i18n/language.ts";

export const ERROR_PAGE_WORDS = {
  hi: {
    pageNotOpened: "इंटरनेट नहीं है, इसलिए यह पेज नहीं खुल सका।",
    openDashboard: "आख़िरी जानकारी देखें",
    title: "कुछ गलत हो गया",
    notFound: "पेज नहीं मिला।",
    generic: "कोई गड़बड़ी हुई। फिर से कोशिश करें।",
    home: "होम पेज पर जाएँ",
  },
  en: {
    pageNotOpened: "No connection, so this page could not open.",
    openDashboard: "See what was last known",
    title: "Something went wrong",
    notFound: "The page could not be found.",
    generic: "An error occurred. Please try again.",
    home: "Go to the home page",
  },
} as const satisfies Record<Language, Record<string, string>>;

/**
 * The reader's language for these pages: the root's data when it came, else the language
 * cookie the page was opened with (the root's data may be what failed), else Hindi.
 */
export function errorPageLanguage(rootLanguage: Language | undefined, cookie: string): Language {
  return rootLanguage ?? (/(?:^|;\s*)sinchai_lang=en(?:;|$)/.test(cookie) ? "en" : "hi");
}
