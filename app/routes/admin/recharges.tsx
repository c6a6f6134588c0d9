// /admin/recharges, "Device Connectivity Requests" (SPEC §2, §4): mark pending requests paid
// (which extends the device's plan) or failed, delete any; each after a confirmation, and the
// list reloads afterwards. Marking by hand is for cash at a dealer and bank transfers; below the
// requests, the payments taken online by UPI (./recharge-payments.tsx), which need no marking.
import { useState } from "react";
import { rechargeListResponseSchema } from "../../../common/api-responses/recharges.ts";
import { messageResponseSchema } from "../../../common/api-responses/refusals.ts";
import { formatDateTime, formatRupees } from "../../../common/i18n/format.ts";
import type { RechargeStatus } from "../../../common/plans.ts";
import { paymentLedger } from "../../../worker/services/payments.ts";
import { type RechargeView, rechargeQueue } from "../../../worker/services/recharge-requests.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { AdminConfirmDialog } from "../../components/admin/dialogs.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { useBusyRequest } from "../../components/admin/use-busy-request.ts";
import { useToast } from "../../components/toast.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/recharges";
import { RechargePayments } from "./recharge-payments.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Recharges · Sinchai Admin" }];

type Action =
  | { kind: "mark"; status: "paid" | "failed"; request: RechargeView }
  | { kind: "delete"; request: RechargeView };

export async function loader({ context }: Route.LoaderArgs) {
  const env = envOf(context);
  const [requests, ledger] = await Promise.all([
    loadOrMessage(() => rechargeQueue(env), "admin.recharges.loadFailed"),
    loadOrMessage(() => paymentLedger(env), "admin.recharges.loadFailed"),
  ]);
  return { ...requests, ledger: ledger.data };
}

const STATUS_CLASS: Record<RechargeStatus, string> = { pending: "neutral", paid: "ok", failed: "bad" };

export default function Recharges({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const toast = useToast();
  const [requests, setRequests] = useState<RechargeView[] | null>(loaderData.data);
  const [action, setAction] = useState<Action | null>(null);
  const { busy, run } = useBusyRequest();

  async function reload() {
    try {
      const answer = await api("/api/admin/recharge-requests", rechargeListResponseSchema);
      if (answer.ok && answer.body) setRequests(answer.body.data);
      else toast.show(t("admin.recharges.loadFailed"), "error");
    } catch {
      toast.show(t("admin.recharges.loadError"), "error");
    }
  }

  async function confirm() {
    if (!action) return;
    const mark = action.kind === "mark";
    await run(
      () =>
        action.kind === "mark"
          ? api(`/api/recharge/status/${action.request.id}`, messageResponseSchema, {
              method: "PUT",
              json: { status: action.status },
            })
          : api(`/api/recharge/${action.request.id}`, messageResponseSchema, { method: "DELETE" }),
      {
        refused: mark ? "admin.recharges.statusFailed" : "admin.recharges.deleteFailed",
        failed: "admin.recharges.actionError",
      },
      () => toast.show(t(mark ? "admin.recharges.statusUpdated" : "admin.recharges.deleted"), "success"),
    );
    setAction(null);
    // SPEC §4: the list reloads after every action, whatever its outcome.
    await reload();
  }

  const question = !action
    ? null
    : action.kind === "delete"
      ? t("admin.recharges.confirmDelete")
      : t("admin.recharges.confirmMark", {
          status: t(action.status === "paid" ? "admin.status.paid" : "admin.status.failed"),
        });

  return (
    <main className="page admin-page wide">
      <h1>{t("admin.recharges.title")}</h1>
      <p className="muted" data-testid="recharges-cash-note">
        {t("admin.recharges.cashNote")}
      </p>
      {requests === null ? (
        <LoadFailure message={loaderData.error ?? "admin.recharges.loadFailed"} />
      ) : (
        <AdminTable
          columns={[
            "admin.common.mobileNo",
            "admin.recharges.plan",
            "admin.recharges.amount",
            "admin.recharges.paymentMethod",
            "admin.recharges.status",
            "admin.recharges.requestedAt",
            "admin.common.actions",
          ]}
          rows={requests}
          empty="admin.recharges.empty"
          testId="recharges-table"
        >
          {(request) => (
            <tr key={request.id} data-testid={`recharge-row-${request.id}`}>
              <td data-label={t("admin.common.mobileNo")}>{request.mobileNo}</td>
              <td data-label={t("admin.recharges.plan")}>{t(`admin.plan.${request.plan}`)}</td>
              <td data-label={t("admin.recharges.amount")}>{formatRupees(request.amount, language)}</td>
              <td data-label={t("admin.recharges.paymentMethod")}>{t(`admin.payment.${request.paymentMethod}`)}</td>
              <td data-label={t("admin.recharges.status")}>
                <span className={`badge ${STATUS_CLASS[request.status]}`} data-testid="recharge-status">
                  {t(`admin.status.${request.status}`)}
                </span>
              </td>
              <td data-label={t("admin.recharges.requestedAt")}>{formatDateTime(request.requestedAt, language)}</td>
              <td data-label={t("admin.common.actions")} className="row-actions">
                {/* SPEC §4: the mark buttons only while pending; delete in any status. */}
                {request.status === "pending" && (
                  <>
                    <button
                      type="button"
                      className="button small primary"
                      onClick={() => setAction({ kind: "mark", status: "paid", request })}
                    >
                      {t("admin.recharges.markPaid")}
                    </button>
                    <button
                      type="button"
                      className="button small"
                      onClick={() => setAction({ kind: "mark", status: "failed", request })}
                    >
                      {t("admin.recharges.markFailed")}
                    </button>
                  </>
                )}
                <button
                  type="button"
                  className="button small danger"
                  onClick={() => setAction({ kind: "delete", request })}
                >
                  {t("admin.recharges.delete")}
                </button>
              </td>
            </tr>
          )}
        </AdminTable>
      )}
      {loaderData.ledger && <RechargePayments ledger={loaderData.ledger} />}
      <AdminConfirmDialog message={question} onConfirm={confirm} onCancel={() => setAction(null)} busy={busy} />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.recharges.loadError" />;
}
