// The claim's first step: the sticker's box id and claim code (typed, or read by the camera) and
// the farmer's number.
import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { parseClaimLabel } from "../../../common/claim-label.ts";
import { Field } from "../../components/field.tsx";
import { useT } from "../../i18n/i18n.ts";

/** What the camera needs of the browser's barcode reader, where there is one. */
type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
type DetectorClass = new (options: { formats: string[] }) => Detector;

/**
 * The sticker's box id and claim code, typed or filled in by the camera. The scan button shows
 * only where the browser reads QR codes itself (BarcodeDetector); typing always works.
 */
export function ClaimForm({ busy }: { busy: boolean }) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [canScan, setCanScan] = useState(false);
  const [scanning, setScanning] = useState(false);
  const [scanFailed, setScanFailed] = useState(false);

  useEffect(() => {
    setCanScan("BarcodeDetector" in window && Boolean(navigator.mediaDevices?.getUserMedia));
  }, []);

  useEffect(() => {
    if (!scanning) return;
    let stream: MediaStream | null = null;
    let stopped = false;
    const Barcode = (window as unknown as { BarcodeDetector: DetectorClass }).BarcodeDetector;
    const detector = new Barcode({ formats: ["qr_code"] });
    const look = async () => {
      const video = videoRef.current;
      if (stopped || !video) return;
      const found = (await detector.detect(video).catch(() => [])).map((code) => parseClaimLabel(code.rawValue));
      const label = found.find((candidate) => candidate !== null);
      const form = formRef.current;
      if (label && form) {
        (form.elements.namedItem("deviceId") as HTMLInputElement).value = label.deviceId;
        (form.elements.namedItem("claimCode") as HTMLInputElement).value = label.claimCode;
        (form.elements.namedItem("farmerMobileNo") as HTMLInputElement).focus();
        setScanning(false);
        return;
      }
      setTimeout(look, 300);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (media) => {
        stream = media;
        if (stopped || !videoRef.current) return;
        videoRef.current.srcObject = media;
        await videoRef.current.play();
        void look();
      })
      .catch(() => {
        setScanFailed(true);
        setScanning(false);
      });
    return () => {
      stopped = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [scanning]);

  return (
    <Form method="post" className="stack" noValidate ref={formRef} data-testid="claim-form">
      <input type="hidden" name="intent" value="claim" />
      <p className="muted">{t("installer.claimHelp")}</p>
      {canScan && (
        <button type="button" className="button" onClick={() => setScanning(!scanning)} data-testid="scan">
          {scanning ? t("installer.scanStop") : t("installer.scan")}
        </button>
      )}
      {scanning && <video ref={videoRef} className="installer-camera" muted playsInline />}
      {scanFailed && (
        <p className="message warning" role="status">
          {t("installer.scanFailed")}
        </p>
      )}
      <Field label={t("installer.deviceId")}>
        <input name="deviceId" autoCapitalize="characters" maxLength={12} required data-testid="device-id" />
      </Field>
      <Field label={t("installer.claimCode")}>
        <input name="claimCode" autoCapitalize="characters" maxLength={14} required data-testid="claim-code" />
      </Field>
      <Field label={t("installer.farmerMobileNo")}>
        <input
          name="farmerMobileNo"
          type="tel"
          inputMode="numeric"
          maxLength={10}
          required
          data-testid="farmer-mobile"
        />
      </Field>
      <button type="submit" className="button primary" disabled={busy} data-testid="claim-submit">
        {t("installer.sendCode")}
      </button>
    </Form>
  );
}
