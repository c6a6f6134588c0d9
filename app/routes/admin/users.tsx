// /admin/users (SPEC §2): every account with live device status, refreshed every 120 s; View
// and Delete (with the retype-to-confirm modal of SPEC §5). A search by mobile number or by the
// SNC- id on a box's sticker (`?q=`, a GET form, so it works without JavaScript) narrows the
// accounts and lists the boxes it finds, those in stock too.
import { useCallback, useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { fleetSearchQuerySchema } from "../../../common/admin-schemas.ts";
import type { AdminUserListItem } from "../../../common/admin-user-views.ts";
import { deviceStatusesResponseSchema, userListResponseSchema } from "../../../common/api-responses/admin.ts";
import { accessChangeResponseSchema } from "../../../common/api-responses/refusals.ts";
import { ADMIN_USERS_REFRESH_MS } from "../../../common/constants.ts";
import { formatDateTime } from "../../../common/i18n/format.ts";
import type { DeviceStatus } from "../../../common/realtime-protocol.ts";
import { fleetOf } from "../../../worker/services/admin-accounts.ts";
import { adminContext, loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { DeleteUserDialog } from "../../components/admin/delete-user-dialog.tsx";
import { OnlineBadge } from "../../components/admin/online-badge.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { useBusyRequest } from "../../components/admin/use-busy-request.ts";
import { useToast } from "../../components/toast.tsx";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = () => [{ title: "Users · Sinchai Admin" }];

type Statuses = Record<string, DeviceStatus>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const typed = new URL(request.url).searchParams.get("q")?.trim() ?? "";
  // A search too long to be a number or a box id finds nothing rather than everyone.
  const parsed = fleetSearchQuerySchema.safeParse({ q: typed });
  const search = parsed.success ? parsed.data.q : { digits: null, boxIdPart: null };
  const loaded = await loadOrMessage(() => fleetOf(envOf(context), search), "admin.users.fetchFailed");
  return { ...loaded, adminId: context.get(adminContext).id, q: typed };
}

export default function Users({ loaderData }: Route.ComponentProps) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const toast = useToast();
  const [users, setUsers] = useState<AdminUserListItem[]>(loaderData.data?.users ?? []);
  const [statuses, setStatuses] = useState<Statuses>(loaderData.data?.statuses ?? {});
  const [deleting, setDeleting] = useState<string | null>(null);
  const { busy, run } = useBusyRequest();
  const { q } = loaderData;
  const query = q ? `?${new URLSearchParams({ q })}` : "";
  const boxes = loaderData.data?.boxes ?? [];
  // A search (or Show all) is a navigation to this same page: its loader's list replaces the
  // one on screen, which would otherwise stay the list of the page's first load.
  const [shown, setShown] = useState(loaderData.data);
  if (shown !== loaderData.data) {
    setShown(loaderData.data);
    setUsers(loaderData.data?.users ?? []);
    setStatuses(loaderData.data?.statuses ?? {});
  }
  // A refresh that answers after the search changed lists another search's accounts: dropped.
  const currentQuery = useRef(query);
  useEffect(() => {
    currentQuery.current = query;
  }, [query]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `t` is a new function every render but depends only on the language
  const refresh = useCallback(async () => {
    try {
      const [list, live] = await Promise.all([
        api(`/api/admin/users${query}`, userListResponseSchema),
        api("/api/admin/device-statuses", deviceStatusesResponseSchema),
      ]);
      if (currentQuery.current !== query) return;
      if (!list.ok || !live.ok || !list.body || !live.body) {
        toast.show(t("admin.users.fetchFailed"), "error");
        return;
      }
      setUsers(list.body.users);
      setStatuses(live.body.statuses);
    } catch {
      toast.show(t("admin.users.error"), "error");
    }
    // `t` is a new function every render but only depends on the language.
  }, [api, toast, language, query]);

  useEffect(() => {
    const timer = setInterval(refresh, ADMIN_USERS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  async function confirmDelete() {
    if (!deleting) return;
    await run(
      () =>
        api("/api/admin/delete-user", accessChangeResponseSchema, { method: "DELETE", json: { mobileNo: deleting } }),
      { refused: "admin.users.deleteFailed", failed: "admin.users.deleteError" },
      async () => {
        toast.show(t("admin.users.deleted"), "success");
        setUsers((current) => current.filter((user) => user.mobileNo !== deleting));
        setDeleting(null);
        await refresh();
      },
    );
  }

  return (
    <main className="page admin-page wide">
      <div className="admin-title-row">
        <h1>{t("admin.users.title")}</h1>
        <button type="button" className="button small" onClick={refresh}>
          {t("admin.common.refresh")}
        </button>
      </div>
      <p className="muted">{t("admin.users.refreshNote")}</p>
      <Form method="get" role="search" className="inline-form fleet-search" data-testid="fleet-search">
        <label className="field">
          {t("admin.users.search")}
          <input
            name="q"
            type="search"
            defaultValue={q}
            maxLength={40}
            placeholder={t("admin.users.searchHint")}
            autoComplete="off"
          />
        </label>
        <button type="submit" className="button">
          {t("admin.users.searchButton")}
        </button>
        {q && (
          <Link to="/admin/users" className="button">
            {t("admin.audit.showAll")}
          </Link>
        )}
      </Form>
      {q && boxes.length > 0 && <FoundBoxes boxes={boxes} />}
      {loaderData.error && users.length === 0 ? (
        <LoadFailure message={loaderData.error} />
      ) : users.length === 0 ? (
        <p className="muted" data-testid="users-none">
          {q ? t("admin.users.notFound", { q }) : t("admin.users.empty")}
        </p>
      ) : (
        <AdminTable
          columns={[
            "admin.users.userId",
            "admin.common.mobileNo",
            "admin.users.status",
            "admin.users.role",
            "admin.users.createdAt",
            "admin.common.actions",
          ]}
          rows={users}
          testId="users-table"
        >
          {(user) => {
            const online = statuses[user.mobileNo] === "online";
            const self = user.id === loaderData.adminId;
            return (
              <tr key={user.id} data-testid={`user-row-${user.mobileNo}`}>
                <td data-label={t("admin.users.userId")}>{user.id}</td>
                <td data-label={t("admin.common.mobileNo")}>
                  {user.mobileNo}
                  {self && <span className="muted"> ({t("admin.users.you")})</span>}
                </td>
                <td data-label={t("admin.users.status")}>
                  <OnlineBadge online={online} testId="user-status" />
                </td>
                <td data-label={t("admin.users.role")}>
                  {user.isAdmin ? t("admin.common.admin") : t("admin.common.user")}
                </td>
                <td data-label={t("admin.users.createdAt")}>{formatDateTime(user.createdAt, language)}</td>
                <td data-label={t("admin.common.actions")} className="row-actions">
                  <Link to={`/admin/users/${user.id}`} className="button small">
                    {t("admin.users.view")}
                  </Link>
                  {/* The server refuses deleting oneself too; no point offering it. */}
                  {!self && (
                    <button type="button" className="button small danger" onClick={() => setDeleting(user.mobileNo)}>
                      {t("admin.users.delete")}
                    </button>
                  )}
                </td>
              </tr>
            );
          }}
        </AdminTable>
      )}
      <DeleteUserDialog mobileNo={deleting} busy={busy} onConfirm={confirmDelete} onCancel={() => setDeleting(null)} />
    </main>
  );
}

type FoundBox = NonNullable<Route.ComponentProps["loaderData"]["data"]>["boxes"][number];

/** The boxes a search found: by the id on the sticker, or the boxes of the numbers it found. */
function FoundBoxes({ boxes }: { boxes: FoundBox[] }) {
  const t = useAdminT();
  return (
    <section aria-label={t("admin.users.boxesFound")}>
      <h2>{t("admin.users.boxesFound")}</h2>
      <AdminTable
        columns={["admin.users.boxId", "admin.user.kind", "admin.users.owner", "admin.users.status"]}
        rows={boxes}
        testId="boxes-found"
      >
        {(box) => (
          <tr key={box.id} data-testid={`box-row-${box.id}`}>
            <td data-label={t("admin.users.boxId")} translate="no">
              {/* The box's motor log: its history is read from its own hub. */}
              <Link to={`/admin/logs?${new URLSearchParams({ deviceId: box.id })}`}>{box.id}</Link>
            </td>
            <td data-label={t("admin.user.kind")}>{t(`admin.user.kind.${box.kind}`)}</td>
            <td data-label={t("admin.users.owner")}>
              {box.ownerUserId === null ? (
                t("admin.users.notLinked")
              ) : (
                <Link to={`/admin/users/${box.ownerUserId}`}>{box.ownerMobileNo}</Link>
              )}
            </td>
            <td data-label={t("admin.users.status")}>
              {box.ownerUserId === null ? "—" : <OnlineBadge online={box.online} />}
            </td>
          </tr>
        )}
      </AdminTable>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.users.error" />;
}
