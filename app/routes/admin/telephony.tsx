// /admin/telephony: each account's alerts by SMS and call in an IST month and their estimated
// cost (worker/services/telephony-usage.ts, the same as GET /api/admin/telephony-usage). The
// month is a plain GET form (?month=2026-11), so it works without JavaScript too.
import { data, Form, Link } from "react-router";
import { telephonyUsageQuerySchema } from "../../../common/admin-schemas.ts";
import { formatNumber, localeOf } from "../../../common/i18n/format.ts";
import type { Language } from "../../../common/i18n/language.ts";
import { istMonth, telephonyUsage } from "../../../worker/services/telephony-usage.ts";
import { loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/telephony";

export const meta: Route.MetaFunction = () => [{ title: "SMS and calls · Sinchai Admin" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Only ?month= is ours (a script's navigation adds parameters of React Router's own).
  const month = new URL(request.url).searchParams.get("month");
  const query = telephonyUsageQuerySchema.safeParse(month === null ? {} : { month });
  // A mangled ?month= shows this month rather than an error.
  const chosen = (query.success && query.data.month) || istMonth(Date.now());
  const env = envOf(context);
  const loaded = await loadOrMessage(() => telephonyUsage(env, chosen), "admin.telephony.loadFailed");
  return data(loaded, { status: loaded.error ? 500 : 200 });
}

function rupees(paise: number | null, language: Language): string {
  if (paise === null) return "—";
  return new Intl.NumberFormat(localeOf(language), { style: "currency", currency: "INR" }).format(paise / 100);
}

export default function AdminTelephony({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const usage = loaderData.data;
  const n = (value: number) => formatNumber(value, language);
  const counts = (row: NonNullable<typeof usage>["totals"]) => ({
    sms: t("admin.telephony.smsCount", { sms: n(row.sms), parts: n(row.smsParts) }),
    calls: t("admin.telephony.callCount", {
      calls: n(row.calls),
      answered: n(row.answeredCalls),
      minutes: n(row.callMinutes),
    }),
  });
  return (
    <main className="page admin-page wide">
      <h1>{t("admin.telephony.title")}</h1>
      <p className="muted">{t("admin.telephony.intro")}</p>
      {!usage ? (
        <LoadFailure message={loaderData.error ?? "admin.telephony.loadFailed"} />
      ) : (
        <>
          <Form method="get" className="inline-form audit-filter">
            <label className="field">
              {t("admin.telephony.month")}
              <input type="month" name="month" defaultValue={usage.month} data-testid="telephony-month" />
            </label>
            <button type="submit" className="button">
              {t("admin.telephony.show")}
            </button>
          </Form>
          <p className="muted" data-testid="telephony-prices">
            {usage.prices.smsPartPaise === null || usage.prices.callMinutePaise === null
              ? t("admin.telephony.noPrices")
              : t("admin.telephony.prices", {
                  sms: n(usage.prices.smsPartPaise),
                  minute: n(usage.prices.callMinutePaise),
                  asOf: usage.prices.asOf ?? "—",
                })}
          </p>
          <AdminTable
            columns={[
              "admin.telephony.account",
              "admin.telephony.sms",
              "admin.telephony.calls",
              "admin.telephony.capped",
              "admin.telephony.cost",
            ]}
            rows={usage.accounts}
            empty="admin.telephony.empty"
            testId="telephony-table"
            footer={
              <tr data-testid="telephony-total">
                <th scope="row" data-label={t("admin.telephony.account")}>
                  {t("admin.telephony.total")}
                </th>
                <td data-label={t("admin.telephony.sms")}>{counts(usage.totals).sms}</td>
                <td data-label={t("admin.telephony.calls")}>{counts(usage.totals).calls}</td>
                <td data-label={t("admin.telephony.capped")}>{n(usage.totals.capped)}</td>
                <td data-label={t("admin.telephony.cost")}>{rupees(usage.totals.estimatedPaise, language)}</td>
              </tr>
            }
          >
            {(row) => (
              <tr key={row.userId} data-testid={`telephony-row-${row.mobileNo}`}>
                <td data-label={t("admin.telephony.account")}>
                  <Link to={`/admin/users/${row.userId}`}>{row.mobileNo}</Link>
                </td>
                <td data-label={t("admin.telephony.sms")}>{counts(row).sms}</td>
                <td data-label={t("admin.telephony.calls")}>{counts(row).calls}</td>
                <td data-label={t("admin.telephony.capped")}>{n(row.capped)}</td>
                <td data-label={t("admin.telephony.cost")}>{rupees(row.estimatedPaise, language)}</td>
              </tr>
            )}
          </AdminTable>
        </>
      )}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.telephony.error" />;
}
