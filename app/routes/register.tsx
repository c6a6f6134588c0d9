import { data, redirect } from "react-router";
import { registerAndSignIn } from "../../worker/services/accounts.ts";
import { accountErrorKey, loginCookieHeaders, readCredentialsForm } from "../auth-form.server.ts";
import { AuthLinks } from "../components/auth-page.tsx";
import { LoginForm } from "../components/login-form.tsx";
import { readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, toDashboardIfSignedIn, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = () => [{ title: "Register · Sinchai" }];

export const loader = toDashboardIfSignedIn;

export async function action({ request, context }: Route.ActionArgs) {
  const form = readCredentialsForm(await readForm(request), "register");
  if (!form.ok) return data({ error: form.error }, { status: 400 });
  // A farmer who just chose a password is not asked for it again: registering signs in. The
  // code sent to the number is asked for next; the number is verified once it is entered
  // (docs/decisions/027-verified-numbers.md).
  const registered = await registerAndSignIn(envOf(context), request, form.credentials, waitUntilOf(context));
  if (!registered.ok) {
    return data({ error: accountErrorKey(registered, "register.failed") }, { status: registered.status });
  }
  return redirect("/verify-number?sent=1&welcome=1", { headers: loginCookieHeaders(registered.cookies) });
}

export default function Register({ actionData }: Route.ComponentProps) {
  const t = useT();
  const taken = actionData?.error === "register.duplicate";
  return (
    <LoginForm
      title={t("register.title")}
      submitLabel={t("register.button")}
      busyLabel={t("register.busy")}
      error={actionData?.error && t(actionData.error)}
      afterError={
        // Not a dead end for the number's holder, whoever registered it: a code sent to it
        // signs them in or sets a new password, which logs everyone else out.
        taken && (
          <div data-testid="number-taken">
            <p className="muted">{t("register.duplicateHelp")}</p>
            <AuthLinks
              links={[
                { to: "/forgot-password", label: t("forgot.link"), testId: "taken-forgot" },
                { to: "/login-code", label: t("login.withCode"), testId: "taken-code" },
              ]}
            />
          </div>
        )
      }
      elsewhere={{ question: t("register.haveAccount"), to: "/login", link: t("register.loginLink") }}
    />
  );
}
