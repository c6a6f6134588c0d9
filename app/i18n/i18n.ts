// The reader's language and its texts. The dictionary of that one language comes with the
// root loader's data (app/root.tsx), so a page ships no dictionary in its JavaScript and a
// Hindi reader never downloads the English texts, nor the other way round. Texts are rendered
// by the one catalogue renderer (./catalogue.ts), so plurals and selects work in pages too.
import { useRouteLoaderData } from "react-router";
import {
  DEFAULT_LANGUAGE,
  type MessageKey,
  type Messages,
  type MessageValues,
  type Words,
  wordIn,
} from "../../common/i18n/catalogue.ts";
import type { Language } from "../../common/i18n/language.ts";

export {
  isLanguage,
  LANGUAGE_COOKIE,
  localeOf,
  type MessageKey,
  type MessageValues,
  type Words,
} from "../../common/i18n/catalogue.ts";
export type { Language } from "../../common/i18n/language.ts";

type RootData = { language?: Language; messages?: Messages } | undefined;

export function useLanguage(): Language {
  const data = useRouteLoaderData("root") as RootData;
  return data?.language ?? DEFAULT_LANGUAGE;
}

/** The reader's language and dictionary, for modules that word texts outside a hook (motor logs). */
export function useWords(): Words {
  const data = useRouteLoaderData("root") as RootData;
  // Without root data (its loader failed, which reading a cookie does not) keys are shown.
  return { language: data?.language ?? DEFAULT_LANGUAGE, messages: data?.messages ?? ({} as Messages) };
}

export function useT() {
  const words = useWords();
  return (key: MessageKey, values?: MessageValues) => wordIn(words, key, values);
}
