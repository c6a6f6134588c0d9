// The account block of the user detail page: number (whether verified, and a code sent to it
// on request), presence, motor status, role (with its change; both asked first in the page's
// confirm dialog), its boxes, the first box's motor settings and dates.
import { useNavigate, useRevalidator } from "react-router";
import type { AdminUserView } from "../../../../common/admin-user-views.ts";
import { signInCodeResponseSchema, userRoleResponseSchema } from "../../../../common/api-responses/admin.ts";
import { formatDateTime, formatNumber } from "../../../../common/i18n/format.ts";
import type { PumpState } from "../../../../common/pump-state.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import type { Ask } from "../../dialog.tsx";
import { statusWord } from "../../pump-state-view.tsx";
import { useToast } from "../../toast.tsx";
import { Fact } from "../fact.tsx";
import { OnlineBadge } from "../online-badge.tsx";
import { useAdminApi } from "../use-admin-api.ts";

export function AccountCard({
  user,
  pump,
  adminCount,
  adminId,
  ask,
}: {
  user: Omit<AdminUserView, "deviceInfo" | "device">;
  pump: PumpState;
  adminCount: number;
  adminId: number;
  ask: Ask;
}) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const toast = useToast();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const online = pump.deviceStatus === "online";
  const isSelf = user.id === adminId;
  const lastAdmin = user.isAdmin && adminCount <= 1;
  const number = (value: number) => formatNumber(value, language, 2);

  async function changeRole() {
    try {
      const answer = await api("/api/admin/update-user-role", userRoleResponseSchema, {
        method: "PUT",
        json: { userId: user.id, isAdmin: !user.isAdmin },
      });
      if (answer.ok && answer.body?.signedOut) {
        navigate("/admin/login?session=expired");
        return;
      }
      if (answer.ok) {
        toast.show(t("admin.user.roleUpdated"), "success");
        revalidator.revalidate();
      } else {
        toast.show(t(answer.status === 409 ? "admin.user.lastAdmin" : "admin.user.roleFailed"), "error");
      }
    } catch {
      toast.show(t("admin.user.roleFailed"), "error");
    }
  }

  // The code goes to the farmer's phone, never to this page: the answer says only which kind went.
  async function sendCode() {
    try {
      const answer = await api(`/api/admin/users/${user.id}/sign-in-code`, signInCodeResponseSchema, {
        method: "POST",
      });
      if (answer.ok) {
        const sent = answer.body.purpose === "signIn" ? "admin.user.codeSent" : "admin.user.resetCodeSent";
        toast.show(t(sent, { mobileNo: user.mobileNo }), "success");
      } else {
        toast.show(t(answer.status === 429 ? "admin.user.codeThrottled" : "admin.user.codeFailed"), "error");
      }
    } catch {
      toast.show(t("admin.user.codeFailed"), "error");
    }
  }
  const codeQuestion = user.numberVerifiedAt
    ? t("admin.user.sendCodeQuestion", { mobileNo: user.mobileNo })
    : t("admin.user.sendResetQuestion", { mobileNo: user.mobileNo });

  const roleQuestionText = user.isAdmin
    ? isSelf
      ? t("admin.user.removeOwnAdminQuestion")
      : t("admin.user.removeAdminQuestion", { mobileNo: user.mobileNo })
    : t("admin.user.makeAdminQuestion", { mobileNo: user.mobileNo });

  return (
    <section className="card">
      <h2>{t("admin.user.account")}</h2>
      <dl className="facts">
        <Fact label={t("admin.common.mobileNo")} testId="detail-mobile">
          {user.mobileNo}
        </Fact>
        <Fact label={t("admin.user.number")} className="role-cell">
          <span data-testid="detail-number-verified" data-verified={user.numberVerifiedAt ? "yes" : "no"}>
            {user.numberVerifiedAt
              ? t("admin.user.verifiedOn", { date: formatDateTime(user.numberVerifiedAt, language) })
              : t("admin.user.notVerified")}
          </span>
          <button
            type="button"
            className="button small"
            data-testid="send-sign-in-code"
            onClick={() => ask(codeQuestion, sendCode)}
          >
            {t("admin.user.sendCode")}
          </button>
        </Fact>
        <Fact label={t("admin.user.deviceStatus")}>
          <OnlineBadge online={online} testId="detail-device-status" />
        </Fact>
        <Fact label={t("admin.user.motorStatus")}>
          <span
            className={`badge ${pump.status === "on" ? "ok" : pump.status === "unknown" ? "wait" : "neutral"}`}
            data-testid="detail-motor-status"
            data-status={pump.status}
          >
            {online ? statusWord(pump.status, t) : t("pump.lastKnown", { status: statusWord(pump.status, t) })}
          </span>
        </Fact>
        <Fact label={t("admin.user.role")} className="role-cell">
          <span data-testid="detail-role">{user.isAdmin ? t("admin.common.admin") : t("admin.common.user")}</span>
          <button
            type="button"
            className="button small"
            onClick={() => ask(roleQuestionText, changeRole)}
            disabled={lastAdmin}
            title={lastAdmin ? t("admin.user.lastAdmin") : undefined}
          >
            {user.isAdmin ? t("admin.user.removeAdmin") : t("admin.user.makeAdmin")}
          </button>
        </Fact>
        {user.boxes.length > 1 && (
          // This page follows the account's first box; the others are listed so an admin knows
          // they exist (docs/decisions/018-shared-pumps.md).
          <Fact label={t("admin.user.boxes", { count: user.boxes.length })} testId="detail-boxes" wide>
            <ul className="plain-list">
              {user.boxes.map((box, index) => (
                <li key={box.id} data-box={box.id}>
                  <span translate="no">{box.id}</span> · {index === 0 ? `${t("admin.user.firstBox")} · ` : ""}
                  <OnlineBadge online={box.online} />
                </li>
              ))}
            </ul>
          </Fact>
        )}
        <Fact label={t("admin.user.defaultCurrent")} testId="detail-default-current">
          {number(user.defaultCurrent)} A
        </Fact>
        <Fact label={t("admin.user.dryRunThreshold")} testId="detail-dry-run">
          {number(user.dryRunThreshold)} %
        </Fact>
        <Fact label={t("admin.user.overCurrentThreshold")}>{number(user.overCurrentThreshold)} %</Fact>
        <Fact label={t("admin.user.voltageLimits")} testId="detail-voltage-limits">
          {number(user.underVoltage)}–{number(user.overVoltage)} V ({number(user.voltageUnbalance)} %)
        </Fact>
        <Fact label={t("admin.user.createdAt")}>{formatDateTime(user.createdAt, language)}</Fact>
        <Fact label={t("admin.user.lastLogin")} testId="detail-last-login">
          {user.lastLogin ? formatDateTime(user.lastLogin, language) : t("admin.user.neverLoggedIn")}
        </Fact>
      </dl>
      {lastAdmin && <p className="muted small-text">{t("admin.user.lastAdmin")}</p>}
    </section>
  );
}
