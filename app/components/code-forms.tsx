// The pieces of the pages that prove a number with a code sent to it by SMS (sign in with a
// code, a new password, verifying the number): the code's field, the form that asks for a code,
// the one that asks for another, and the two steps of the pages before sign-in. Plain forms with an `intent`, posted to their page's own
// route action, so they work without JavaScript.
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { formatClockTime, formatMobileNo } from "../../common/i18n/format.ts";
import { CONTACT } from "../contact.ts";
import { type MessageKey, type MessageValues, useLanguage, useT } from "../i18n/i18n.ts";
import { AuthLinks, AuthPage } from "./auth-page.tsx";
import { Field } from "./field.tsx";
import { MobileNoField } from "./login-form.tsx";

/**
 * A page's refusal: its words' key and values (a wrong code says how many tries are left); a
 * throttle says when it lifts (`retryAt`, an instant written here with Intl, India time).
 */
export type PageError = { key: MessageKey; values?: MessageValues; retryAt?: number };

/** Whether no more codes can be asked for now: the page then offers none and says until when. */
export function isCodeLimit(error: PageError | null | undefined): boolean {
  return error?.key === "code.limited";
}

export function PageErrorMessage({ error }: { error: PageError | null | undefined }) {
  const t = useT();
  const language = useLanguage();
  if (!error) return null;
  if (error.retryAt !== undefined) {
    // A wait, not a fault: when it ends, and the support number for a farmer who cannot wait.
    return (
      <div className="message warning stack" role="alert" data-testid="code-limit" data-retry-at={error.retryAt}>
        <p>{t(error.key, { ...error.values, time: formatClockTime(error.retryAt, language) })}</p>
        <p>
          {t("code.callUs")} <a href={`tel:${CONTACT.tel}`}>{CONTACT.phone}</a>
        </p>
      </div>
    );
  }
  return (
    <p className="message error" role="alert">
      {t(error.key, error.values)}
    </p>
  );
}

/**
 * The six digits from an SMS; the phone may offer them itself (`one-time-code`) when they came to
 * this phone. A code sent to someone else's phone says `off`, so the phone offers none of its own.
 */
export function CodeField({ autoComplete = "one-time-code" }: { autoComplete?: "one-time-code" | "off" }) {
  const t = useT();
  return (
    <Field label={t("code.label")}>
      <input
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete={autoComplete}
        maxLength={7}
        required
        data-testid="code-input"
      />
    </Field>
  );
}

/** Asks for a code to a number the farmer types. */
export function AskForCodeForm({ mobileNo, error }: { mobileNo?: string; error?: PageError | null }) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className="stack" noValidate>
      <input type="hidden" name="intent" value="send" />
      <MobileNoField defaultValue={mobileNo} />
      <PageErrorMessage error={error} />
      <button type="submit" className="button primary" disabled={busy} data-testid="send-code">
        {busy ? t("code.sending") : t("code.send")}
      </button>
    </Form>
  );
}

/** Asks for another code to the same number (the last one did not come, or ran out). */
export function ResendCodeForm({ mobileNo, label = "code.resend" }: { mobileNo?: string; label?: MessageKey }) {
  const t = useT();
  return (
    <Form method="post" className="resend-form">
      <input type="hidden" name="intent" value="send" />
      {mobileNo !== undefined && <input type="hidden" name="mobileNo" value={mobileNo} />}
      <button type="submit" className="link-button" data-testid="resend-code">
        {t(label)}
      </button>
    </Form>
  );
}

/** Which step a page before sign-in that proves a number shows: the number (and why it was refused), or the code sent to it. */
export type CodeStep = { step: "number" | "code"; mobileNo: string; error: PageError | null };

/**
 * A page before sign-in that proves a number with a code (sign in with a code, a new password):
 * the number first, then the code with the step's other fields (`children`), posted with
 * `intent` to the page's own action (app/auth-form.server.ts, numberOrCodeSent); `path` starts
 * again with another number, `footer` follows the form that asks for another code.
 */
export function CodeStepsPage({
  state = { step: "number", mobileNo: "", error: null },
  words,
  intent,
  path,
  children,
  footer,
}: {
  state: CodeStep | undefined;
  words: { title: MessageKey; intro: MessageKey; sent: MessageKey; button: MessageKey; busy: MessageKey };
  intent: string;
  path: string;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  return (
    <AuthPage title={t(words.title)}>
      {state.step === "number" ? (
        <>
          <p className="muted">{t(words.intro)}</p>
          <AskForCodeForm mobileNo={state.mobileNo} error={state.error} />
        </>
      ) : (
        <>
          {/* Refused another code: saying one is on its way would contradict the refusal below. */}
          {!isCodeLimit(state.error) && (
            <p data-testid="code-sent">{t(words.sent, { mobileNo: formatMobileNo(state.mobileNo) })}</p>
          )}
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name="mobileNo" value={state.mobileNo} />
            <CodeField />
            {children}
            <PageErrorMessage error={state.error} />
            <button type="submit" className="button primary" disabled={busy} data-testid="code-submit">
              {busy ? t(words.busy) : t(words.button)}
            </button>
          </Form>
          {!isCodeLimit(state.error) && <ResendCodeForm mobileNo={state.mobileNo} />}
          {footer}
        </>
      )}
      <AuthLinks
        links={[
          ...(state.step === "code" ? [{ to: path, label: t("code.otherNumber") }] : []),
          { to: "/login", label: t("codeLogin.withPassword") },
        ]}
      />
    </AuthPage>
  );
}
