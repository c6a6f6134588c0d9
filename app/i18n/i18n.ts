import { useRouteLoaderData } from "react-router";
import { en, type MessageKey } from "./en.ts";
import { hi } from "./hi.ts";

export type Language = "hi" | "en";
export type { MessageKey };

/** Hindi first: most of our farmers read it before English. */
export const DEFAULT_LANGUAGE: Language = "hi";
export const LANGUAGE_COOKIE = "sinchai_lang";

const dictionaries: Record<Language, Record<MessageKey, string>> = { en, hi };

export function isLanguage(value: unknown): value is Language {
  return value === "hi" || value === "en";
}

export function translate(
  language: Language,
  key: MessageKey,
  values: Record<string, string | number> = {},
): string {
  return dictionaries[language][key].replace(/\{(\w+)\}/g, (_, name: string) =>
    String(values[name] ?? `{${name}}`),
  );
}

/** Indian locale formats for numbers and dates, in the reader's script. */
export function localeOf(language: Language): string {
  return language === "hi" ? "hi-IN" : "en-IN";
}

export function useLanguage(): Language {
  const data = useRouteLoaderData("root") as { language?: Language } | undefined;
  return data?.language ?? DEFAULT_LANGUAGE;
}

export function useT() {
  const language = useLanguage();
  return (key: MessageKey, values?: Record<string, string | number>) =>
    translate(language, key, values);
}
