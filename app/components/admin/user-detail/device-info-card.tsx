// The device block of the user detail page: the box's ids and what it said at its last hello,
// as stored in D1 (not live).
import type { AdminUserView } from "../../../../worker/db/admin-users.ts";
import { formatDateTime } from "../../../format.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { SignalBars } from "../signal-bars.tsx";

export function DeviceInfoCard({
  device,
  deviceInfo,
}: {
  device: NonNullable<AdminUserView["device"]>;
  deviceInfo: AdminUserView["deviceInfo"];
}) {
  const t = useAdminT();
  const language = useLanguage();
  const na = t("admin.common.na");
  return (
    <section className="card">
      <h2>{t("admin.user.deviceInfo")}</h2>
      <dl className="facts">
        <div>
          <dt>{t("admin.user.deviceId")}</dt>
          <dd data-testid="detail-device-id">{device.id}</dd>
        </div>
        <div>
          <dt>{t("admin.user.kind")}</dt>
          <dd>{t(device.kind === "1phase" ? "admin.user.kind.1phase" : "admin.user.kind.3phase")}</dd>
        </div>
        <div>
          <dt>{t("admin.user.signal")}</dt>
          <dd>
            <SignalBars dbm={deviceInfo.signal} />
          </dd>
        </div>
        <div>
          <dt>{t("admin.user.imei")}</dt>
          <dd translate="no">{deviceInfo.imei ?? na}</dd>
        </div>
        <div>
          <dt>{t("admin.user.sim")}</dt>
          <dd>{deviceInfo.sim ?? na}</dd>
        </div>
        <div>
          <dt>{t("admin.user.chipId")}</dt>
          <dd translate="no">{deviceInfo.chipId ?? na}</dd>
        </div>
        <div>
          <dt>{t("admin.user.firmware")}</dt>
          <dd>{deviceInfo.firmware ?? na}</dd>
        </div>
        <div>
          <dt>{t("admin.user.lastSeen")}</dt>
          <dd>{device.lastSeenAt ? formatDateTime(device.lastSeenAt, language) : na}</dd>
        </div>
      </dl>
    </section>
  );
}
