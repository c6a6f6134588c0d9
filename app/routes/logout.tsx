// Logout (SPEC §2): asked first, then ended on the server as well as in the browser. GET shows
// the question (the header's logout without JavaScript, app/components/logout-control.tsx);
// the answer posts here.
import { Link, redirect } from "react-router";
import { endPageSession } from "../../worker/services/page-session.ts";
import { AuthPage } from "../components/auth-page.tsx";
import { LogoutForm } from "../components/logout-form.tsx";
import { readForm } from "../form.server.ts";
import { useT } from "../i18n/i18n.ts";
import { safeRedirectPath } from "../redirect-target.server.ts";
import { envOf, optionalUser } from "../session.server.ts";
import type { Route } from "./+types/logout";

export const meta: Route.MetaFunction = () => [{ title: "Log out? · Sinchai" }];

export async function action({ request, context }: Route.ActionArgs) {
  const { clearCookie } = await endPageSession(envOf(context), request, "user");
  // Logout on /logs goes to /login (SPEC §2); everywhere else home, saying it worked.
  const next = (await readForm(request)).get("next") === "/login" ? "/login" : "/?loggedOut=1";
  return redirect(next, {
    headers: { "Set-Cookie": clearCookie },
  });
}

/** The question, for someone signed in; anyone else has nothing to log out of. */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!(await optionalUser(request, context))) throw redirect("/");
  // "No" goes back to the page they came from, a path of this site only.
  return { from: safeRedirectPath(new URL(request.url).searchParams.get("from"), "/motor-control") };
}

export default function Logout({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { from } = loaderData;
  return (
    <AuthPage title={t("logout.title")}>
      <p>{t("logout.question")}</p>
      <LogoutForm
        fromLogs={from === "/logs"}
        cancel={
          <Link to={from} className="button">
            {t("logout.cancel")}
          </Link>
        }
      />
    </AuthPage>
  );
}
