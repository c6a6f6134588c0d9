// /admin/users (SPEC §2): every account with live device status, refreshed every 120 s; View
// and Delete (with the retype-to-confirm modal of SPEC §5).
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { deviceStatusesResponseSchema, userListResponseSchema } from "../../../common/api-responses/admin.ts";
import { accessChangeResponseSchema } from "../../../common/api-responses/refusals.ts";
import { ADMIN_USERS_REFRESH_MS } from "../../../common/constants.ts";
import type { DeviceStatus } from "../../../common/realtime-protocol.ts";
import { type AdminUserListItem, deviceStatuses, listUsersForAdmin } from "../../../worker/db/admin-users.ts";
import { getDb } from "../../../worker/db/client.ts";
import { adminContext, loadOrMessage } from "../../admin-session.server.ts";
import { AdminError, LoadFailure } from "../../components/admin/admin-error.tsx";
import { AdminTable } from "../../components/admin/admin-table.tsx";
import { DeleteUserDialog } from "../../components/admin/delete-user-dialog.tsx";
import { useAdminApi } from "../../components/admin/use-admin-api.ts";
import { useBusyRequest } from "../../components/admin/use-busy-request.ts";
import { useToast } from "../../components/toast.tsx";
import { formatDateTime } from "../../format.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import type { Route } from "./+types/users";

export const meta: Route.MetaFunction = () => [{ title: "Users · Sinchai Admin" }];

type Statuses = Record<string, DeviceStatus>;

export async function loader({ context }: Route.LoaderArgs) {
  const db = getDb(envOf(context).DB);
  const loaded = await loadOrMessage(
    async () => ({ users: await listUsersForAdmin(db), statuses: await deviceStatuses(db) }),
    "admin.users.fetchFailed",
  );
  return { ...loaded, adminId: context.get(adminContext).id };
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: `t` is a new function every render but depends only on the language
  const refresh = useCallback(async () => {
    try {
      const [list, live] = await Promise.all([
        api("/api/admin/users", userListResponseSchema),
        api("/api/admin/device-statuses", deviceStatusesResponseSchema),
      ]);
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
  }, [api, toast, language]);

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
      {loaderData.error && users.length === 0 ? (
        <LoadFailure message={loaderData.error} />
      ) : users.length === 0 ? (
        <p className="muted">{t("admin.users.empty")}</p>
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
          testId="users-table"
        >
          {users.map((user) => {
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
                  <span className={`badge ${online ? "ok" : "bad"}`} data-testid="user-status">
                    {online ? t("admin.common.online") : t("admin.common.offline")}
                  </span>
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
          })}
        </AdminTable>
      )}
      <DeleteUserDialog mobileNo={deleting} busy={busy} onConfirm={confirmDelete} onCancel={() => setDeleting(null)} />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminError error={error} message="admin.users.error" />;
}
