import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import { registerAccount } from "../../worker/auth/accounts.ts";
import { readForm } from "../form.server.ts";
import { accountErrorKey, accountErrorStatus, readCredentialsForm } from "../auth-form.server.ts";
import { AuthCard, MobileAndPasswordFields } from "../components/auth-card.tsx";
import { useT } from "../i18n/i18n.ts";
import { envOf, optionalUser } from "../session.server.ts";
import type { Route } from "./+types/register";

/** After a successful registration the page goes to / after this long (SPEC §2). */
const REDIRECT_AFTER_MS = 1_500;

export const meta: Route.MetaFunction = () => [{ title: "Register · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await optionalUser(request, context)) throw redirect("/motor-control");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = readCredentialsForm(await readForm(request), "register");
  if (!form.ok) return data({ registered: false, error: form.error }, { status: 400 });
  try {
    await registerAccount(envOf(context), form.credentials, request);
    return { registered: true, error: null };
  } catch (error) {
    return data({ registered: false, error: accountErrorKey(error, "register.failed") }, { status: accountErrorStatus(error) });
  }
}

export default function Register({ actionData }: Route.ComponentProps) {
  const t = useT();
  const navigate = useNavigate();
  const busy = useNavigation().state === "submitting";
  const registered = actionData?.registered === true;

  useEffect(() => {
    if (!registered) return;
    const timer = setTimeout(() => navigate("/"), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [registered, navigate]);

  return (
    <AuthCard title={t("register.title")}>
      {registered ? (
        <>
          <p className="message success" role="status">
            {t("register.success")}
          </p>
          {/* Without JavaScript the browser follows this instead of the timer above. */}
          <noscript>
            <meta httpEquiv="refresh" content="2;url=/" />
          </noscript>
        </>
      ) : (
        <Form method="post" className="stack">
          <MobileAndPasswordFields />
          {actionData?.error && (
            <p className="message error" role="alert">
              {t(actionData.error)}
            </p>
          )}
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t("register.busy") : t("register.button")}
          </button>
        </Form>
      )}
      <p className="muted">
        {t("register.haveAccount")} <Link to="/login">{t("register.loginLink")}</Link>
      </p>
    </AuthCard>
  );
}
