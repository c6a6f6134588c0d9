// The reader's language and its texts. The dictionary of that one language comes with the
// root loader's data (app/root.tsx), so a page ships no dictionary in its JavaScript and a
// Hindi reader never downloads the English texts, nor the other way round.
import { useRouteLoaderData } from "react-router";
import { DEFAULT_LANGUAGE, formatMessage, type Language, type Messages } from "./messages.ts";

export {
  DEFAULT_LANGUAGE,
  formatMessage,
  isLanguage,
  LANGUAGE_COOKIE,
  localeOf,
  type Language,
  type MessageKey,
  type Messages,
} from "./messages.ts";

type RootData = { language?: Language; messages?: Messages } | undefined;

export function useLanguage(): Language {
  const data = useRouteLoaderData("root") as RootData;
  return data?.language ?? DEFAULT_LANGUAGE;
}

export function useT() {
  const data = useRouteLoaderData("root") as RootData;
  const messages = data?.messages;
  // Without root data (its loader failed, which reading a cookie does not) the key is shown.
  return (key: keyof Messages, values?: Record<string, string | number>) => formatMessage(messages?.[key] ?? key, values);
}
