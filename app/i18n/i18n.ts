// The reader's language and its texts. The dictionary of that one language comes with the
// root loader's data (app/root.tsx), so a page ships no dictionary in its JavaScript and a
// Hindi reader never downloads the English texts, nor the other way round.
import { useRouteLoaderData } from "react-router";
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

type RootData = { language?: Language; messages?: Messages } | undefined;

export function useLanguage(): Language {
  const data = useRouteLoaderData("root") as RootData;
  return data?.language ?? DEFAULT_LANGUAGE;
}

export function useT() {
  const data = useRouteLoaderData("root") as RootData;
  const messages = data?.messages;
  // Without root data (its loader failed, which reading a cookie does not) the key is shown.
  return (key: MessageKey, values?: Record<string, string | number>) => formatMessage(messages?.[key] ?? key, values);
}
