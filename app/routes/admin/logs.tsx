// Admin motor logs (SPEC §2): Log ID, Mobile No, Action, Date; 20 a page, paged on the server.
// Previous and Next are links (?page=N), so paging works without JavaScript too.
import { data } from "react-router";
import { motorLogsPageQuerySchema } from "../../../common/admin-schemas.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../../common/constants.ts";
import { formatDateTime } from "../../../common/i18n/format.ts";
import { motorLogEntryText } from "../../../common/i18n/motor-log.ts";
import { fleetMotorLogs } from "../../../worker/services/admin-activity.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { Pager } from "../../components/admin/pager.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage, useWords } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/logs";

export const meta: Route.MetaFunction = () => [{ title: "Motor Logs · Sinchai Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = motorLogsPageQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  // A mangled ?page= shows the first page rather than an error.
  const page = query.success ? query.data.page : 1;
  const loaded = await loadOrMessage(
    () => fleetMotorLogs(envOf(context), page, ADMIN_LOGS_PAGE_SIZE),
    "admin.logs.fetchFailed",
  );
  return data(loaded, { status: loaded.error ? 500 : 200 });
}

export default function AdminLogs({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const words = useWords();
  const result = loaderData.data;
  return (
    <main className="page admin-page wide">
      <h1>{t("admin.logs.title")}</h1>
      {!result ? (
        <LoadFailure message={loaderData.error ?? "admin.logs.fetchFailed"} />
      ) : (
        <>
          <AdminTable
            columns={["admin.logs.id", "admin.common.mobileNo", "admin.logs.action", "admin.common.date"]}
            rows={result.logs}
            empty="admin.logs.empty"
            testId="logs-table"
          >
            {(log) => (
              <tr key={log.id}>
                <td data-label={t("admin.logs.id")}>{log.id}</td>
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
          {/* SPEC §2: Previous and Next only when there are more rows than one page holds. */}
          {result.total > result.pageSize && (
            <Pager
              page={result.page}
              totalPages={result.totalPages}
              label={t("admin.logs.title")}
              linkTo={(page) => `?page=${page}`}
            />
          )}
        </>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.logs.error" />;
}
