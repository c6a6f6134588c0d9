// Provisioning from the user detail page: assign a free device or make a new one for this
// account, rotate a device's key (shown once), unassign it. The APIs are worker/api/admin/devices.ts.
import { useEffect, useState } from "react";
import type { AdminUserView } from "../../../common/admin-user-views.ts";
import {
  deviceListResponseSchema,
  keyRotatedResponseSchema,
  provisionResponseSchema,
} from "../../../common/api-responses/admin.ts";
import { accessChangeResponseSchema } from "../../../common/api-responses/refusals.ts";
import { type DeviceKind, deviceKindSchema } from "../../../common/device-enums.ts";
import { useAdminT } from "../../i18n/admin.ts";
import type { Ask } from "../dialog.tsx";
import { Field } from "../field.tsx";
import { useToast } from "../toast.tsx";
import { Fact } from "./fact.tsx";
import { type ApiAnswer, useAdminApi } from "./use-admin-api.ts";
import { useBusyRequest } from "./use-busy-request.ts";

type FreeDevice = { id: string; kind: DeviceKind; ownerMobileNo: string | null };
type IssuedKey = { deviceId: string; key: string };

export function DeviceSection({
  user,
  online,
  ask,
  onChanged,
  open,
}: {
  user: Pick<AdminUserView, "mobileNo" | "device">;
  online: boolean;
  ask: Ask;
  onChanged: () => void;
  open: boolean;
}) {
  const t = useAdminT();
  const api = useAdminApi();
  const toast = useToast();
  const [free, setFree] = useState<FreeDevice[] | null>(null);
  const [chosen, setChosen] = useState("");
  const [kind, setKind] = useState<DeviceKind>("3phase");
  const [issued, setIssued] = useState<IssuedKey | null>(null);
  const { busy, run: send } = useBusyRequest();
  const device = user.device;

  // The list of unassigned devices, whenever the dialog opens on an account without one.
  useEffect(() => {
    if (!open || device) return;
    let cancelled = false;
    api("/api/admin/devices", deviceListResponseSchema)
      .then((answer) => {
        if (cancelled || !answer.ok || !answer.body) return;
        const unassigned = answer.body.devices.filter((candidate) => candidate.ownerMobileNo === null);
        setFree(unassigned);
        setChosen(unassigned[0]?.id ?? "");
      })
      .catch(() => !cancelled && setFree([]));
    return () => {
      cancelled = true;
    };
  }, [open, device, api]);

  // A key is shown only until the dialog closes: it is a secret.
  useEffect(() => {
    if (!open) setIssued(null);
  }, [open]);

  const run = (request: () => Promise<ApiAnswer<unknown>>, success: string) =>
    send(request, { refused: "admin.settings.deviceFailed", failed: "admin.settings.deviceFailed" }, () => {
      toast.show(success, "success");
      onChanged();
    });

  const provision = () =>
    run(async () => {
      const answer = await api("/api/admin/devices", provisionResponseSchema, {
        method: "POST",
        json: { kind, ownerMobileNo: user.mobileNo },
      });
      if (answer.ok && answer.body) setIssued({ deviceId: answer.body.device.id, key: answer.body.key });
      return answer;
    }, t("admin.settings.provisioned"));

  const assign = () =>
    run(
      () =>
        api(`/api/admin/devices/${chosen}/owner`, accessChangeResponseSchema, {
          method: "PUT",
          json: { mobileNo: user.mobileNo },
        }),
      t("admin.settings.assigned"),
    );

  return (
    <section className="settings-section" data-testid="device-section">
      <h3>{t("admin.settings.device")}</h3>
      {issued && (
        <div className="key-box" data-testid="issued-key">
          <p>{t("admin.settings.keyShownOnce", { deviceId: issued.deviceId })}</p>
          <code data-testid="issued-device-id">{issued.deviceId}</code>
          <code data-testid="issued-key-value">{issued.key}</code>
        </div>
      )}
      {device ? (
        <>
          <dl className="facts">
            <Fact label={t("admin.user.deviceId")}>{device.id}</Fact>
            <Fact label={t("admin.user.kind")}>
              {t(device.kind === "1phase" ? "admin.user.kind.1phase" : "admin.user.kind.3phase")}
            </Fact>
            <Fact label={t("admin.user.deviceStatus")}>
              {online ? t("admin.common.online") : t("admin.common.offline")}
            </Fact>
          </dl>
          <div className="button-row">
            <button
              type="button"
              className="button small"
              disabled={busy}
              onClick={() =>
                ask(t("admin.settings.rotateConfirm", { deviceId: device.id }), () =>
                  run(async () => {
                    const answer = await api(`/api/admin/devices/${device.id}/rotate-key`, keyRotatedResponseSchema, {
                      method: "POST",
                    });
                    if (answer.ok && answer.body) setIssued({ deviceId: device.id, key: answer.body.key });
                    return answer;
                  }, t("admin.settings.rotated")),
                )
              }
            >
              {t("admin.settings.rotateKey")}
            </button>
            <button
              type="button"
              className="button small danger"
              disabled={busy}
              onClick={() =>
                ask(t("admin.settings.unassignConfirm", { deviceId: device.id, mobileNo: user.mobileNo }), () =>
                  run(
                    () =>
                      api(`/api/admin/devices/${device.id}/owner`, accessChangeResponseSchema, {
                        method: "PUT",
                        json: { mobileNo: null },
                      }),
                    t("admin.settings.unassigned"),
                  ),
                )
              }
            >
              {t("admin.settings.unassign")}
            </button>
          </div>
        </>
      ) : (
        <>
          <h4>{t("admin.settings.assign")}</h4>
          {free === null ? (
            <p className="muted">{t("admin.common.loading")}</p>
          ) : free.length === 0 ? (
            <p className="muted">{t("admin.settings.noFreeDevices")}</p>
          ) : (
            <div className="inline-form">
              <Field label={t("admin.settings.chooseDevice")}>
                <select value={chosen} onChange={(event) => setChosen(event.target.value)}>
                  {free.map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>
                      {candidate.id} (
                      {t(candidate.kind === "1phase" ? "admin.user.kind.1phase" : "admin.user.kind.3phase")})
                    </option>
                  ))}
                </select>
              </Field>
              <button type="button" className="button small" disabled={busy || !chosen} onClick={assign}>
                {t("admin.settings.assignButton")}
              </button>
            </div>
          )}
          <h4>{t("admin.settings.provision")}</h4>
          <div className="inline-form">
            <Field label={t("admin.user.kind")}>
              <select value={kind} onChange={(event) => setKind(deviceKindSchema.parse(event.target.value))}>
                <option value="3phase">{t("admin.user.kind.3phase")}</option>
                <option value="1phase">{t("admin.user.kind.1phase")}</option>
              </select>
            </Field>
            <button type="button" className="button small primary" disabled={busy} onClick={provision}>
              {t("admin.settings.provisionButton")}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
