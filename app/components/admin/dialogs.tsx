// The admin pages' dialogs on the shared ones, in the admin's words: a yes/no question, and a
// panel that only closes.
import type { ReactNode } from "react";
import { useAdminT } from "../../i18n/admin.ts";
import { ConfirmDialog, Dialog } from "../dialog.tsx";

export function AdminConfirmDialog({
  message,
  onConfirm,
  onCancel,
  busy,
}: {
  /** The question; null while the dialog is closed. */
  message: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  busy: boolean;
}) {
  const t = useAdminT();
  return (
    <ConfirmDialog
      open={message !== null}
      title={t("admin.common.confirmTitle")}
      message={message ?? ""}
      confirmLabel={t("admin.common.confirm")}
      cancelLabel={t("admin.common.cancel")}
      onConfirm={onConfirm}
      onCancel={onCancel}
      busy={busy}
    />
  );
}

/** A dialog whose one button closes it, below what it shows. */
export function ClosingDialog({
  open,
  title,
  onClose,
  testId,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  testId: string;
  children: ReactNode;
}) {
  const t = useAdminT();
  return (
    <Dialog open={open} title={title} onClose={onClose} testId={testId}>
      {children}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          {t("admin.common.close")}
        </button>
      </div>
    </Dialog>
  );
}
