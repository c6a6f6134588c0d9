// Both dictionaries, for code that runs on the server (the root loader hands a page the one it
// needs; the API, the audit trail and the DeviceHub's push notifications word texts in each
// reader's language) and for the admin area. A module of its own, so that no farmer's page pulls
// both languages into its JavaScript by accident.

import { type MessageKey, type Messages, type MessageValues, type Words, wordIn } from "./catalogue.ts";
import { en } from "./en.ts";
import { hi } from "./hi.ts";
import type { Language } from "./language.ts";

export const dictionaries: Record<Language, Messages> = { en, hi };

export function wordsIn(language: Language): Words {
  return { language, messages: dictionaries[language] };
}

export function translate(language: Language, key: MessageKey, values: MessageValues = {}): string {
  return wordIn(wordsIn(language), key, values);
}
