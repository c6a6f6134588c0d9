// Firmware images for OTA updates (worker/api/admin/firmware.ts): the list and an upload of
// device type, version and file.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { firmwareListResponseSchema, firmwareUploadResponseSchema } from "../../../common/api-responses/admin.ts";
import { formatDateTime, formatNumber } from "../../../common/i18n/format.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useLanguage } from "../../i18n/i18n.ts";
import { Field } from "../field.tsx";
import { useToast } from "../toast.tsx";
import { useAdminApi } from "./use-admin-api.ts";
import { useBusyRequest } from "./use-busy-request.ts";

type FirmwareImage = { id: number; deviceType: "wifi" | "sim"; version: string; size: number; uploadedAt: string };

export function FirmwareSection({ open }: { open: boolean }) {
  const t = useAdminT();
  const language = useLanguage();
  const api = useAdminApi();
  const toast = useToast();
  const [images, setImages] = useState<FirmwareImage[] | null>(null);
  const { busy, run } = useBusyRequest();
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await api("/api/admin/firmware", firmwareListResponseSchema);
      setImages(answer.ok && answer.body ? answer.body.firmware : []);
    } catch {
      setImages([]);
    }
  }, [api]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    setError(null);
    await run(
      () =>
        api("/api/admin/firmware", firmwareUploadResponseSchema, { method: "POST", form: new FormData(formElement) }),
      { refused: "admin.settings.uploadFailed", failed: "admin.settings.uploadFailed" },
      async () => {
        toast.show(t("admin.settings.uploaded"), "success");
        formElement.reset();
        await load();
      },
      // The server names the problem (duplicate version, size, type); it is shown as sent.
      (answer) => setError(answer.body?.message ?? null),
    );
  }

  return (
    <section className="settings-section" data-testid="firmware-section">
      <h3>{t("admin.settings.firmware")}</h3>
      <form className="stack" onSubmit={upload} noValidate>
        <Field label={t("admin.settings.deviceType")}>
          <select name="deviceType" defaultValue="sim">
            <option value="sim">{t("admin.settings.deviceType.sim")}</option>
            <option value="wifi">{t("admin.settings.deviceType.wifi")}</option>
          </select>
        </Field>
        <Field label={t("admin.settings.version")}>
          <input name="version" required maxLength={32} pattern="[0-9A-Za-z][0-9A-Za-z._\-]{0,31}" autoComplete="off" />
        </Field>
        <Field label={t("admin.settings.file")}>
          <input name="file" type="file" required accept=".bin,application/octet-stream" />
        </Field>
        <button type="submit" className="button small primary" disabled={busy}>
          {busy ? t("admin.settings.uploading") : t("admin.settings.upload")}
        </button>
        {error && (
          <p className="message error" role="alert">
            {error}
          </p>
        )}
      </form>
      {images !== null &&
        (images.length === 0 ? (
          <p className="muted">{t("admin.settings.firmwareEmpty")}</p>
        ) : (
          <ul className="firmware-list" data-testid="firmware-list">
            {images.map((image) => (
              <li key={image.id}>
                <strong>{image.version}</strong> ·{" "}
                {t(image.deviceType === "wifi" ? "admin.settings.deviceType.wifi" : "admin.settings.deviceType.sim")} ·{" "}
                {formatNumber(image.size / 1024, language, 1)} KB · {formatDateTime(image.uploadedAt, language)}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
