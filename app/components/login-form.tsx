// The one mobile number and password form: the farmers' and the admins' login, and the
// registration, which asks the same two things. A plain form posted to its page's own route
// action, so it works without JavaScript; `noValidate` because the server's refusal, in the
// page's language, says more than the browser's English bubble. Each page words its own texts
// (farmers' and admins' dictionaries differ) and passes them in.
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useT } from "../i18n/i18n.ts";
import { AuthLinks, AuthPage } from "./auth-page.tsx";
import { Field } from "./field.tsx";

export function LoginForm({
  title,
  submitLabel,
  busyLabel,
  error,
  afterError,
  notice,
  elsewhere,
  links,
}: {
  title: string;
  submitLabel: string;
  /** The button while the post is on its way. */
  busyLabel: string;
  /** The route action's refusal, worded; nothing before a post or after a good one. */
  error?: string | null;
  /** Said under the refusal: what to do about it (a number already registered). */
  afterError?: ReactNode;
  /** Said above the form (the admin login: signed out, session expired). */
  notice?: ReactNode;
  /** Under the form, the way to the other page (between login and registration): a question and its link. */
  elsewhere?: { question: string; to: string; link: string };
  /** Other ways in, under the form (a code, a new password). */
  links?: { to: string; label: string; testId?: string }[];
}) {
  const busy = useNavigation().state === "submitting";
  const t = useT();
  return (
    <AuthPage title={title}>
      {notice}
      <Form method="post" className="stack" noValidate>
        <MobileNoField />
        <Field label={t("auth.password")}>
          <input name="password" type="password" autoComplete="current-password" required />
        </Field>
        {error && (
          <p className="message error" role="alert">
            {error}
          </p>
        )}
        {afterError}
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
      </Form>
      {links && <AuthLinks links={links} />}
      {elsewhere && (
        <p className="muted">
          {elsewhere.question} <Link to={elsewhere.to}>{elsewhere.link}</Link>
        </p>
      )}
    </AuthPage>
  );
}

/** The mobile number as every form before sign-in asks for it. */
export function MobileNoField({ defaultValue }: { defaultValue?: string }) {
  const t = useT();
  return (
    <Field label={t("auth.mobileNo")}>
      <input
        name="mobileNo"
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder={t("auth.mobilePlaceholder")}
        maxLength={10}
        defaultValue={defaultValue}
        required
      />
    </Field>
  );
}
