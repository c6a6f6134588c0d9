// Both dictionaries, for code that runs on the server (the root loader hands a page the one it
// needs; the DeviceHub words push notifications in each subscriber's language) and for the
// admin area. A module of its own, so that no page's JavaScript pulls both in by accident.
import { en } from "./en.ts";
import { hi } from "./hi.ts";
import { formatMessage, type Language, type MessageKey, type Messages } from "./messages.ts";

export const dictionaries: Record<Language, Messages> = { en, hi };

export function translate(language: Language, key: MessageKey, values: Record<string, string | number> = {}): string {
  return formatMessage(dictionaries[language][key], values);
}
