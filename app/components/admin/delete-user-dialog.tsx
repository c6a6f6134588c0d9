// SPEC §5 "Admin delete user": Delete is enabled only when the retyped number equals the user's.
import { useEffect, useState } from "react";
import { useAdminT } from "../../i18n/admin.ts";
import { Dialog } from "../dialog.tsx";
import { Field } from "../field.tsx";

export function DeleteUserDialog({
  mobileNo,
  busy,
  onConfirm,
  onCancel,
}: {
  /** The account to delete; null when the dialog is closed. */
  mobileNo: string | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useAdminT();
  const [typed, setTyped] = useState("");
  // biome-ignore lint/correctness/useExhaustiveDependencies: another user's dialog starts with an empty confirmation
  useEffect(() => setTyped(""), [mobileNo]);
  return (
    <Dialog
      open={mobileNo !== null}
      title={t("admin.users.deleteTitle")}
      onClose={onCancel}
      testId="delete-user-dialog"
    >
      <p>{t("admin.users.deleteWarning", { mobileNo: mobileNo ?? "" })}</p>
      <Field label={t("admin.users.deleteTypeNumber")}>
        <input
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          inputMode="numeric"
          autoComplete="off"
          placeholder={mobileNo ?? ""}
        />
      </Field>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {t("admin.common.cancel")}
        </button>
        <button type="button" className="button danger" onClick={onConfirm} disabled={busy || typed !== mobileNo}>
          {t("admin.users.delete")}
        </button>
      </div>
    </Dialog>
  );
}
