// The device block of the user detail page: the box's ids and what it said at its last hello,
// as stored in D1 (not live).

import type { AdminUserView } from "../../../../common/admin-user-views.ts";
import { formatDateTime } from "../../../../common/i18n/format.ts";
import { useAdminT } from "../../../i18n/admin.ts";
import { useLanguage } from "../../../i18n/i18n.ts";
import { Fact } from "../fact.tsx";
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
        <Fact label={t("admin.user.deviceId")} testId="detail-device-id">
          {device.id}
        </Fact>
        <Fact label={t("admin.user.kind")}>
          {t(device.kind === "1phase" ? "admin.user.kind.1phase" : "admin.user.kind.3phase")}
        </Fact>
        <Fact label={t("admin.user.signal")}>
          <SignalBars dbm={deviceInfo.signal} />
        </Fact>
        <Fact label={t("admin.user.imei")} translate="no">
          {deviceInfo.imei ?? na}
        </Fact>
        <Fact label={t("admin.user.sim")}>{deviceInfo.sim ?? na}</Fact>
        <Fact label={t("admin.user.chipId")} translate="no">
          {deviceInfo.chipId ?? na}
        </Fact>
        <Fact label={t("admin.user.firmware")}>{deviceInfo.firmware ?? na}</Fact>
        <Fact label={t("admin.user.lastSeen")}>
          {device.lastSeenAt ? formatDateTime(device.lastSeenAt, language) : na}
        </Fact>
      </dl>
    </section>
  );
}
