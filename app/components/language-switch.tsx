import { Form, useLocation } from "react-router";
import { useLanguage, useT } from "../i18n/i18n.ts";

/** On every page: posts to /language and comes back here, with or without JavaScript. */
export function LanguageSwitch() {
  const t = useT();
  const language = useLanguage();
  const location = useLocation();
  return (
    <Form method="post" action="/language" className="language-switch">
      <input type="hidden" name="language" value={language === "hi" ? "en" : "hi"} />
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <button type="submit" className="link-button" aria-label={t("language.label")}>
        {t("language.switchTo")}
      </button>
    </Form>
  );
}
