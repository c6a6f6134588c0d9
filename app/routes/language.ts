// Switches the interface language: a plain form post, so it works without JavaScript too.
import { redirect } from "react-router";
import { readForm } from "../form.server.ts";
import { isLanguage, LANGUAGE_COOKIE } from "../i18n/i18n.ts";
import { safeRedirectPath } from "../redirect-target.server.ts";
import type { Route } from "./+types/language";

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const language = form.get("language");
  const target = safeRedirectPath(form.get("returnTo"));
  if (!isLanguage(language)) return redirect(target);
  return redirect(target, {
    headers: {
      "Set-Cookie": `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax`,
    },
  });
}

export function loader() {
  return redirect("/");
}
