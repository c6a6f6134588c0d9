// /recharge (My Plan): the device's connectivity plan as the server knows it (the free first
// year from activation, then paid periods), a form for a renewal, and the farmer's own requests
// and online payments. The server prices everything; the page never sends an amount. The form
// is a plain form posted to this route's action (works without script). UPI, where online
// payment is on, answers with a redirect to the payment gateway's page, which sends the farmer
// back to ?payment=<id>: the page then shows the payment as the server knows it (paid only once
// the gateway's signed webhook said so, docs/payments.md) and, while it waits, checks again
// every 3 s by a meta refresh (no script needed). Anything else is a request, answered with a
// redirect to ?submitted=<id>, so a reload never sends it twice.
import { useEffect, useState } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { formatDate, formatDateTime, formatRupees } from "../../../common/i18n/format.ts";
import { DEFAULT_PAYMENT_METHOD, DEFAULT_PLAN, type PaymentMethod, PLANS, type Plan } from "../../../common/plans.ts";
import { Choice } from "../../components/choice.tsx";
import { useToast } from "../../components/toast.tsx";
import { isSameOriginRequest, readForm } from "../../form.server.ts";
import { useLanguage, useT } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";
import { refused, requestRecharge } from "./actions.server.ts";
import { loadPlanPage } from "./loader.server.ts";
import { METHOD_KEYS, PAYMENT_BADGES, PAYMENT_STATUS_KEYS, planName, STATUS_KEYS } from "./plan-words.ts";
import { ReturnedPayment } from "./returned-payment.tsx";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: "My Plan · Sinchai" },
  ...(loaderData?.returned?.checkAgain
    ? [{ httpEquiv: "refresh", content: `3;url=${loaderData.returned.checkAgain}` }]
    : []),
];

export async function loader(args: Route.LoaderArgs) {
  return loadPlanPage(args);
}

/** The same request as POST /api/recharge/request, always for the signed-in farmer. */
export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) return refused("plan.submitFailed", null, 403);
  return requestRecharge(envOf(context), context.get(userContext), await readForm(request), request);
}

