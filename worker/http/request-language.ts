import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE } from "../../common/i18n/catalogue.ts";
import type { Language } from "../../common/i18n/language.ts";
import { readCookie } from "../auth/cookies.ts";

export function languageOf(request: Request): Language {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
}
