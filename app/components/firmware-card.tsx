// Firmware update (SPEC §2, §8): POST /api/mqtt/ota, then how the update goes arrives on the
// realtime socket. The box says at its hello which build it runs (Wi-Fi or SIM) and its
// version, so the card says up front whether there is anything newer, and the "Select Device
// Type" dialog offers only the box's own type. A box that has never said hello gets the
// spec's dialog with both types.
import { useState } from "react";
import type { ConnectionType } from "../../common/device-protocol.ts";
import { callApi } from "../call-api.ts";
import { otaResponseCheck } from "../checks/generated.ts";
import { type MessageKey, useT } from "../i18n/i18n.ts";
import { Dialog } from "./dialog.tsx";
import { useToast } from "./toast.tsx";

/** Failures the farmer can act on, in their language; anything else in the server's words. */
const OTA_ERROR_KEYS: Partial<Record<number, MessageKey>> = {
  404: "ota.noFirmware",
  409: "ota.busy",
  503: "motor.deviceOffline",
  504: "motor.timeout",
};

export type FirmwareInfo = {
  /** The build the box runs, from its hello; null before its first hello. */
  connection: ConnectionType | null;
  installed: string | null;
  /** The newest uploaded build of the box's type. */
  newest: string | null;
};

const TYPE_KEYS: Record<ConnectionType, MessageKey> = { wifi: "ota.wifi", sim: "ota.sim" };

/** `deviceId`: the box the page shows (SPEC §7's call is keyed by the owner's number; this card may show any of their boxes). */
export function FirmwareCard({ deviceId, firmware }: { deviceId: string; firmware: FirmwareInfo }) {
  const t = useT();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState<ConnectionType | null>(null);
  const [notice, setNotice] = useState(false);
  const { connection, installed, newest } = firmware;

  async function update(deviceType: ConnectionType) {
    setSending(deviceType);
    const result = await callApi(`/api/pumps/${deviceId}/ota`, otaResponseCheck, {
      method: "POST",
      body: { deviceType },
    });
    setSending(null);
    setOpen(false);
    if (result.ok) {
      toast.show(t("ota.triggered"), "success");
      setNotice(true);
    } else if (result.status === 0) {
      toast.show(t("ota.requestFailed"), "error");
    } else if (result.status !== 401) {
      const key = OTA_ERROR_KEYS[result.status];
      toast.show(t("ota.failed", { message: key ? t(key) : (result.message ?? t("ota.unknownError")) }), "error");
    }
  }

  // What the card can say before anyone taps: nothing newer exists, or what would be installed.
  const state =
    connection === null ? "unknown" : newest === null ? "none" : newest === installed ? "current" : "available";
  const types: ConnectionType[] = connection === null ? ["wifi", "sim"] : [connection];

  return (
    <section className="card" aria-labelledby="firmware-title">
      <h2 id="firmware-title">{t("ota.title")}</h2>
      <p
        className={state === "available" ? "message info" : "muted"}
        data-testid="ota-status"
        data-state={state}
        data-newest={newest ?? ""}
        data-installed={installed ?? ""}
      >
        {state === "unknown"
          ? t("ota.hint")
          : state === "none"
            ? t("ota.noneYet", { type: t(TYPE_KEYS[connection!]) })
            : state === "current"
              ? t("ota.upToDate", { version: installed ?? "" })
              : t("ota.available", { version: newest!, installed: installed ?? t("ota.unknownVersion") })}
      </p>
      {notice && (
        <p className="message info" role="status" data-testid="ota-notice">
          {t("ota.restartNotice")}
        </p>
      )}
      {(state === "unknown" || state === "available") && (
        <button type="button" className="button" onClick={() => setOpen(true)} data-testid="ota-open">
          {t("ota.open")}
        </button>
      )}
      <Dialog open={open} title={t("ota.dialogTitle")} onClose={() => setOpen(false)} testId="ota-dialog">
        <p>{connection === null ? t("ota.dialogText") : t("ota.detected", { type: t(TYPE_KEYS[connection]) })}</p>
        <div className="choice-buttons">
          {types.map((type) => (
            <button
              key={type}
              type="button"
              className={connection === null ? "button" : "button primary"}
              disabled={sending !== null}
              onClick={() => update(type)}
            >
              {sending === type ? t("ota.sending") : t(TYPE_KEYS[type])}
            </button>
          ))}
        </div>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setOpen(false)} disabled={sending !== null}>
            {t("dialog.cancel")}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
