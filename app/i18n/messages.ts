// Languages and the filling of a text's placeholders: no React here, so the server side (the
// DeviceHub's push texts) can use it too. Hooks are in ./i18n.ts.
import type { MessageKey } from "./en.ts";

export type Language = "hi" | "en";
export type { MessageKey };
export type Messages = Record<MessageKey, string>;

/** Hindi first: most of our farmers read it before English. */
export const DEFAULT_LANGUAGE: Language = "hi";
export const LANGUAGE_COOKIE = "sinchai_lang";

export function isLanguage(value: unknown): value is Language {
  return value === "hi" || value === "en";
}

/** Fills `{name}` placeholders; a value not given stays visible as `{name}`. */
export function formatMessage(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

/** Indian locale formats for numbers and dates, in the reader's script. */
export function localeOf(language: Language): string {
  return language === "hi" ? "hi-IN" : "en-IN";
}
