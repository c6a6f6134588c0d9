// A forgotten password, set anew with a code (docs/user-area.md, "Verified numbers"): the
// number, then the code sent to it by SMS with the new password twice. Both steps post to this
// route's action, so it works without JavaScript; the same functions as POST /api/auth/codes and
// POST /api/auth/reset-password. Every session of the account ends (this browser gets a new
// one) and the number counts as verified: the holder of a number takes back an account someone
// else registered with it. Open to a signed-in farmer too (one who signed in with a code and
// knows no password). The page says the same for every number.
import { data, Form, redirect, useNavigation } from "react-router";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../common/constants.ts";
import { formatMobileNo } from "../../common/i18n/format.ts";
import { resetPasswordAndSignIn, sendCode } from "../../worker/services/accounts.ts";
import { loginCookieHeaders, pageErrorOf, readCode, readMobileNo } from "../auth-form.server.ts";
import { AuthLinks, AuthPage } from "../components/auth-page.tsx";
import {
  AskForCodeForm,
  CodeField,
  type PageError,
  PageErrorMessage,
  ResendCodeForm,
} from "../components/code-forms.tsx";
import { NewPasswordField } from "../components/new-password-field.tsx";
import { field, readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [{ title: "Set a new password · Sinchai" }];

type Step =
  | { step: "number"; mobileNo: string; error: PageError | null }
  | { step: "code"; mobileNo: string; error: PageError | null };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const env = envOf(context);
  const mobileNo = readMobileNo(form);
  if (!mobileNo) {
    const error = { key: "auth.mobileInvalid" } as const;
    return data<Step>({ step: "number", mobileNo: field(form, "mobileNo").slice(0, 10), error }, { status: 400 });
  }
  const refused = (error: PageError, status: number) => data<Step>({ step: "code", mobileNo, error }, { status });
  if (field(form, "intent") === "send") {
    const sent = await sendCode(env, request, { purpose: "resetPassword", mobileNo, waitUntil: waitUntilOf(context) });
    if (!sent.ok) return refused(pageErrorOf(sent, "error.generic"), sent.status);
    return data<Step>({ step: "code", mobileNo, error: null });
  }
  const code = readCode(form);
  const newPassword = field(form, "newPassword");
  if (!code && !newPassword) return refused({ key: "forgot.required" }, 400);
  if (!code) return refused({ key: "code.invalid" }, 400);
  if (newPassword !== field(form, "confirmPassword")) return refused({ key: "password.mismatch" }, 400);
  if (newPassword.length < PASSWORD_MIN_LENGTH || newPassword.length > PASSWORD_MAX_LENGTH) {
    return refused({ key: "auth.passwordLength" }, 400);
  }
  const login = await resetPasswordAndSignIn(env, request, { mobileNo, code, newPassword });
  if (!login.ok) return refused(pageErrorOf(login, "error.generic"), login.status);
  return redirect("/motor-control?passwordReset=1", { headers: loginCookieHeaders(login.cookies) });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const state: Step = actionData ?? { step: "number", mobileNo: "", error: null };
  return (
    <AuthPage title={t("forgot.title")}>
      {state.step === "number" ? (
        <>
          <p className="muted">{t("forgot.intro")}</p>
          <AskForCodeForm mobileNo={state.mobileNo} error={state.error} />
        </>
      ) : (
        <>
          <p data-testid="code-sent">{t("forgot.sent", { mobileNo: formatMobileNo(state.mobileNo) })}</p>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="reset" />
            <input type="hidden" name="mobileNo" value={state.mobileNo} />
            <CodeField />
            <NewPasswordField name="newPassword" label={t("password.new")} />
            <NewPasswordField name="confirmPassword" label={t("password.confirm")} />
            <PageErrorMessage error={state.error} />
            <button type="submit" className="button primary" disabled={busy} data-testid="code-submit">
              {busy ? t("forgot.busy") : t("forgot.button")}
            </button>
          </Form>
          <ResendCodeForm mobileNo={state.mobileNo} />
        </>
      )}
      <AuthLinks
        links={[
          ...(state.step === "code" ? [{ to: "/forgot-password", label: t("code.otherNumber") }] : []),
          { to: "/login", label: t("codeLogin.withPassword") },
        ]}
      />
    </AuthPage>
  );
}
