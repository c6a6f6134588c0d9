// Logout asks first: a tap next to the tab bar should not end the session by mistake. The
// header's button is a GET form to /logout, whose page asks without JavaScript (and before the
// page's script has loaded); once the script runs, the same question comes in a dialog. Either
// way the answer posts the logout form. From /logs it ends on /login with a full page load
// (SPEC §2). The dialog's code is fetched when a finger or the pointer reaches the button, so
// the pages a phone loads do not carry it (docs/benchmarks.md, "The farmer's phone").
import { lazy, Suspense, useState } from "react";
import { Form, useLocation } from "react-router";
import { useT } from "../i18n/i18n.ts";

const loadDialog = () => import("./logout-dialog.tsx");
const LogoutDialog = lazy(loadDialog);

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
          onPointerDown={() => void loadDialog()}
          onFocus={() => void loadDialog()}
          onClick={(event) => {
            event.preventDefault();
            setAsking(true);
          }}
        >
          {t("shell.logout")}
        </button>
      </Form>
      {asking && (
        <Suspense fallback={null}>
          <LogoutDialog pathname={pathname} onClose={() => setAsking(false)} />
        </Suspense>
      )}
    </>
  );
}
