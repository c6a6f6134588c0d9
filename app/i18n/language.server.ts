import { readCookie } from "../../worker/auth/cookies.ts";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, type Language } from "./catalogue.ts";

export function languageOf(request: Request): Language {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  return isLanguage(chosen) ? chosen : DEFAULT_LANGUAGE;
}
