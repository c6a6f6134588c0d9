// Switches the interface language: a plain form post, so it works without JavaScript too.
import { redirect } from "react-router";
import { pageCookie } from "../../worker/services/page-session.ts";
import { readForm } from "../form.server.ts";
import { isLanguage, LANGUAGE_COOKIE } from "../i18n/i18n.ts";
import { safeRedirectPath } from "../redirect-target.server.ts";
import type { Route } from "./+types/language";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const language = form.get("language");
  const target = safeRedirectPath(form.get("returnTo"));
  if (!isLanguage(language)) return redirect(target);
  return redirect(target, {
    headers: {
      "Set-Cookie": pageCookie(request, LANGUAGE_COOKIE, language, {
        sameSite: "Lax",
        maxAgeSeconds: ONE_YEAR_SECONDS,
      }),
    },
  });
}

export function loader() {
  return redirect("/");
}
