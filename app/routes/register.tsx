import { data, redirect } from "react-router";
import { registerAccount } from "../../worker/auth/accounts.ts";
import { sessionCookie } from "../../worker/auth/cookies.ts";
import { startSession } from "../../worker/auth/sessions.ts";
import { accountErrorKey, accountErrorStatus, loginCookieHeaders, readCredentialsForm } from "../auth-form.server.ts";
import { LoginForm } from "../components/login-form.tsx";
import { readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { languageOf } from "../i18n/language.server.ts";
import { envOf, optionalUser, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = () => [{ title: "Register · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = readCredentialsForm(await readForm(request), "register");
  if (!form.ok) return data({ error: form.error }, { status: 400 });
  const env = envOf(context);
  let userId: number;
  try {
    const sending = { waitUntil: waitUntilOf(context), language: languageOf(request) };
    userId = (await registerAccount(env, form.credentials, sending, request)).id;
  } catch (error) {
    return data({ error: accountErrorKey(error, "register.failed") }, { status: accountErrorStatus(error) });
  }
  // A farmer who just chose a password is not asked for it again: registering signs in and
  // goes straight to the motor page, which says what to do until a box is linked.
  const { token, expiresAt } = await startSession(env, userId, "user");
  const maxAge = Math.floor((expiresAt - Date.now()) / 1000);
  return redirect("/motor-control?welcome=1", {
    headers: loginCookieHeaders(sessionCookie(request, "user", token, maxAge), []),
  });
}

export default function Register({ actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <LoginForm
      title={t("register.title")}
      submitLabel={t("register.button")}
      busyLabel={t("register.busy")}
      error={actionData?.error && t(actionData.error)}
      elsewhere={{ question: t("register.haveAccount"), to: "/login", link: t("register.loginLink") }}
    />
  );
}
