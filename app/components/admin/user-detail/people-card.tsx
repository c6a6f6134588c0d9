// Who else uses this account's first box, and which boxes others let this number use
// (docs/decisions/018-shared-pumps.md). An admin may remove a member (asked first in the page's
// confirm dialog); the hub then closes that person's live pages at once. Inviting is the
// owner's alone.
import { useRevalidator } from "react-router";
import type { AdminUserView } from "../../../../common/admin-user-views.ts";
import type { PumpMember } from "../../../../common/api-responses/pumps.ts";
import { accessChangeResponseSchema } from "../../../../common/api-responses/refusals.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import type { Ask } from "../../dialog.tsx";
import { useToast } from "../../toast.tsx";
import { OnlineBadge } from "../online-badge.tsx";
import { useAdminApi } from "../use-admin-api.ts";

export function PeopleCard({
  deviceId,
  members,
  shared,
  ask,
}: {
  deviceId: string | null;
  members: PumpMember[];
  shared: AdminUserView["shared"];
  ask: Ask;
}) {
  const t = useAdminT();
  const api = useAdminApi();
  const toast = useToast();
  const revalidator = useRevalidator();
  if (members.length === 0 && shared.length === 0) return null;

  async function remove(member: PumpMember) {
    try {
      const answer = await api(`/api/pumps/${deviceId}/members/${member.mobileNo}`, accessChangeResponseSchema, {
        method: "DELETE",
      });
      if (!answer.ok) {
        toast.show(t("admin.people.removeFailed"), "error");
        return;
      }
      // Removed in D1 either way; only a confirmed hub has closed their pages already.
      toast.show(t(answer.body.hubConfirmed ? "admin.people.removed" : "admin.people.removedPending"), "success");
      revalidator.revalidate();
    } catch {
      toast.show(t("admin.people.removeFailed"), "error");
    }
  }

  return (
    <section className="card" data-testid="people-card">
      <h2>{t("admin.people.title")}</h2>
      {members.length > 0 && (
        <>
          <h3>{t("admin.people.members")}</h3>
          <ul className="plain-list" data-testid="admin-members">
            {members.map((member) => (
              <li key={member.mobileNo} data-mobile={member.mobileNo}>
                <strong>{member.label}</strong> · {member.mobileNo} · {t(`admin.people.role.${member.role}`)}
                {member.acceptedAt === null && ` · ${t("admin.people.invited")}`}{" "}
                <button
                  type="button"
                  className="button small danger"
                  onClick={() =>
                    ask(t("admin.people.removeQuestion", { label: member.label, mobileNo: member.mobileNo }), () =>
                      remove(member),
                    )
                  }
                >
                  {t("admin.people.remove")}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {shared.length > 0 && (
        <>
          <h3>{t("admin.people.sharedWith")}</h3>
          <ul className="plain-list" data-testid="admin-shared">
            {shared.map((box) => (
              <li key={box.id} data-box={box.id}>
                <span translate="no">{box.id}</span> · {t(`admin.people.role.${box.role}`)} ·{" "}
                {t("admin.people.owner", { mobileNo: box.ownerMobileNo ?? "—" })} <OnlineBadge online={box.online} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
