// Sign in with a code (docs/user-area.md, "Verified numbers"): the number, then the code sent to
// it by SMS. Both steps post to this route's action, so it works without JavaScript; the same
// functions as POST /api/auth/codes and POST /api/auth/login-code. The page says the same for
// every number: whether a code went out is decided after the answer (only a verified number
// gets one), so it says where to go when none comes.
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { formatMobileNo } from "../../common/i18n/format.ts";
import { logInWithCode } from "../../worker/auth/code-accounts.ts";
import { sendAccountCode } from "../../worker/auth/code-delivery.ts";
import { sessionCookie } from "../../worker/auth/cookies.ts";
import { authClientOf } from "../../worker/auth/throttle.ts";
import { languageOf } from "../../worker/http/request-language.ts";
import { accountErrorStatus, loginCookieHeaders, pageErrorOf, readCode, readMobileNo } from "../auth-form.server.ts";
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
    try {
      await sendAccountCode(env, {
        purpose: "signIn",
        mobileNo,
        client: await authClientOf(env, request),
        waitUntil: waitUntilOf(context),
        language: languageOf(request),
      });
    } catch (error) {
      // Too many codes asked for: one that came earlier may still work.
      const refusal = pageErrorOf(error, "error.generic");
      return data<Step>({ step: "code", mobileNo, error: refusal }, { status: accountErrorStatus(error) });
    }
    return data<Step>({ step: "code", mobileNo, error: null });
  }
  const code = readCode(form);
  if (!code) return data<Step>({ step: "code", mobileNo, error: { key: "code.invalid" } }, { status: 400 });
  try {
    const { token, expiresAt, cookies } = await logInWithCode(env, { mobileNo, code }, request);
    const maxAge = Math.floor((expiresAt - Date.now()) / 1000);
    return redirect("/motor-control", {
      headers: loginCookieHeaders(sessionCookie(request, "user", token, maxAge), cookies),
    });
  } catch (error) {
    const refusal = pageErrorOf(error, "login.failed");
    return data<Step>({ step: "code", mobileNo, error: refusal }, { status: accountErrorStatus(error) });
  }
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
