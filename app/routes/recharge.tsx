// /recharge (My Plan): the device's connectivity plan as the server knows it (the free first
// year from activation, then paid periods), a request form for a renewal, and the farmer's
// own requests. The server prices every request; the page never sends an amount. The request
// is a plain form posted to this route's action (works without script), which answers with a
// redirect to ?submitted=<id>, so a reload never sends it twice.
import { useEffect, useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { formatDate, formatDateTime, formatRupees } from "../../common/i18n/format.ts";
import {
  DEFAULT_PAYMENT_METHOD,
  DEFAULT_PLAN,
  type PaymentMethod,
  PLANS,
  type Plan,
  paymentMethodSchema,
  planSchema,
} from "../../common/plans.ts";
import { ownRechargesOf, rechargeUpiLink, requestOwnRecharge } from "../../worker/services/recharge-requests.ts";
import { Choice } from "../components/choice.tsx";
import { useToast } from "../components/toast.tsx";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { pumpContext } from "../pump-choice.server.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/recharge";

export const meta: Route.MetaFunction = () => [{ title: "My Plan · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  // The plan is the owner's: a pump shared with this farmer shows whose it is, not its plan.
  const { chosen } = context.get(pumpContext);
  const device = chosen?.role === "owner" ? chosen.device : undefined;
  const { requests, views, plan } = await ownRechargesOf(env, user.id, device?.id ?? null);
  // The request just made (only ever one of this farmer's own): what to do next about paying.
  const submittedId = new URL(request.url).searchParams.get("submitted");
  const submitted = requests.find((row) => String(row.id) === submittedId);
  return {
    mobileNo: user.mobileNo,
    hasDevice: device !== undefined,
    deviceId: device?.id ?? "",
    ownerOnly: chosen !== null && chosen.role !== "owner",
    plan,
    requests: views,
    submitted: submitted ? { paymentMethod: submitted.paymentMethod, upiLink: rechargeUpiLink(env, submitted) } : null,
  };
}

type Refusal = { error: { key: MessageKey; detail: MessageKey | null } };

/** The same request as POST /api/recharge/request, always for the signed-in farmer. */
export async function action({ request, context }: Route.ActionArgs) {
  const refused = (key: MessageKey, detail: MessageKey | null, status: number) =>
    data<Refusal>({ error: { key, detail } }, { status });
  if (!isSameOriginRequest(request)) return refused("plan.submitFailed", null, 403);
  const form = await readForm(request);
  const plan = planSchema.safeParse(field(form, "plan"));
  const paymentMethod = paymentMethodSchema.safeParse(field(form, "paymentMethod"));
  if (!plan.success || !paymentMethod.success) return refused("plan.submitFailed", "plan.choose", 400);
  const submitted = await requestOwnRecharge(envOf(context), context.get(userContext), {
    plan: plan.data,
    paymentMethod: paymentMethod.data,
    deviceId: field(form, "pump"),
  });
  if (submitted.ok) return redirect(`/recharge?submitted=${submitted.request.id}`);
  // The API's refusal, worded by the page from its code.
  const reason =
    submitted.code === "noDevice"
      ? "motor.noDevice"
      : submitted.code === "pendingRecharge"
        ? "plan.alreadyPending"
        : null;
  return refused("plan.submitFailed", reason, submitted.status);
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

function planName(plan: string, t: ReturnType<typeof useT>): string {
  return plan in PLAN_KEYS ? t(PLAN_KEYS[plan as Plan | "free"]) : plan;
}

export default function Recharge({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const { mobileNo, hasDevice, plan, requests, submitted, deviceId, ownerOnly } = loaderData;
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
