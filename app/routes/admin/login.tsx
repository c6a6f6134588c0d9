// /admin/login (SPEC §2): a session of its own, only for accounts with the admin role. A route
// action like the farmers' /login, so it works without JavaScript too.
import { data, redirect } from "react-router";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { signInWithPassword } from "../../../worker/services/accounts.ts";
import { optionalAdmin } from "../../admin-session.server.ts";
import { loginCookieHeaders, readCredentialsForm } from "../../auth-form.server.ts";
import { LoginForm } from "../../components/login-form.tsx";
import { SignedOutNotice, signedOutOf } from "../../components/signed-out-notice.tsx";
import { readForm } from "../../form.server.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { envOf } from "../../session.server.ts";
import adminStylesheet from "../../styles/admin.css?url";
import type { Route } from "./+types/login";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: adminStylesheet, precedence: "default" }];

export const meta: Route.MetaFunction = () => [{ title: "Admin Login · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // A stored admin session goes straight to the dashboard (SPEC §2).
  if (await optionalAdmin(request, context)) throw redirect("/admin/dashboard");
  return { signedOut: signedOutOf(request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = readCredentialsForm(await readForm(request), "login");
  if (!form.ok) {
    const error: AdminMessageKey = form.error === "auth.required" ? "admin.login.required" : "admin.login.failed";
    return data({ error }, { status: 400 });
  }
  const login = await signInWithPassword(envOf(context), request, form.credentials, "admin");
  if (login.ok) return redirect("/admin/dashboard", { headers: loginCookieHeaders(login.cookies) });
  if (login.code === "throttled") return data({ error: "admin.login.throttled" as const }, { status: 429 });
  // Anything unexpected (logged by the service) means the login produced no valid session.
  if (login.code === "internal") return data({ error: "admin.login.invalidResponse" as const }, { status: 500 });
  // Wrong password, unknown number or not an admin: one answer, no account probing (SPEC §8
  // "any other failure").
  return data({ error: "admin.login.failed" as const }, { status: 401 });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const t = useAdminT();
  return (
    <LoginForm
      title={t("admin.login.title")}
      submitLabel={t("admin.login.button")}
      busyLabel={t("admin.login.busy")}
      error={actionData?.error && t(actionData.error)}
      notice={
        loaderData.signedOut &&
        !actionData && (
          <SignedOutNotice
            reason={loaderData.signedOut}
            text={t(`admin.login.${loaderData.signedOut}`)}
            testId="login-notice"
          />
        )
      }
    />
  );
}
