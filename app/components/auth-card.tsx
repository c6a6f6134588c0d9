import type { ReactNode } from "react";
import { Link } from "react-router";
import { useT } from "../i18n/i18n.ts";
import { LanguageSwitch } from "./language-switch.tsx";

/** The frame of the login and register pages: brand, language switch, one card. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const t = useT();
  return (
    <main className="page narrow">
      <header className="auth-header">
        <Link to="/" className="brand">
          {t("app.name")}
        </Link>
        <LanguageSwitch />
      </header>
      <section className="card">
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}

export function MobileAndPasswordFields() {
  const t = useT();
  return (
    <>
      <label className="field">
        <span>{t("auth.mobileNo")}</span>
        <input
          name="mobileNo"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder={t("auth.mobilePlaceholder")}
          maxLength={10}
          required
        />
      </label>
      <label className="field">
        <span>{t("auth.password")}</span>
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
    </>
  );
}
