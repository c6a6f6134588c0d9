// /recharge (My Plan): the device's connectivity plan as the server knows it (the free first
// year from activation, then paid periods), a request form for a renewal, and the farmer's
// own requests. The server prices every request; the page never sends an amount.
import { useState } from "react";
import { useRevalidator } from "react-router";
import { z } from "../../common/zod-mini.ts";
import {
  DEFAULT_PAYMENT_METHOD,
  DEFAULT_PLAN,
  PLANS,
  type PaymentMethod,
  type Plan,
} from "../../common/plans.ts";
import { getDb } from "../../worker/db/client.ts";
import { findDeviceByOwner } from "../../worker/db/devices.ts";
import { listPlanPeriods, planCard } from "../../worker/db/plans.ts";
import { listRechargeRequestsOfUser, toRechargeView } from "../../worker/db/recharges.ts";
import { callApi } from "../api-client.ts";
import { useToast } from "../components/toast.tsx";
import { formatDate, formatDateTime, formatRupees } from "../format.ts";
import { useLanguage, useT, type MessageKey } from "../i18n/i18n.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/recharge";

export const meta: Route.MetaFunction = () => [{ title: "My Plan · Sinchai" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const db = getDb(envOf(context).DB);
  const [device, requests] = await Promise.all([findDeviceByOwner(db, user.id), listRechargeRequestsOfUser(db, user.id)]);
  return {
    mobileNo: user.mobileNo,
    hasDevice: device !== undefined,
    plan: device ? planCard(await listPlanPeriods(db, device.id), Date.now()) : null,
    requests: requests.map(toRechargeView),
  };
}

const PLAN_KEYS: Record<Plan | "free", MessageKey> = {
  free: "plan.name.free",
  "1month": "plan.name.1month",
  "3month": "plan.name.3month",
  "6month": "plan.name.6month",
  "1year": "plan.name.1year",
};

const METHOD_KEYS: Record<PaymentMethod, MessageKey> = {
  upi: "plan.method.upi",
  bank: "plan.method.bank",
  cash: "plan.method.cash",
};

const STATUS_KEYS: Record<string, MessageKey> = {
  pending: "plan.request.pending",
  paid: "plan.request.paid",
  failed: "plan.request.failed",
};

const submittedSchema = z.object({ success: z.literal(true), upiLink: z.nullable(z.string()) });

function planName(plan: string, t: ReturnType<typeof useT>): string {
  return plan in PLAN_KEYS ? t(PLAN_KEYS[plan as Plan | "free"]) : plan;
}

export default function Recharge({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const revalidator = useRevalidator();
  const { mobileNo, hasDevice, plan, requests } = loaderData;
  const [formOpen, setFormOpen] = useState(false);
  const [choice, setChoice] = useState<Plan>(DEFAULT_PLAN);
  const [method, setMethod] = useState<PaymentMethod>(DEFAULT_PAYMENT_METHOD);
  const [submitting, setSubmitting] = useState(false);
  const [upiLink, setUpiLink] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<PaymentMethod | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!mobileNo) {
      toast.show(t("plan.mobileMissing"), "error");
      return;
    }
    setSubmitting(true);
    const loading = toast.show(t("plan.submitting"), "loading");
    // The request is always for the signed-in account; the server sets the amount.
    const result = await callApi("/api/recharge/request", submittedSchema, {
      method: "POST",
      body: { plan: choice, paymentMethod: method },
    });
    toast.dismiss(loading);
    setSubmitting(false);
    if (result.ok) {
      toast.show(t("plan.submitted"), "success");
      setUpiLink(result.data.upiLink);
      setSubmitted(method);
      setFormOpen(false);
      void revalidator.revalidate();
    } else if (result.status === 0) {
      toast.show(t("plan.submitError"), "error");
    } else if (result.status !== 401) {
      const reason = result.status === 404 ? t("motor.noDevice") : (result.message ?? "");
      toast.show(`${t("plan.submitFailed")} ${reason}`.trim(), "error");
    }
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
              <dt>{t("plan.expiresAt")}</dt>
              <dd data-testid="plan-expires">{formatDate(plan.expiresAt, language)}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted" data-testid="plan-none">
            {hasDevice ? t("plan.notActivated") : t("motor.noDevice")}
          </p>
        )}
        {!formOpen && (
          <button type="button" className="button primary" onClick={() => setFormOpen(true)} data-testid="plan-renew">
            {t("plan.renew")}
          </button>
        )}
      </section>

      {submitted && (
        <section className="card" role="status" data-testid="plan-next-steps">
          <p>{t("plan.submitted")}</p>
          {upiLink ? (
            <a className="button primary" href={upiLink} data-testid="upi-link">
              {t("plan.payUpi")}
            </a>
          ) : (
            <p className="muted">{submitted === "upi" ? t("plan.upiLater") : t("plan.contactSoon")}</p>
          )}
        </section>
      )}

      {formOpen && (
        <section className="card" aria-labelledby="plan-form-title">
          <h2 id="plan-form-title">{t("plan.formTitle")}</h2>
          <form className="stack" onSubmit={submit}>
            <p className="muted">
              {t("plan.forNumber")} <strong>{mobileNo}</strong>
            </p>
            <fieldset className="choices">
              <legend>{t("plan.choose")}</legend>
              {(Object.keys(PLANS) as Plan[]).map((option) => (
                <label key={option} className={`choice ${choice === option ? "selected" : ""}`}>
                  <input type="radio" name="plan" value={option} checked={choice === option} onChange={() => setChoice(option)} />
                  <span className="choice-label">{planName(option, t)}</span>
                  <span className="choice-price">{formatRupees(PLANS[option].amount, language)}</span>
                  {option === DEFAULT_PLAN && <span className="badge ok">{t("plan.bestValue")}</span>}
                </label>
              ))}
            </fieldset>
            <fieldset className="choices">
              <legend>{t("plan.paymentMethod")}</legend>
              {(Object.keys(METHOD_KEYS) as PaymentMethod[]).map((option) => (
                <label key={option} className={`choice ${method === option ? "selected" : ""}`}>
                  <input type="radio" name="paymentMethod" value={option} checked={method === option} onChange={() => setMethod(option)} />
                  <span className="choice-label">{t(METHOD_KEYS[option])}</span>
                </label>
              ))}
            </fieldset>
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={submitting}>
                {submitting ? t("plan.submittingButton") : t("plan.submit")}
              </button>
              <button type="button" className="button" onClick={() => setFormOpen(false)} disabled={submitting}>
                {t("dialog.cancel")}
              </button>
            </div>
          </form>
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
                  <span className={`badge ${request.status === "paid" ? "ok" : request.status === "failed" ? "bad" : "wait"}`}>
                    {STATUS_KEYS[request.status] ? t(STATUS_KEYS[request.status]!) : request.status}
                  </span>
                </div>
                <p className="schedule-line">
                  {formatRupees(request.amount, language)} · {METHOD_KEYS[request.paymentMethod as PaymentMethod] ? t(METHOD_KEYS[request.paymentMethod as PaymentMethod]) : request.paymentMethod}
                </p>
                <p className="schedule-line muted">{t("plan.requestedAt", { time: formatDateTime(request.requestedAt, language) })}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
