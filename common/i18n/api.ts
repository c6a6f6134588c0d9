// The API's own texts plus the common ones, for the Worker: pages never import this module.
import { type ApiMessageKey, apiEn } from "./api-en.ts";
import { apiHi } from "./api-hi.ts";
import { formatMessage, type MessageKey, type MessageValues } from "./catalogue.ts";
import { translate } from "./dictionaries.ts";
import type { Language } from "./language.ts";

const apiDictionaries: Record<Language, Record<ApiMessageKey, string>> = { en: apiEn, hi: apiHi };

function isApiKey(key: string): key is ApiMessageKey {
  return key in apiEn;
}

export function translateApi(language: Language, key: ApiMessageKey | MessageKey, values: MessageValues = {}): string {
  if (!isApiKey(key)) return translate(language, key, values);
  return formatMessage(apiDictionaries[language][key], values, language);
}
