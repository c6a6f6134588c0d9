import { readCookie } from "../../worker/auth/cookies.ts";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE } from "./catalogue.ts";
import type { Language } from "./language.ts";

export function languageOf(request: Request): Language {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
}
