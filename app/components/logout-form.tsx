// The answer to "log out?": the /logout page shows it without JavaScript, the header's dialog
// (./logout-dialog.tsx) once the script runs.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { useT } from "../i18n/i18n.ts";

/** The answer: "No" (a button in the dialog, a link back on the page) and "Yes, log out", which posts. */
export function LogoutForm({ fromLogs, cancel }: { fromLogs: boolean; cancel: ReactNode }) {
  const t = useT();
  return (
    <Form method="post" action="/logout" reloadDocument={fromLogs} className="dialog-actions">
      {fromLogs && <input type="hidden" name="next" value="/login" />}
      {cancel}
      <button type="submit" className="button primary">
        {t("logout.confirm")}
      </button>
    </Form>
  );
}
