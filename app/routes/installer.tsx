// /installer: the installer's page (docs/user-area.md, "The installer's visit"), in the field on
// a phone. Scan a box's sticker (the camera through BarcodeDetector where the browser has it) or
// type its id and claim code, type the farmer's number, then the code the farmer got by SMS: the
// box is linked. Below, the installer's stock and the boxes they installed, each with its online
// state and, until then, the hand-over. Plain forms with an `intent`, posted to this route's
// action, so all of it works without JavaScript; the same services as /api/installer/*.
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { mobileNoSchema } from "../../common/api-schemas.ts";
import { parseClaimLabel } from "../../common/claim-codes.ts";
import { formatDateTime, formatMobileNo } from "../../common/i18n/format.ts";
import { claimConfirmSchema, claimRequestSchema } from "../../common/installer-schemas.ts";
import { deviceIdSchema } from "../../common/pump-schemas.ts";
import { claimBox, confirmBoxClaim, handOverBox, installerOverview } from "../../worker/services/installer-visits.ts";
import type { Refusal } from "../../worker/services/refusal.ts";
import { Field } from "../components/field.tsx";
import { LanguageSwitch } from "../components/language-switch.tsx";
import { LogoutControl } from "../components/logout-control.tsx";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { envOf, requireUser, waitUntilOf } from "../session.server.ts";
import type { Route } from "./+types/installer";

