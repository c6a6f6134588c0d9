// Firmware update (SPEC §2, §8): a dialog titled "Select Device Type" (Wi-Fi or SIM build),
// then POST /api/mqtt/ota. How the update goes arrives later on the realtime socket.
import { useState } from "react";
import { z } from "../../common/zod-mini.ts";
import type { ConnectionType } from "../../common/device-protocol.ts";
import { callApi } from "../api-client.ts";
import { useT, type MessageKey } from "../i18n/i18n.ts";
import { Dialog } from "./dialog.tsx";
import { useToast } from "./toast.tsx";

const otaSchema = z.object({ success: z.literal(true), message: z.string(), version: z.optional(z.string()) });

/** Failures the farmer can act on, in their language; anything else in the server's words. */
const OTA_ERROR_KEYS: Partial<Record<number, MessageKey>> = {
  404: "ota.noFirmware",
  409: "ota.busy",
  503: "motor.deviceOffline",
  504: "motor.timeout",
};

export function FirmwareCard({ mobileNo }: { mobileNo: string }) {
  const t = useT();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState<ConnectionType | null>(null);
  const [notice, setNotice] = useState(false);

  async function update(deviceType: ConnectionType) {
    if (!mobileNo) {
      toast.show(t("ota.mobileMissing"), "error");
      return;
    }
    setSending(deviceType);
    const result = await callApi("/api/mqtt/ota", otaSchema, { method: "POST", body: { mobileNo, deviceType } });
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

  return (
    <section className="card" aria-labelledby="firmware-title">
      <h2 id="firmware-title">{t("ota.title")}</h2>
      <p className="muted">{t("ota.hint")}</p>
      {notice && (
        <p className="message info" role="status" data-testid="ota-notice">
          {t("ota.restartNotice")}
        </p>
      )}
      <button type="button" className="button" onClick={() => setOpen(true)} data-testid="ota-open">
        {t("ota.open")}
      </button>
      <Dialog open={open} title={t("ota.dialogTitle")} onClose={() => setOpen(false)} testId="ota-dialog">
        <p>{t("ota.dialogText")}</p>
        <div className="choice-buttons">
          {(["wifi", "sim"] as const).map((type) => (
            <button key={type} type="button" className="button" disabled={sending !== null} onClick={() => update(type)}>
              {sending === type ? t("ota.sending") : t(type === "wifi" ? "ota.wifi" : "ota.sim")}
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
