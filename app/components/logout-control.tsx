// Logout asks first: a tap next to the tab bar should not end the session by mistake. The
// header's button is a GET form to /logout, whose page asks without JavaScript (and before the
// page's script has loaded); once the script runs, the same question comes in a dialog. Either
// way the answer posts the logout form. From /logs it ends on /login with a full page load
// (SPEC §2).
import { type ReactNode, useState } from "react";
import { Form, useLocation } from "react-router";
import { useT } from "../i18n/i18n.ts";
import { Dialog } from "./dialog.tsx";

export function LogoutControl() {
  const t = useT();
  const { pathname } = useLocation();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Form method="get" action="/logout">
        <input type="hidden" name="from" value={pathname} />
        <button
          type="submit"
          className="button small"
          onClick={(event) => {
            event.preventDefault();
            setAsking(true);
          }}
        >
          {t("shell.logout")}
        </button>
      </Form>
      <Dialog open={asking} title={t("logout.title")} onClose={() => setAsking(false)} testId="logout-dialog">
        <p>{t("logout.question")}</p>
        <LogoutForm
          fromLogs={pathname === "/logs"}
          cancel={
            <button type="button" className="button" onClick={() => setAsking(false)}>
              {t("logout.cancel")}
            </button>
          }
        />
      </Dialog>
    </>
  );
}

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
