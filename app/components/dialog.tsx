// Modal dialogs on the native <dialog> element: focus trap, Escape and backdrop for free.
import { type ReactNode, useEffect, useRef } from "react";

/** A question the dialog asks before doing something that cannot be undone. */
export type Ask = (message: string, action: () => Promise<void>) => void;

export function Dialog({
  open,
  title,
  onClose,
  children,
  testId,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      onClose={onClose}
      aria-labelledby={`${testId ?? "dialog"}-title`}
      data-testid={testId}
    >
      <h2 id={`${testId ?? "dialog"}-title`}>{title}</h2>
      {children}
    </dialog>
  );
}

/** A yes/no question (SPEC: confirm dialogs with Cancel and Confirm). */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy = false,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  return (
    <Dialog open={open} title={title} onClose={onCancel} testId="confirm-dialog">
      <p>{message}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className="button primary" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
