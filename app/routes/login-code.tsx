// Sign in with a code (docs/user-area.md, "Verified numbers"): the number, then the code sent to
// it by SMS. Both steps post to this route's action, so it works without JavaScript; the same
// functions as POST /api/auth/codes and POST /api/auth/login-code. The page says the same for
// every number: whether a code went out is decided after the answer (only a verified number
// gets one), so it says where to go when none comes.
import { Link, redirect } from "react-router";
import { signInWithCode } from "../../worker/services/accounts.ts";
import { codeRefused, loginCookieHeaders, numberOrCodeSent, pageErrorOf, readCode } from "../auth-form.server.ts";
import { CodeStepsPage } from "../components/code-forms.tsx";
import { readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, toDashboardIfSignedIn, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/login-code";

export const meta: Route.MetaFunction = () => [{ title: "Sign in with a code · Sinchai" }];

export const loader = toDashboardIfSignedIn;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const env = envOf(context);
  const asked = await numberOrCodeSent(form, request, { env, purpose: "signIn", waitUntil: waitUntilOf(context) });
  if ("answer" in asked) return asked.answer;
  const { mobileNo } = asked;
  const code = readCode(form);
  if (!code) return codeRefused(mobileNo, { key: "code.invalid" }, 400);
  const login = await signInWithCode(env, request, { mobileNo, code });
  if (!login.ok) return codeRefused(mobileNo, pageErrorOf(login, "login.failed"), login.status);
  return redirect("/motor-control", { headers: loginCookieHeaders(login.cookies) });
}

export default function LoginCode({ actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <CodeStepsPage
      state={actionData}
      words={{
        title: "codeLogin.title",
        intro: "codeLogin.intro",
        sent: "codeLogin.sent",
        button: "codeLogin.button",
        busy: "codeLogin.busy",
      }}
      intent="check"
      path="/login-code"
      footer={
        <p className="muted">
          {t("codeLogin.noSms")} <Link to="/forgot-password">{t("forgot.link")}</Link>
        </p>
      }
    />
  );
}
