import { useRouteLoaderData } from "react-router";
import { DEFAULT_LANGUAGE, translate, type Language, type MessageKey, type MessageValues } from "./catalogue.ts";

export {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_COOKIE,
  localeOf,
  translate,
  type Language,
  type MessageKey,
  type MessageValues,
} from "./catalogue.ts";

export function useLanguage(): Language {
  const data = useRouteLoaderData("root") as { language?: Language } | undefined;
  return data?.language ?? DEFAULT_LANGUAGE;
}

export function useT() {
  const language = useLanguage();
  return (key: MessageKey, values?: MessageValues) => translate(language, key, values);
}
