// Sign in with a code (docs/user-area.md, "Verified numbers"): the number, then the code sent to
// it by SMS. Both steps post to this route's action, so it works without JavaScript; the same
// functions as POST /api/auth/codes and POST /api/auth/login-code. The page says the same for
// every number: whether a code went out is decided after the answer (only a verified number
// gets one), so it says where to go when none comes.
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { formatMobileNo } from "../../common/i18n/format.ts";
import { sendCode, signInWithCode } from "../../worker/services/accounts.ts";
import { loginCookieHeaders, pageErrorOf, readCode, readMobileNo } from "../auth-form.server.ts";
import { AuthLinks, AuthPage } from "../components/auth-page.tsx";
import {
  AskForCodeForm,
  CodeField,
  type PageError,
  PageErrorMessage,
  ResendCodeForm,
} from "../components/code-forms.tsx";
import { field, readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, optionalUser, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/login-code";

export const meta: Route.MetaFunction = () => [{ title: "Sign in with a code · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  return null;
}

/** Which step the page shows: the number (and why it was refused), or the code for a number. */
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
  if (field(form, "intent") === "send") {
    const sent = await sendCode(env, request, { purpose: "signIn", mobileNo, waitUntil: waitUntilOf(context) });
    if (!sent.ok) {
      // Too many codes asked for: one that came earlier may still work.
      const refusal = pageErrorOf(sent, "error.generic");
      return data<Step>({ step: "code", mobileNo, error: refusal }, { status: sent.status });
    }
    return data<Step>({ step: "code", mobileNo, error: null });
  }
  const code = readCode(form);
  if (!code) return data<Step>({ step: "code", mobileNo, error: { key: "code.invalid" } }, { status: 400 });
  const login = await signInWithCode(env, request, { mobileNo, code });
  if (!login.ok) {
    const refusal = pageErrorOf(login, "login.failed");
    return data<Step>({ step: "code", mobileNo, error: refusal }, { status: login.status });
  }
  return redirect("/motor-control", { headers: loginCookieHeaders(login.cookies) });
}

export default function LoginCode({ actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const state: Step = actionData ?? { step: "number", mobileNo: "", error: null };
  return (
    <AuthPage title={t("codeLogin.title")}>
      {state.step === "number" ? (
        <>
          <p className="muted">{t("codeLogin.intro")}</p>
          <AskForCodeForm mobileNo={state.mobileNo} error={state.error} />
        </>
      ) : (
        <>
          <p data-testid="code-sent">{t("codeLogin.sent", { mobileNo: formatMobileNo(state.mobileNo) })}</p>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="check" />
            <input type="hidden" name="mobileNo" value={state.mobileNo} />
            <CodeField />
            <PageErrorMessage error={state.error} />
            <button type="submit" className="button primary" disabled={busy} data-testid="code-submit">
              {busy ? t("codeLogin.busy") : t("codeLogin.button")}
            </button>
          </Form>
          <ResendCodeForm mobileNo={state.mobileNo} />
          <p className="muted">
            {t("codeLogin.noSms")} <Link to="/forgot-password">{t("forgot.link")}</Link>
          </p>
        </>
      )}
      <AuthLinks
        links={[
          ...(state.step === "code" ? [{ to: "/login-code", label: t("code.otherNumber") }] : []),
          { to: "/login", label: t("codeLogin.withPassword") },
        ]}
      />
    </AuthPage>
  );
}
