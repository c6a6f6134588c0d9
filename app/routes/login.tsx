import { data, redirect } from "react-router";
import { logIn } from "../../worker/auth/accounts.ts";
import { sessionCookie } from "../../worker/auth/cookies.ts";
import { accountErrorKey, accountErrorStatus, loginCookieHeaders, readCredentialsForm } from "../auth-form.server.ts";
import { LoginForm } from "../components/login-form.tsx";
import { readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, optionalUser } from "../session.server.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Login · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Already signed in: straight to the dashboard (SPEC §2).
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = readCredentialsForm(await readForm(request), "login");
  if (!form.ok) return data({ error: form.error }, { status: 400 });
  try {
    const { token, expiresAt, cookies } = await logIn(envOf(context), form.credentials, "user", request);
    const maxAge = Math.floor((expiresAt - Date.now()) / 1000);
    return redirect("/motor-control", {
      headers: loginCookieHeaders(sessionCookie(request, "user", token, maxAge), cookies),
    });
  } catch (error) {
    return data({ error: accountErrorKey(error, "login.failed") }, { status: accountErrorStatus(error) });
  }
}

export default function Login({ actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <LoginForm
      title={t("login.title")}
      submitLabel={t("login.button")}
      busyLabel={t("login.busy")}
      error={actionData?.error && t(actionData.error)}
      links={[
        { to: "/login-code", label: t("login.withCode"), testId: "login-with-code" },
        { to: "/forgot-password", label: t("login.forgot"), testId: "forgot-password" },
      ]}
      elsewhere={{ question: t("login.noAccount"), to: "/register", link: t("login.registerLink") }}
    />
  );
}
