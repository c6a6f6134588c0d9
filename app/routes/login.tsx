import { data, redirect } from "react-router";
import { signInWithPassword } from "../../worker/services/accounts.ts";
import { accountErrorKey, loginCookieHeaders, readCredentialsForm } from "../auth-form.server.ts";
import { LoginForm } from "../components/login-form.tsx";
import { SignedOutNotice } from "../components/signed-out-notice.tsx";
import { readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, toDashboardIfSignedIn } from "../session.server.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => [{ title: "Login · Sinchai" }];

export async function loader(args: Route.LoaderArgs) {
  await toDashboardIfSignedIn(args);
  return { passwordChanged: new URL(args.request.url).searchParams.get("session") === "passwordChanged" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = readCredentialsForm(await readForm(request), "login");
  if (!form.ok) return data({ error: form.error }, { status: 400 });
  const login = await signInWithPassword(envOf(context), request, form.credentials, "user");
  if (!login.ok) return data({ error: accountErrorKey(login, "login.failed") }, { status: login.status });
  return redirect("/motor-control", { headers: loginCookieHeaders(login.cookies) });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <LoginForm
      title={t("login.title")}
      submitLabel={t("login.button")}
      busyLabel={t("login.busy")}
      error={actionData?.error && t(actionData.error)}
      notice={
        loaderData.passwordChanged &&
        !actionData && (
          <SignedOutNotice reason="sessionExpired" text={t("login.passwordChanged")} testId="login-notice" />
        )
      }
      links={[
        { to: "/login-code", label: t("login.withCode"), testId: "login-with-code" },
        { to: "/forgot-password", label: t("login.forgot"), testId: "forgot-password" },
      ]}
      elsewhere={{ question: t("login.noAccount"), to: "/register", link: t("login.registerLink") }}
    />
  );
}
