// A forgotten password, set anew with a code (docs/user-area.md, "Verified numbers"): the
// number, then the code sent to it by SMS with the new password twice. Both steps post to this
// route's action, so it works without JavaScript; the same functions as POST /api/auth/codes and
// POST /api/auth/reset-password. Every session of the account ends (this browser gets a new
// one) and the number counts as verified: the holder of a number takes back an account someone
// else registered with it. Open to a signed-in farmer too (one who signed in with a code and
// knows no password). The page says the same for every number.
import { redirect } from "react-router";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../common/constants.ts";
import { resetPasswordAndSignIn } from "../../worker/services/accounts.ts";
import { codeRefused, loginCookieHeaders, numberOrCodeSent, pageErrorOf, readCode } from "../auth-form.server.ts";
import { CodeStepsPage, type PageError } from "../components/code-forms.tsx";
import { NewPasswordField } from "../components/new-password-field.tsx";
import { field, readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [{ title: "Set a new password · Sinchai" }];

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const env = envOf(context);
  const asked = await numberOrCodeSent(form, request, {
    env,
    purpose: "resetPassword",
    waitUntil: waitUntilOf(context),
  });
  if ("answer" in asked) return asked.answer;
  const { mobileNo } = asked;
  const refused = (error: PageError, status: number) => codeRefused(mobileNo, error, status);
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
  return (
    <CodeStepsPage
      state={actionData}
      words={{
        title: "forgot.title",
        intro: "forgot.intro",
        sent: "forgot.sent",
        button: "forgot.button",
        busy: "forgot.busy",
      }}
      intent="reset"
      path="/forgot-password"
    >
      <NewPasswordField name="newPassword" label={t("password.new")} />
      <NewPasswordField name="confirmPassword" label={t("password.confirm")} />
    </CodeStepsPage>
  );
}
