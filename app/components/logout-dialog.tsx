// The header's logout question once the page's script runs (./logout-control.tsx), in a file of
// its own: it is fetched when the farmer reaches for the button, not with every page.
import { useT } from "../i18n/i18n.ts";
import { Dialog } from "./dialog.tsx";
import { LogoutForm } from "./logout-form.tsx";

export default function LogoutDialog({ pathname, onClose }: { pathname: string; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog open title={t("logout.title")} onClose={onClose} testId="logout-dialog">
      <p>{t("logout.question")}</p>
      <LogoutForm
        fromLogs={pathname === "/logs"}
        cancel={
          <button type="button" className="button" onClick={onClose}>
            {t("logout.cancel")}
          </button>
        }
      />
    </Dialog>
  );
}