export default function Recharge({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const { mobileNo, hasDevice, plan, requests, submitted, deviceId, ownerOnly, online, returned, payments } =
    loaderData;
  const waiting = requests.some((request) => request.status === "pending");
  // ?renew opens the form: a link, so it opens without script too.
  const formOpen = searchParams.has("renew") || actionData?.error !== undefined;
  const [choice, setChoice] = useState<Plan>(DEFAULT_PLAN);
  const [method, setMethod] = useState<PaymentMethod>(DEFAULT_PAYMENT_METHOD);
  const submitting = navigation.state === "submitting" && navigation.formAction === "/recharge";

  // With script the farmer also sees the progress and the answer as toasts (SPEC §8).
  // biome-ignore lint/correctness/useExhaustiveDependencies: one loading toast per submission; `t` and the toast are new every render
  useEffect(() => {
    if (!submitting) return;
    const loading = toast.show(t("plan.submitting"), "loading");
    return () => toast.dismiss(loading);
  }, [submitting]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per submitted request
  useEffect(() => {
    if (submitted && navigation.state === "idle") toast.show(t("plan.submitted"), "success");
  }, [submitted]);

  if (ownerOnly) {
    return (
      <main className="page narrow-wide">
        <h1>{t("plan.title")}</h1>
        <p className="card message info" data-testid="owner-only">
          {t("plan.ownerOnly")}
        </p>
      </main>
    );
  }
  return (
    <main className="page narrow-wide">
      <h1>{t("plan.title")}</h1>
      <section className="card plan-card" aria-labelledby="plan-card-title" data-testid="plan-card">
        <div className="card-title">
          <h2 id="plan-card-title">{t("plan.current")}</h2>
          {plan && (
            <span className={`badge ${plan.status === "active" ? "ok" : "bad"}`} data-testid="plan-status">
              {plan.status === "active" ? t("plan.active") : t("plan.expired")}
            </span>
          )}
        </div>
        {plan ? (
          <dl className="plan-details">
            <div>
              <dt>{t("plan.plan")}</dt>
              <dd data-testid="plan-name">{planName(plan.plan, t)}</dd>
            </div>
            <div>
              <dt>{t("plan.amount")}</dt>
              <dd>{plan.amount === 0 ? t("plan.freeAmount") : formatRupees(plan.amount, language)}</dd>
            </div>
            <div>
              <dt>{t("plan.activatedAt")}</dt>
              <dd data-testid="plan-activated">{formatDate(plan.activatedAt, language)}</dd>
            </div>
            <div>
              <dt>{plan.upcoming.length > 0 ? t("plan.currentEndsAt") : t("plan.expiresAt")}</dt>
              <dd data-testid={plan.upcoming.length > 0 ? "plan-current-ends" : "plan-expires"}>
                {formatDate(plan.upcoming.length > 0 ? plan.currentEndsAt : plan.expiresAt, language)}
              </dd>
            </div>
            {plan.upcoming.map((renewal) => (
              <div key={renewal.startsAt} data-testid="plan-upcoming">
                <dt>{t("plan.renewal")}</dt>
                <dd>
                  {t("plan.renewalPeriod", {
                    plan: planName(renewal.plan, t),
                    from: formatDate(renewal.startsAt, language),
                    to: formatDate(renewal.endsAt, language),
                  })}
                </dd>
              </div>
            ))}
            {plan.upcoming.length > 0 && (
              <div>
                <dt>{t("plan.expiresAt")}</dt>
                <dd data-testid="plan-expires">{formatDate(plan.expiresAt, language)}</dd>
              </div>
            )}
          </dl>
        ) : (
          <p className="muted" data-testid="plan-none">
            {hasDevice ? t("plan.notActivated") : t("motor.noDevice")}
          </p>
        )}
        {/* One request at a time per device: the next one once this is decided. */}
        {waiting ? (
          <p className="muted" data-testid="plan-pending-note">
            {t("plan.alreadyPending")}
          </p>
        ) : (
          !formOpen && (
            <Link to="/recharge?renew#plan-form" className="button primary" data-testid="plan-renew">
              {t("plan.renew")}
            </Link>
          )
        )}
      </section>

      {returned && <ReturnedPayment returned={returned} />}

      {submitted && (
        <section className="card" role="status" data-testid="plan-next-steps">
          <p>{t("plan.submitted")}</p>
          {submitted.upiLink ? (
            <a className="button primary" href={submitted.upiLink} data-testid="upi-link">
              {t("plan.payUpi")}
            </a>
          ) : (
            <p className="muted">{submitted.paymentMethod === "upi" ? t("plan.upiLater") : t("plan.contactSoon")}</p>
          )}
        </section>
      )}

      {formOpen && (
        <section className="card" aria-labelledby="plan-form-title" id="plan-form">
          <h2 id="plan-form-title">{t("plan.formTitle")}</h2>
          <Form method="post" action="/recharge" className="stack" noValidate>
            <input type="hidden" name="pump" value={deviceId} />
            <p className="muted">
              {t("plan.forNumber")} <strong>{mobileNo}</strong>
            </p>
            <fieldset className="choices">
              <legend>{t("plan.choose")}</legend>
              {(Object.keys(PLANS) as Plan[]).map((option) => (
                <Choice
                  key={option}
                  type="radio"
                  name="plan"
                  value={option}
                  checked={choice === option}
                  onChange={() => setChoice(option)}
                  label={planName(option, t)}
                >
                  <span className="choice-price">{formatRupees(PLANS[option].amount, language)}</span>
                  {option === DEFAULT_PLAN && <span className="badge ok">{t("plan.bestValue")}</span>}
                </Choice>
              ))}
            </fieldset>
            <fieldset className="choices">
              <legend>{t("plan.paymentMethod")}</legend>
              {(Object.keys(METHOD_KEYS) as PaymentMethod[]).map((option) => (
                <Choice
                  key={option}
                  type="radio"
                  name="paymentMethod"
                  value={option}
                  checked={method === option}
                  onChange={() => setMethod(option)}
                  label={t(METHOD_KEYS[option])}
                />
              ))}
              {online && (
                <p className="muted" data-testid="plan-upi-online">
                  {t("plan.upiOnline")}
                </p>
              )}
            </fieldset>
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={submitting}>
                {submitting ? t("plan.submittingButton") : t("plan.submit")}
              </button>
              <Link to="/recharge" className="button">
                {t("dialog.cancel")}
              </Link>
            </div>
            {actionData?.error && (
              <p className="message error" role="alert" data-testid="plan-error">
                {t(actionData.error.key)}
                {actionData.error.detail ? ` ${t(actionData.error.detail)}` : ""}
              </p>
            )}
          </Form>
        </section>
      )}

      {payments.length > 0 && (
        <section aria-labelledby="payments-title">
          <h2 id="payments-title">{t("plan.payments")}</h2>
          <ul className="request-list" data-testid="payment-list">
            {payments.map((payment) => (
              <li key={payment.id} className="card request-item" data-testid="payment-item">
                <div className="card-title">
                  <strong>{planName(payment.plan, t)}</strong>
                  <span className={`badge ${PAYMENT_BADGES[payment.status]}`}>
                    {t(PAYMENT_STATUS_KEYS[payment.status])}
                  </span>
                </div>
                <p className="schedule-line">
                  {formatRupees(payment.amountPaise / 100, language)} · {t("plan.method.upi")}
                </p>
                <p className="schedule-line muted">
                  {t("plan.requestedAt", { time: formatDateTime(payment.createdAt, language) })}
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="requests-title">
        <h2 id="requests-title">{t("plan.requests")}</h2>
        {requests.length === 0 ? (
          <p className="card muted">{t("plan.noRequests")}</p>
        ) : (
          <ul className="request-list" data-testid="request-list">
            {requests.map((request) => (
              <li key={request.id} className="card request-item" data-testid="request-item">
                <div className="card-title">
                  <strong>{planName(request.plan, t)}</strong>
                  <span
                    className={`badge ${request.status === "paid" ? "ok" : request.status === "failed" ? "bad" : "wait"}`}
                  >
                    {STATUS_KEYS[request.status] ? t(STATUS_KEYS[request.status]!) : request.status}
                  </span>
                </div>
                <p className="schedule-line">
                  {formatRupees(request.amount, language)} ·{" "}
                  {METHOD_KEYS[request.paymentMethod as PaymentMethod]
                    ? t(METHOD_KEYS[request.paymentMethod as PaymentMethod])
                    : request.paymentMethod}
                </p>
                <p className="schedule-line muted">
                  {t("plan.requestedAt", { time: formatDateTime(request.requestedAt, language) })}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
