// /admin/audit: the admin audit trail (docs/decisions/007-admin-audit-trail.md), newest
// first, 20 a page from the server. Filters are query parameters (?target=, ?adminId=) set by
// a GET form and by links, so the page works without JavaScript, like the motor logs.
import { data, Form, Link } from "react-router";
import { auditQuerySchema } from "../../../common/admin-schemas.ts";
import { ADMIN_AUDIT_PAGE_SIZE } from "../../../common/constants.ts";
import { formatDateTime } from "../../../common/i18n/format.ts";
import { auditAccountNumbers, auditTrailPage } from "../../../worker/services/admin-activity.ts";
import { languageOf } from "../../../worker/services/page-request.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { Pager } from "../../components/admin/pager.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/audit";
import {
  auditActionText,
  auditFieldsText,
  auditRefusalText,
  auditStatusText,
  auditTargetAccounts,
  auditTargetText,
} from "./audit-trail-text.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Audit Trail · Sinchai Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = auditQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  // A mangled query shows the whole trail from the first page rather than an error.
  const { page, adminId, target } = query.success ? query.data : { page: 1, adminId: undefined, target: undefined };
  const env = envOf(context);
  const loaded = await loadOrMessage(async () => {
    const trail = await auditTrailPage(env, { adminId, target }, page, ADMIN_AUDIT_PAGE_SIZE);
    // An account the trail names by id (`user:12`) is shown by its number, looked up once a page.
    const accounts = await auditAccountNumbers(env, auditTargetAccounts(trail.entries.map((entry) => entry.target)));
    return { trail, accounts };
  }, "admin.audit.fetchFailed");
  // Codes are worded here, on the server: the API's catalogue never travels to the browser.
  const language = languageOf(request);
  const accounts = loaded.data?.accounts ?? new Map<number, string>();
  const worded = loaded.data && {
    ...loaded.data.trail,
    entries: loaded.data.trail.entries.map((entry) => {
      const { error: _error, errorParams: _errorParams, ...fields } = entry.details;
      return {
        ...entry,
        actionText: auditActionText(entry.action, language),
        statusText: auditStatusText(entry.status, language),
        targetText: entry.target === null ? null : auditTargetText(entry.target, language, accounts),
        refusalText: auditRefusalText(entry.details, language),
        // Named for people; codes and lists in words, identifiers as sent.
        fields: auditFieldsText(fields, language),
      };
    }),
  };
  return data(
    { ...loaded, data: worded, filter: { adminId: adminId ?? null, target: target ?? null } },
    { status: loaded.error ? 500 : 200 },
  );
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const { filter } = loaderData;
  const result = loaderData.data;
  const filtered = filter.adminId !== null || filter.target !== null;
  const pageLink = (page: number) => {
    const params = new URLSearchParams();
    if (filter.target !== null) params.set("target", filter.target);
    if (filter.adminId !== null) params.set("adminId", String(filter.adminId));
    params.set("page", String(page));
    return `?${params}`;
  };
  return (
    <main className="page admin-page wide">
      <h1>{t("admin.audit.title")}</h1>
      <Form method="get" className="inline-form audit-filter">
        <label className="field">
          {t("admin.audit.target")}
          <input
            name="target"
            defaultValue={filter.target ?? ""}
            maxLength={80}
            placeholder={t("admin.audit.targetHint")}
          />
        </label>
        {filter.adminId !== null && <input type="hidden" name="adminId" value={filter.adminId} />}
        <button type="submit" className="button">
          {t("admin.audit.filter")}
        </button>
        {filtered && (
          <Link to="/admin/audit" className="button">
            {t("admin.audit.showAll")}
          </Link>
        )}
      </Form>
      {!result ? (
        <LoadFailure message={loaderData.error ?? "admin.audit.fetchFailed"} />
      ) : (
        <>
          <AdminTable
            columns={[
              "admin.common.date",
              "admin.common.admin",
              "admin.audit.action",
              "admin.audit.target",
              "admin.audit.status",
              "admin.audit.details",
              "admin.audit.client",
            ]}
            rows={result.entries}
            empty="admin.audit.empty"
            testId="audit-table"
            compact
          >
            {(entry) => (
              <tr key={entry.id} data-testid="audit-row">
                <td data-label={t("admin.common.date")}>{formatDateTime(entry.createdAt, language)}</td>
                <td data-label={t("admin.common.admin")}>
                  {entry.adminUserId === null ? (
                    t("admin.common.na")
                  ) : (
                    <Link to={`?adminId=${entry.adminUserId}`}>{entry.adminMobileNo ?? `#${entry.adminUserId}`}</Link>
                  )}
                </td>
                <td data-label={t("admin.audit.action")} title={entry.action}>
                  {entry.actionText}
                </td>
                <td data-label={t("admin.audit.target")}>
                  {/* A write on no one thing (boxes tagged by a list, one refused before its target was read) names none. */}
                  {entry.target === null ? (
                    "—"
                  ) : (
                    <Link to={`?target=${encodeURIComponent(entry.target)}`}>
                      {entry.targetText?.words}
                      {entry.targetText?.words && entry.targetText.id && " "}
                      {/* A box's id as printed on its sticker, a mobile number: never translated. */}
                      {entry.targetText?.id && <span translate="no">{entry.targetText.id}</span>}
                    </Link>
                  )}
                </td>
                <td data-label={t("admin.audit.status")}>
                  {/* The outcome in a word; the HTTP status for whoever needs it, as the action's route is. */}
                  <span className={`badge ${entry.status < 400 ? "ok" : "bad"}`} title={String(entry.status)}>
                    {entry.statusText}
                  </span>
                </td>
                <td data-label={t("admin.audit.details")} className="audit-details">
                  {entry.refusalText && <p className="audit-refusal">{entry.refusalText}</p>}
                  {entry.fields.length > 0 && (
                    <dl className="audit-fields">
                      {entry.fields.map((field) => (
                        <div key={field.name}>
                          <dt title={field.name}>{field.label}</dt>
                          {/* Data as sent, like a device id, is not to translate; a word is. */}
                          <dd translate={field.words ? undefined : "no"}>{field.value}</dd>
                        </div>
                      ))}
                    </dl>
                  )}
                  {!entry.refusalText && entry.fields.length === 0 && "—"}
                </td>
                <td data-label={t("admin.audit.client")} title={entry.userAgent ?? undefined}>
                  {entry.clientIp ?? t("admin.common.na")}
                </td>
              </tr>
            )}
          </AdminTable>
          {result.total > result.pageSize && (
            <Pager page={result.page} totalPages={result.totalPages} label={t("admin.audit.title")} linkTo={pageLink} />
          )}
        </>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.audit.error" />;
}
