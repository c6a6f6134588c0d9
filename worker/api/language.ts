// The language the API words its texts in (`message`, `logMessage`): the same catalogue the
// pages use (common/i18n/catalogue.ts), so a Hindi page or app gets Hindi from the API too.
import { isLanguage, LANGUAGE_COOKIE } from "../../common/i18n/catalogue.ts";
import type { Language } from "../../common/i18n/language.ts";
import { readCookie } from "../auth/cookies.ts";

/**
 * The language cookie the pages set, if present (the reader chose it); else the one of ours
 * the client's `Accept-Language` wants most, Hindi first when both are wanted as much; else
 * English, which API clients of SPEC §7 have always been answered in.
 */
export function apiLanguage(request: Request): Language {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  if (isLanguage(chosen)) return chosen;
  return acceptedLanguage(request.headers.get("Accept-Language")) ?? "en";
}

/** "en-IN,en;q=0.9,hi;q=0.8" → "en"; "hi" → "hi"; nothing of ours → null. */
export function acceptedLanguage(header: string | null): Language | null {
  if (!header) return null;
  let best: { language: Language; quality: number } | null = null;
  for (const range of header.split(",")) {
    const [tag = "", ...parameters] = range.split(";");
    const language = tag.trim().toLowerCase().split("-")[0];
    if (!isLanguage(language)) continue;
    let quality = 1;
    for (const parameter of parameters) {
      const [name, value] = parameter.split("=");
      if (name?.trim() === "q") quality = Number(value);
    }
    if (!(quality > 0)) continue;
    if (!best || quality > best.quality || (quality === best.quality && language === "hi"))
      best = { language, quality };
  }
  return best?.language ?? null;
}
