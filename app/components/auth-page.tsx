// The frame of every page before sign-in (login, registration, a code, a new password): the
// brand home, the language switch, and one card with the page's title.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useT } from "../i18n/i18n.ts";
import { LanguageSwitch } from "./language-switch.tsx";

export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
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

/** The ways to other pages under a form, each a short link on its own line. */
export function AuthLinks({ links }: { links: { to: string; label: string; testId?: string }[] }) {
  return (
    <ul className="auth-links">
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to} data-testid={link.testId}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
