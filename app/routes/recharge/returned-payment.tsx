// The payment the farmer came back from the gateway's page with, as the server knows it: paid
// (with the plan's new validity), still waiting for the gateway's confirmation (the page checks
// again by itself, see route.tsx's meta), not paid, held for a check, or refunded.
import { Link } from "react-router";
import { formatDate, formatRupees } from "../../../common/i18n/format.ts";
import { useLanguage, useT } from "../../i18n/i18n.ts";
import type { loadPlanPage } from "./loader.server.ts";
import { planName } from "./plan-words.ts";

type Returned = NonNullable<Awaited<ReturnType<typeof loadPlanPage>>["returned"]>;

export function ReturnedPayment({ returned }: { returned: Returned }) {
  const t = useT();
  const language = useLanguage();
  const { payment, expiresAt, checkAgain } = returned;
  const tone = payment.status === "paid" ? "success" : payment.status === "created" ? "info" : "error";
  return (
    <section
      className={`card message ${tone}`}
      role="status"
      data-testid="plan-payment"
      data-status={payment.status}
      aria-labelledby="plan-payment-title"
    >
      <h2 id="plan-payment-title">{t("plan.payment.title")}</h2>
      <p>
        {planName(payment.plan, t)} · {formatRupees(payment.amountPaise / 100, language)}
      </p>
      {payment.status === "paid" && expiresAt ? (
        <p data-testid="plan-payment-paid">{t("plan.payment.paid", { date: formatDate(expiresAt, language) })}</p>
      ) : payment.status === "created" ? (
        <p data-testid="plan-payment-waiting">{t("plan.payment.waiting")}</p>
      ) : payment.status === "failed" ? (
        <p>{t("plan.payment.failed")}</p>
      ) : payment.status === "held" ? (
        <p>{t("plan.payment.held")}</p>
      ) : (
        <p>{t("plan.payment.refunded")}</p>
      )}
      <div className="form-actions">
        {checkAgain && (
          <Link to={checkAgain} className="button" data-testid="plan-payment-check">
            {t("plan.payment.checkNow")}
          </Link>
        )}
        {payment.payUrl && (
          <a className="button primary" href={payment.payUrl} data-testid="plan-payment-open">
            {t("plan.payment.open")}
          </a>
        )}
      </div>
    </section>
  );
}
