// Admin motor logs (SPEC §2): Log ID, Box, Mobile No, Action, Date; of one farmer's boxes
// (?mobileNo=) or of one box (?deviceId=), never the whole fleet's: each box's history is in its
// own hub (docs/decisions/045-history-lives-with-its-box.md). 20 a page, newest first; "Older"
// carries the last id shown (?before=), "Newest" goes back to the first page. The filter is a GET
// form and the paging links, so the page works without JavaScript.
import { data, Form, Link } from "react-router";
import { adminMotorLogsQuerySchema } from "../../../common/admin-schemas.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../../common/constants.ts";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { formatDateTime } from "../../../common/i18n/format.ts";
import { motorLogEntryText } from "../../../common/i18n/motor-log.ts";
import { boxMotorLogs } from "../../../worker/services/admin-activity.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage, useWords } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = () => [{ title: "Motor Logs · Sinchai Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  // What was typed, to show again in the form.
  const typed = { mobileNo: params.get("mobileNo")?.trim() ?? "", deviceId: params.get("deviceId")?.trim() ?? "" };
  const answer = (notice: AdminMessageKey | null, status = 200) =>
    data({ typed, notice, filter: null, result: null, error: null, paged: false }, { status });
  if (typed.mobileNo === "" && typed.deviceId === "") return answer("admin.logs.choose");
  const query = adminMotorLogsQuerySchema.safeParse(Object.fromEntries(params));
  if (!query.success) return answer("admin.logs.badFilter", 400);
  const { filter, before } = query.data;
  const loaded = await loadOrMessage(
    () => boxMotorLogs(envOf(context), filter, before, ADMIN_LOGS_PAGE_SIZE),
    "admin.logs.fetchFailed",
  );
  if (loaded.data === undefined)
    return answer("mobileNo" in filter ? "admin.logs.farmerNotFound" : "admin.logs.boxNotFound", 404);
  return data(
    { typed, notice: null, filter, result: loaded.data, error: loaded.error, paged: before !== undefined },
    { status: loaded.error ? 500 : 200 },
  );
}

export default function AdminLogs({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const words = useWords();
  const { typed, notice, filter, result } = loaderData;
  // The filter as a query, for the paging links.
  const linkTo = (before?: number) => {
    const query = new URLSearchParams(filter ?? {});
    if (before !== undefined) query.set("before", String(before));
    return `?${query}`;
  };
  return (
    <main className="page admin-page wide">
      <h1>{t("admin.logs.title")}</h1>
      <Form method="get" role="search" className="inline-form logs-filter" data-testid="logs-filter">
        <label className="field">
          {t("admin.common.mobileNo")}
          <input
            name="mobileNo"
            type="tel"
            inputMode="numeric"
            defaultValue={typed.mobileNo}
            maxLength={10}
            autoComplete="off"
          />
        </label>
        <label className="field">
          {t("admin.users.boxId")}
          <input name="deviceId" defaultValue={typed.deviceId} maxLength={12} autoComplete="off" translate="no" />
        </label>
        <button type="submit" className="button">
          {t("admin.logs.show")}
        </button>
      </Form>
      {notice ? (
        <p className={notice === "admin.logs.choose" ? "muted" : "message error"} data-testid="logs-notice">
          {t(notice, typed)}
        </p>
      ) : !result ? (
        <LoadFailure message={loaderData.error ?? "admin.logs.fetchFailed"} />
      ) : (
        <>
          <AdminTable
            columns={[
              "admin.logs.id",
              "admin.logs.box",
              "admin.common.mobileNo",
              "admin.logs.action",
              "admin.common.date",
            ]}
            rows={result.logs}
            empty="admin.logs.empty"
            testId="logs-table"
          >
            {(log) => (
              <tr key={`${log.deviceId}:${log.id}`}>
                <td data-label={t("admin.logs.id")}>{log.id}</td>
                <td data-label={t("admin.logs.box")}>
                  {/* A box's id as printed on its sticker: never translated. */}
                  <Link to={`?deviceId=${log.deviceId}`} translate="no">
                    {log.deviceId}
                  </Link>
                  {log.boxName && <span className="muted"> · {log.boxName}</span>}
                </td>
                <td data-label={t("admin.common.mobileNo")}>{log.mobileNo ?? t("admin.common.na")}</td>
                <td data-label={t("admin.logs.action")}>
                  <span className={`action-tag ${log.action}`} data-kind={log.kind}>
                    {motorLogEntryText({ ...log, logMessage: log.message }, words)}
                  </span>
                </td>
                <td data-label={t("admin.common.date")}>{formatDateTime(log.createdAt, language)}</td>
              </tr>
            )}
          </AdminTable>
          {(loaderData.paged || result.nextBefore !== null) && (
            <nav className="pager" aria-label={t("admin.logs.title")} data-testid="pager">
              {loaderData.paged && (
                <Link to={linkTo()} className="button small">
                  {t("admin.logs.newest")}
                </Link>
              )}
              {result.nextBefore !== null && (
                <Link to={linkTo(result.nextBefore)} className="button small" rel="next">
                  {t("admin.logs.older")}
                </Link>
              )}
            </nav>
          )}
        </>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.logs.error" />;
}
