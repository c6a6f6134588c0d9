// The claim's second step: the code the farmer got by SMS, which links the box.
import { Form, Link } from "react-router";
import { formatMobileNo } from "../../../common/i18n/format.ts";
import { Field } from "../../components/field.tsx";
import { useT } from "../../i18n/i18n.ts";

export function ConfirmCodeForm({
  deviceId,
  farmerMobileNo,
  busy,
}: {
  deviceId: string;
  farmerMobileNo: string;
  busy: boolean;
}) {
  const t = useT();
  return (
    <Form method="post" className="stack" noValidate data-testid="confirm-form">
      <input type="hidden" name="intent" value="confirm" />
      <input type="hidden" name="deviceId" value={deviceId} />
      <input type="hidden" name="farmerMobileNo" value={farmerMobileNo} />
      <p data-testid="code-sent">{t("installer.codeSent", { mobileNo: formatMobileNo(farmerMobileNo) })}</p>
      <Field label={t("code.label")}>
        <input
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={7}
          required
          data-testid="code-input"
        />
      </Field>
      <button type="submit" className="button primary" disabled={busy} data-testid="confirm-submit">
        {t("installer.confirm")}
      </button>
      <Link to="/installer">{t("installer.otherBox")}</Link>
    </Form>
  );
}
