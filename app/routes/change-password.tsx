// The signed-in farmer changes their password. A plain form post with a route action, so it
// works before (or without) JavaScript; the same function as POST /api/auth/change-password.
// Every other session of the account ends, and the realtime sockets they opened close.
import { data, Form, Link, useNavigation } from "react-router";
import { changeOwnPassword } from "../../worker/services/accounts.ts";
import { accountErrorKey, readPasswordChangeForm } from "../auth-form.server.ts";
import { Field } from "../components/field.tsx";
import { NewPasswordField } from "../components/new-password-field.tsx";
import { useT } from "../i18n/i18n.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/change-password";

export const meta: Route.MetaFunction = () => [{ title: "Change password · Sinchai" }];

export async function action({ request, context }: Route.ActionArgs) {
  const form = readPasswordChangeForm(await request.formData());
  if (!form.ok) return data({ changed: false, error: form.error }, { status: 400 });
  const changed = await changeOwnPassword(envOf(context), request, context.get(userContext), form.input);
  if (changed.ok) return { changed: true, error: null };
  return data({ changed: false, error: accountErrorKey(changed, "error.generic") }, { status: changed.status });
}

export default function ChangePassword({ actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  return (
    <main className="page narrow">
      <h1>{t("password.title")}</h1>
      <section className="card">
        {actionData?.changed ? (
          <p className="message success" role="status" data-testid="password-changed">
            {t("password.changed")}
          </p>
        ) : (
          <p className="muted">{t("password.intro")}</p>
        )}
        {/* A fresh form after a change: the browser must not keep the passwords in the fields. */}
        <Form method="post" className="stack" key={actionData?.changed ? "changed" : "form"}>
          <Field label={t("password.current")}>
            <input name="currentPassword" type="password" autoComplete="current-password" required />
          </Field>
          <NewPasswordField name="newPassword" label={t("password.new")} />
          <NewPasswordField name="confirmPassword" label={t("password.confirm")} />
          {actionData?.error && (
            <p className="message error" role="alert">
              {t(actionData.error)}
            </p>
          )}
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t("password.busy") : t("password.button")}
          </button>
        </Form>
        <p className="muted">
          {t("password.forgot")}{" "}
          <Link to="/forgot-password" data-testid="forgot-password">
            {t("forgot.link")}
          </Link>
        </p>
      </section>
    </main>
  );
}
