// The notices at the top of the dashboard, server-rendered so they show without JavaScript: what
// the address says the farmer just did, and a number still to verify.
import { Form, useSearchParams } from "react-router";
import { useT } from "../../i18n/i18n.ts";

/** `?welcome=1`: registered (and signed in); `?verified=1`: the number verified with a code; `?passwordReset=1`: a new password set with one. */
const ARRIVALS = [
  ["welcome", "register.success"],
  ["verified", "verify.done"],
  ["passwordReset", "forgot.done"],
] as const;

export function ArrivalNotices({ numberVerified }: { numberVerified: boolean }) {
  const [search] = useSearchParams();
  const t = useT();
  return (
    <>
      {ARRIVALS.map(
        ([param, key]) =>
          search.get(param) === "1" && (
            <p key={param} className="message success" role="status" data-testid={param}>
              {t(key)}
            </p>
          ),
      )}
      {!numberVerified && (
        // One line: what is missing and the one tap that sends the code (docs/decisions/027).
        <Form method="post" action="/verify-number" className="verify-notice" data-testid="verify-notice">
          <input type="hidden" name="intent" value="send" />
          <span>{t("verify.notice")}</span>
          <button type="submit" className="link-button">
            {t("code.send")}
          </button>
        </Form>
      )}
    </>
  );
}
