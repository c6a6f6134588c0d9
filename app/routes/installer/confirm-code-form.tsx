// The claim's second step: the code the farmer got by SMS, which links the box.
import { Form, Link } from "react-router";
import { formatMobileNo } from "../../../common/i18n/format.ts";
import { CodeField } from "../../components/code-forms.tsx";
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
      {/* The farmer's code, on the installer's phone: it must not offer a code of its own. */}
      <CodeField autoComplete="off" />
      <button type="submit" className="button primary" disabled={busy} data-testid="confirm-submit">
        {t("installer.confirm")}
      </button>
      <Link to="/installer">{t("installer.otherBox")}</Link>
    </Form>
  );
}
