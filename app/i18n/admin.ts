// The admin area's translate hook: admin texts plus the common ones.
import { adminEn, type AdminMessageKey } from "./admin-en.ts";
import { adminHi } from "./admin-hi.ts";
import { translate } from "./dictionaries.ts";
import { useLanguage } from "./i18n.ts";
import { formatMessage, type Language, type MessageKey } from "./messages.ts";

const adminDictionaries: Record<Language, Record<AdminMessageKey, string>> = { en: adminEn, hi: adminHi };

function isAdminKey(key: string): key is AdminMessageKey {
  return key in adminEn;
}

export function translateAdmin(
  language: Language,
  key: AdminMessageKey | MessageKey,
  values: Record<string, string | number> = {},
): string {
  if (!isAdminKey(key)) return translate(language, key, values);
  return formatMessage(adminDictionaries[language][key], values);
}

export function useAdminT() {
  const language = useLanguage();
  return (key: AdminMessageKey | MessageKey, values?: Record<string, string | number>) => translateAdmin(language, key, values);
}
