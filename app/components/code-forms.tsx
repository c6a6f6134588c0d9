// The pieces of the pages that prove a number with a code sent to it by SMS (sign in with a
// code, a new password, verifying the number): the code's field, the form that asks for a code,
// and the one that asks for another. Plain forms with an `intent`, posted to their page's own
// route action, so they work without JavaScript.
import { Form, useNavigation } from "react-router";
import { type MessageKey, type MessageValues, useT } from "../i18n/i18n.ts";
import { Field } from "./field.tsx";
import { MobileNoField } from "./login-form.tsx";

/** A page's refusal: its words' key and values (a wrong code says how many tries are left). */
export type PageError = { key: MessageKey; values?: MessageValues };

export function PageErrorMessage({ error }: { error: PageError | null | undefined }) {
  const t = useT();
  if (!error) return null;
  return (
    <p className="message error" role="alert">
      {t(error.key, error.values)}
    </p>
  );
}

/** The six digits from the SMS; the phone may offer them itself (`one-time-code`). */
export function CodeField() {
  const t = useT();
  return (
    <Field label={t("code.label")}>
      <input
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
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