export const meta: Route.MetaFunction = () => [{ title: "Installer · Sinchai" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { overview: await installerOverview(envOf(context), user) };
}

const REFUSALS: Partial<Record<string, MessageKey>> = {
  boxNotInStock: "installer.error.boxNotInStock",
  wrongClaimCode: "installer.error.wrongClaimCode",
  claimCodeUsed: "installer.error.claimCodeUsed",
  noPendingClaim: "installer.error.noPendingClaim",
  handedOver: "installer.error.handedOver",
  pumpNotFound: "installer.error.boxNotInStock",
  notAnInstaller: "installer.notInstaller",
  throttled: "installer.error.throttled",
  wrongCode: "code.wrong",
  noCode: "code.dead",
};

type PageError = { key: MessageKey; values?: Record<string, string | number> };

export async function action({ request, context }: Route.ActionArgs) {
  const refused = (error: PageError, status: number) => data<{ error: PageError }>({ error }, { status });
  if (!isSameOriginRequest(request)) return refused({ key: "error.crossSite" }, 403);
  const user = await requireUser(request, context);
  const env = envOf(context);
  const form = await readForm(request);
  const refusedBy = (refusal: Refusal) =>
    refused({ key: REFUSALS[refusal.code] ?? "installer.error.failed", values: refusal.params }, refusal.status);
  switch (field(form, "intent")) {
    case "claim": {
      const input = claimRequestSchema.safeParse({
        deviceId: field(form, "deviceId").trim().toUpperCase(),
        claimCode: field(form, "claimCode"),
        farmerMobileNo: field(form, "farmerMobileNo"),
      });
      if (!input.success) return refused({ key: "installer.error.invalid" }, 400);
      const sent = await claimBox(env, request, user, { ...input.data, waitUntil: waitUntilOf(context) });
      if (!sent.ok) return refusedBy(sent);
      const next = new URLSearchParams({ box: input.data.deviceId, farmer: input.data.farmerMobileNo });
      return redirect(`/installer?${next}`);
    }
    case "confirm": {
      const input = claimConfirmSchema.safeParse({
        deviceId: field(form, "deviceId"),
        farmerMobileNo: field(form, "farmerMobileNo"),
        code: field(form, "code").replace(/\s/g, ""),
      });
      if (!input.success) return refused({ key: "code.invalid" }, 400);
      const linked = await confirmBoxClaim(env, request, user, input.data);
      if (!linked.ok) return refusedBy(linked);
      return redirect(`/installer?linked=${input.data.deviceId}`);
    }
    case "handOver": {
      const deviceId = deviceIdSchema.safeParse(field(form, "deviceId"));
      if (!deviceId.success) return refused({ key: "installer.error.invalid" }, 400);
      const done = await handOverBox(env, user, deviceId.data);
      if (!done.ok) return refusedBy(done);
      return redirect(`/installer?handedOver=${deviceId.data}`);
    }
    default:
      return refused({ key: "installer.error.failed" }, 400);
  }
}

export default function Installer({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const busy = useNavigation().state === "submitting";
  const [search] = useSearchParams();
  const { overview } = loaderData;
  const pendingBox = deviceIdSchema.safeParse(search.get("box"));
  const pendingFarmer = mobileNoSchema.safeParse(search.get("farmer"));
  const linked = search.get("linked");
  const error = actionData?.error;
  return (
    <main className="page narrow installer-page">
      <header className="installer-header">
        <h1>{t("installer.title")}</h1>
        <LanguageSwitch />
        <LogoutControl />
      </header>
      {!overview ? (
        <p className="card message info" data-testid="not-installer">
          {t("installer.notInstaller")}
        </p>
      ) : (
        <>
          <p className="muted" data-testid="installer-name">
            {t("installer.hello", { name: overview.name })}
          </p>
          {error && (
            <p className="message error" role="alert" data-testid="installer-error">
              {t(error.key, error.values)}
            </p>
          )}
          {linked && (
            <p className="message success" role="status" data-testid="installer-linked">
              {t("installer.linked", { deviceId: linked })}
            </p>
          )}
          {search.get("handedOver") && (
            <p className="message success" role="status" data-testid="installer-handed-over">
              {t("installer.handedOver")}
            </p>
          )}
          <section className="card stack" aria-labelledby="claim-title">
            <h2 id="claim-title">{t("installer.claimTitle")}</h2>
            {pendingBox.success && pendingFarmer.success ? (
              <Form method="post" className="stack" noValidate data-testid="confirm-form">
                <input type="hidden" name="intent" value="confirm" />
                <input type="hidden" name="deviceId" value={pendingBox.data} />
                <input type="hidden" name="farmerMobileNo" value={pendingFarmer.data} />
                <p data-testid="code-sent">
                  {t("installer.codeSent", { mobileNo: formatMobileNo(pendingFarmer.data) })}
                </p>
                <Field label={t("code.label")}>
                  <input
                    name="code"
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    maxLength={7}
                    required
                    data-testid="code-input"
                  />
                </Field>
                <button type="submit" className="button primary" disabled={busy} data-testid="confirm-submit">
                  {t("installer.confirm")}
                </button>
                <Link to="/installer">{t("installer.otherBox")}</Link>
              </Form>
            ) : (
              <ClaimForm busy={busy} />
            )}
          </section>
          <section className="card stack" aria-labelledby="installed-title">
            <h2 id="installed-title">{t("installer.installed")}</h2>
            {overview.installed.length === 0 ? (
              <p className="muted">{t("installer.installedEmpty")}</p>
            ) : (
              <ul className="installer-boxes" data-testid="installed-list">
                {overview.installed.map((box) => (
                  <li key={box.deviceId} data-testid={`installed-${box.deviceId}`} className="stack">
                    <strong>{box.deviceId}</strong>
                    <span>
                      {box.online ? t("installer.online") : t("installer.offline")} ·{" "}
                      {t("installer.installedOn", { time: formatDateTime(box.installedAt, language) })}
                    </span>
                    {box.handedOverAt === null ? (
                      <Form method="post" className="stack">
                        <input type="hidden" name="intent" value="handOver" />
                        <input type="hidden" name="deviceId" value={box.deviceId} />
                        <span className="muted">{t("installer.handOverHelp")}</span>
                        <button type="submit" className="button" disabled={busy} data-testid="hand-over">
                          {t("installer.handOver")}
                        </button>
                      </Form>
                    ) : (
                      <span className="muted">
                        {t("installer.handedOverOn", { time: formatDateTime(box.handedOverAt, language) })}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card stack" aria-labelledby="stock-title">
            <h2 id="stock-title">{t("installer.stock")}</h2>
            {overview.stock.length === 0 ? (
              <p className="muted">{t("installer.stockEmpty")}</p>
            ) : (
              <ul className="installer-boxes" data-testid="stock-list">
                {overview.stock.map((box) => (
                  <li key={box.deviceId}>{box.deviceId}</li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}

/** What the camera needs of the browser's barcode reader, where there is one. */
type Detector = { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> };
type DetectorClass = new (options: { formats: string[] }) => Detector;

/**
 * The sticker's box id and claim code, typed or filled in by the camera. The scan button shows
 * only where the browser reads QR codes itself (BarcodeDetector); typing always works.
 */
function ClaimForm({ busy }: { busy: boolean }) {
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
