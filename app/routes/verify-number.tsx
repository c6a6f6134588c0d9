// The signed-in farmer verifies their number (docs/user-area.md, "Verified numbers"): a code is
// sent to it by SMS and typed here. Registration comes here with a code already sent (`?sent=1`,
// `&welcome=1`); the dashboard's one-line notice posts "send a code" here. Plain forms with an
// intent, posted to this route's action, so it works without JavaScript; the same functions as
// POST /api/auth/codes and POST /api/auth/verify-number. A verified number is sent away.
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { formatMobileNo } from "../../common/i18n/format.ts";
import { sendCode, verifyNumberWithCode } from "../../worker/services/accounts.ts";
import type { Refusal } from "../../worker/services/refusal.ts";
import { pageErrorOf, readCode } from "../auth-form.server.ts";
import { CodeField, isCodeLimit, type PageError, PageErrorMessage, ResendCodeForm } from "../components/code-forms.tsx";
import { field, readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { envOf, waitUntilOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/verify-number";

export const meta: Route.MetaFunction = () => [{ title: "Verify your number · Sinchai" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  if (user.numberVerified) throw redirect("/motor-control");
  return { mobileNo: user.mobileNo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const env = envOf(context);
  const user = context.get(userContext);
  // Whether the farmer came from registering, carried in the address from page to page.
  const welcome = new URL(request.url).searchParams.get("welcome") === "1" ? "&welcome=1" : "";
  const refused = (refusal: Refusal, limited?: "asking") =>
    data<{ error: PageError }>({ error: pageErrorOf(refusal, "error.generic", limited) }, { status: refusal.status });
  if (field(form, "intent") === "send") {
    const sent = await sendCode(env, request, {
      purpose: "verifyNumber",
      mobileNo: user.mobileNo,
      waitUntil: waitUntilOf(context),
    });
    if (!sent.ok) return refused(sent, "asking");
    // Sent: the page's address says so, and a reload does not send another.
    return redirect(`/verify-number?sent=1${welcome}`);
  }
  const code = readCode(form);
  if (!code) return data<{ error: PageError }>({ error: { key: "code.invalid" } }, { status: 400 });
  const verified = await verifyNumberWithCode(env, request, user, code);
  if (!verified.ok) return refused(verified);
  return redirect(`/motor-control?verified=1${welcome}`);
}

export default function VerifyNumber({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const [search] = useSearchParams();
  const sent = search.get("sent") === "1";
  const mobileNo = formatMobileNo(loaderData.mobileNo);
  return (
    <main className="page narrow">
      <h1>{t("verify.title")}</h1>
      <section className="card stack">
        {search.get("welcome") === "1" && (
          <p className="message success" role="status" data-testid="welcome">
            {t("register.success")}
          </p>
        )}
        <p data-testid="verify-intro">{sent ? t("verify.sent", { mobileNo }) : t("verify.intro", { mobileNo })}</p>
        <p className="muted">{t("verify.why")}</p>
        {sent ? (
          <>
            <Form method="post" className="stack" noValidate>
              <input type="hidden" name="intent" value="check" />
              <CodeField />
              <PageErrorMessage error={actionData?.error} />
              <button type="submit" className="button primary" disabled={busy} data-testid="code-submit">
                {busy ? t("verify.busy") : t("verify.button")}
              </button>
            </Form>
            {!isCodeLimit(actionData?.error) && <ResendCodeForm />}
          </>
        ) : (
          <>
            <PageErrorMessage error={actionData?.error} />
            {!isCodeLimit(actionData?.error) && <ResendCodeForm label="code.send" />}
          </>
        )}
        <Link
          to={search.get("welcome") === "1" ? "/motor-control?welcome=1" : "/motor-control"}
          data-testid="verify-later"
        >
          {t("verify.later")}
        </Link>
      </section>
    </main>
  );
}
