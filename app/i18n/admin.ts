// The admin area's translate hook: admin texts plus the common ones.
import { type AdminMessageKey, adminEn } from "../../common/i18n/admin-en.ts";
import { adminHi } from "../../common/i18n/admin-hi.ts";
// The admin area ships both languages' common texts too (./dictionaries.ts): it is used on
// desktops, not by farmers on slow phones.
import { formatMessage, type MessageKey, type MessageValues } from "../../common/i18n/catalogue.ts";
import { translate } from "../../common/i18n/dictionaries.ts";
import type { Language } from "../../common/i18n/language.ts";
import { useLanguage } from "./i18n.ts";

const adminDictionaries: Record<Language, Record<AdminMessageKey, string>> = { en: adminEn, hi: adminHi };

function isAdminKey(key: string): key is AdminMessageKey {
  return key in adminEn;
}

export function translateAdmin(
  language: Language,
  key: AdminMessageKey | MessageKey,
  values: MessageValues = {},
): string {
  if (!isAdminKey(key)) return translate(language, key, values);
  return formatMessage(adminDictionaries[language][key], values, language);
}

export function useAdminT() {
  const language = useLanguage();
  return (key: AdminMessageKey | MessageKey, values?: MessageValues) => translateAdmin(language, key, values);
}
