// /admin/recharges' online payments (docs/payments.md, "What an admin sees"): every payment the
// gateway took or was asked for, paid, pending, failed, held or refunded, with the gateway's
// reference and why one needs a look; and what the daily reconciliation against the gateway's
// settlement report flagged. Read only: the gateway decides what was paid.
import { formatDateTime, formatRupees } from "../../../common/i18n/format.ts";
import type { AdminPaymentView, PaymentLedger } from "../../../worker/services/payments.ts";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { localeOf, useLanguage } from "../../i18n/i18n.ts";

type Payment = AdminPaymentView;
type Ledger = PaymentLedger;

const STATUS_CLASS: Record<Payment["status"], string> = {
  created: "neutral",
  paid: "ok",
  failed: "bad",
  held: "bad",
  refunded: "bad",
};

const FLAGS = ["amountMismatch", "secondCapture", "failedAfterCapture", "refunded"] as const;
const RECON_KINDS = ["unknownPayment", "amountMismatch", "notPaidHere", "unknownRefund"] as const;

export function RechargePayments({ ledger }: { ledger: Ledger }) {
  const t = useAdminT();
  const language = useLanguage();
  const rupees = (paise: number) => formatRupees(paise / 100, language);
  // The invoice's parts to the paisa: rounded to rupees they would not add up to the price.
  const exact = (paise: number) =>
    new Intl.NumberFormat(localeOf(language), { style: "currency", currency: "INR", minimumFractionDigits: 2 }).format(
      paise / 100,
    );

  function flagText(payment: Payment): string {
    const flag = FLAGS.find((candidate) => candidate === payment.flag);
    if (!flag) return payment.flag ?? "";
    const amount = rupees(flag === "refunded" ? payment.refundedPaise : (payment.capturedPaise ?? 0));
    return t(`admin.payments.flag.${flag}`, { amount });
  }

  return (
    <>
      <section aria-labelledby="payments-title" data-testid="payments-section">
        <h2 id="payments-title">{t("admin.payments.title")}</h2>
        <p className="muted">{t("admin.payments.hint")}</p>
        <AdminTable
          columns={[
            "admin.common.mobileNo",
            "admin.recharges.plan",
            "admin.recharges.amount",
            "admin.payments.gst",
            "admin.recharges.status",
            "admin.payments.reference",
            "admin.payments.createdAt",
            "admin.payments.paidAt",
            "admin.payments.flag",
          ]}
          rows={ledger.data}
          empty="admin.payments.empty"
          testId="payments-table"
          compact
        >
          {(payment) => (
            <tr key={payment.id} data-testid={`payment-row-${payment.id}`}>
              <td data-label={t("admin.common.mobileNo")}>{payment.mobileNo}</td>
              <td data-label={t("admin.recharges.plan")}>{t(`admin.plan.${payment.plan}`)}</td>
              <td data-label={t("admin.recharges.amount")}>{rupees(payment.amountPaise)}</td>
              <td data-label={t("admin.payments.gst")}>
                {exact(payment.gst.taxablePaise)} + {exact(payment.gst.cgstPaise)} + {exact(payment.gst.sgstPaise)}
              </td>
              <td data-label={t("admin.recharges.status")}>
                <span className={`badge ${STATUS_CLASS[payment.status]}`} data-testid="payment-status">
                  {t(`admin.payments.status.${payment.status}`)}
                </span>
              </td>
              <td data-label={t("admin.payments.reference")}>
                <code data-testid="payment-reference">{payment.gatewayPaymentId ?? payment.gatewayLinkId}</code>
              </td>
              <td data-label={t("admin.payments.createdAt")}>{formatDateTime(payment.createdAt, language)}</td>
              <td data-label={t("admin.payments.paidAt")}>
                {payment.paidAt ? formatDateTime(payment.paidAt, language) : ""}
              </td>
              <td data-label={t("admin.payments.flag")} data-testid="payment-flag">
                {flagText(payment)}
              </td>
            </tr>
          )}
        </AdminTable>
      </section>
      <section aria-labelledby="recon-title" data-testid="recon-section">
        <h2 id="recon-title">{t("admin.payments.recon")}</h2>
        <AdminTable
          columns={[
            "admin.payments.reconDay",
            "admin.payments.reconKind",
            "admin.payments.reference",
            "admin.payments.reconDetail",
          ]}
          rows={ledger.reconFlags}
          empty="admin.payments.reconEmpty"
          testId="recon-table"
          compact
        >
          {(flag) => {
            const kind = RECON_KINDS.find((candidate) => candidate === flag.kind);
            return (
              <tr key={`${flag.kind}-${flag.gatewayRef}`} data-testid="recon-row">
                <td data-label={t("admin.payments.reconDay")}>{flag.day}</td>
                <td data-label={t("admin.payments.reconKind")}>
                  {kind ? t(`admin.payments.recon.${kind}`) : flag.kind}
                </td>
                <td data-label={t("admin.payments.reference")}>
                  <code>{flag.gatewayRef}</code>
                </td>
                <td data-label={t("admin.payments.reconDetail")}>
                  <code>{flag.detail}</code>
                </td>
              </tr>
            );
          }}
        </AdminTable>
      </section>
    </>
  );
}
