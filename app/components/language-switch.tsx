import { Form, useLocation } from "react-router";
import { useLanguage, useT } from "../i18n/i18n.ts";

/** On every page: posts to /language and comes back here, with or without JavaScript. */
export function LanguageSwitch() {
  const t = useT();
  const language = useLanguage();
  const location = useLocation();
  const other = language === "hi" ? "en" : "hi";
  return (
    <Form method="post" action="/language" className="language-switch">
      <input type="hidden" name="language" value={other} />
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      {/* The visible word is part of the name (WCAG 2.5.3), and is spoken in its own language. */}
      <button type="submit" className="link-button">
        <span className="visually-hidden">{t("language.label")}: </span>
        <span lang={other}>{t("language.switchTo")}</span>
      </button>
    </Form>
  );
}
