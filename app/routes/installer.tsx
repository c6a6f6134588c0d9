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
import { commissioningRequestSchema } from "../../common/commissioning.ts";
import { formatDateTime, formatMobileNo, formatVoltages } from "../../common/i18n/format.ts";
import { claimConfirmSchema, claimRequestSchema } from "../../common/installer-schemas.ts";
import { deviceIdSchema } from "../../common/pump-schemas.ts";
import {
  checkSupply,
  claimBox,
  commissionBox,
  confirmBoxClaim,
  handOverBox,
  installerOverview,
  testRunBox,
} from "../../worker/services/installer-visits.ts";
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
  offline: "commission.error.offline",
  timeout: "commission.error.noAnswer",
  linkLost: "commission.error.noAnswer",
  testRunBusy: "commission.error.busy",
  motorRunning: "commission.error.motorRunning",
  testRunRefused: "commission.error.refused",
  noTestRun: "commission.error.noTestRun",
};

/** How long the page's test run lasts: enough for the surge to pass and the current to settle. */
const TEST_RUN_SECONDS = 10;

type Commissioning =
  | { step: "supply"; deviceId: string; voltages: number[]; everyPhase: boolean }
  | {
      step: "testRun";
      deviceId: string;
      measured: { voltages: number[]; surgeCurrent: number; runningCurrent: number };
      suggested: { defaultCurrent: number; dryRunThreshold: number; overCurrentThreshold: number; horsePower: number };
    }
  | {
      step: "done";
      deviceId: string;
      set: { defaultCurrent: number; dryRunThreshold: number; overCurrentThreshold: number };
    };

type PageError = { key: MessageKey; values?: Record<string, string | number> };

export async function action({ request, context }: Route.ActionArgs) {
  const refused = (error: PageError, status: number, deviceId?: string) =>
    data<{ error: PageError; deviceId?: string }>({ error, deviceId }, { status });
  if (!isSameOriginRequest(request)) return refused({ key: "error.crossSite" }, 403);
  const user = await requireUser(request, context);
  const env = envOf(context);
  const form = await readForm(request);
  const refusedBy = (refusal: Refusal, deviceId?: string) =>
    refused(
      { key: REFUSALS[refusal.code] ?? "installer.error.failed", values: refusal.params },
      refusal.status,
      deviceId,
    );
  const box = deviceIdSchema.safeParse(field(form, "deviceId"));
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
    case "supply": {
      if (!box.success) return refused({ key: "installer.error.invalid" }, 400);
      const read = await checkSupply(env, user, box.data);
      if (!read.ok) return refusedBy(read, box.data);
      const commissioning: Commissioning = { step: "supply", deviceId: box.data, ...read };
      return { commissioning };
    }
    case "testRun": {
      if (!box.success) return refused({ key: "installer.error.invalid" }, 400);
      const run = await testRunBox(env, user, box.data, TEST_RUN_SECONDS);
      if (!run.ok) return refusedBy(run, box.data);
      const commissioning: Commissioning = { step: "testRun", deviceId: box.data, ...run.value };
      return { commissioning };
    }
    case "commission": {
      if (!box.success) return refused({ key: "installer.error.invalid" }, 400);
      const input = commissioningRequestSchema.safeParse({
        defaultCurrent: field(form, "defaultCurrent"),
        dryRunThreshold: field(form, "dryRunThreshold"),
        overCurrentThreshold: field(form, "overCurrentThreshold"),
        feeder: field(form, "feeder"),
      });
      if (!input.success) return refused({ key: "commission.error.invalid" }, 400, box.data);
      const done = await commissionBox(env, user, box.data, { ...input.data, feeder: input.data.feeder ?? null });
      if (!done.ok) return refusedBy(done, box.data);
      const commissioning: Commissioning = { step: "done", deviceId: box.data, set: done.value.report.set };
      return { commissioning };
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
  const error = actionData && "error" in actionData ? actionData.error : undefined;
  const commissioning = actionData && "commissioning" in actionData ? actionData.commissioning : undefined;
  // The box being commissioned: chosen from the list (`?commission=`), or the one the last step was about.
  const commissioned =
    commissioning?.deviceId ??
    (actionData && "deviceId" in actionData ? actionData.deviceId : undefined) ??
    search.get("commission") ??
    linked;
  const inHand = overview?.installed.find((box) => box.deviceId === commissioned && box.handedOverAt === null);
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
          {inHand && <CommissioningSteps deviceId={inHand.deviceId} state={commissioning} busy={busy} />}
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
                    {box.report && (
                      <span data-testid="commission-report">
                        {t("commission.report", {
                          name: box.report.by.name,
                          time: formatDateTime(box.report.at, language),
                          measured: box.report.measured.runningCurrent,
                          current: box.report.set.defaultCurrent,
                        })}
                      </span>
                    )}
                    {box.handedOverAt === null && (
                      <Link to={`/installer?commission=${box.deviceId}`} data-testid={`commission-${box.deviceId}`}>
                        {t("commission.open")}
                      </Link>
                    )}
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

/**
 * Commissioning, guided step by step, each confirmed by the box: the supply on every phase, a
 * test run that measures the running current past the start-up surge and stops, the settings
 * suggested from it (accepted or edited, with the feeder), and the stop the box confirmed.
 */
function CommissioningSteps({
  deviceId,
  state,
  busy,
}: {
  deviceId: string;
  state: Commissioning | undefined;
  busy: boolean;
}) {
  const t = useT();
  const language = useLanguage();
  const step = state?.deviceId === deviceId ? state : undefined;
  return (
    <section className="card stack" aria-labelledby="commission-title" data-testid="commissioning">
      <h2 id="commission-title">{t("commission.title", { deviceId })}</h2>
      <h3>{t("commission.supplyStep")}</h3>
      {step?.step === "supply" && (
        <p className={`message ${step.everyPhase ? "success" : "error"}`} role="status" data-testid="commission-supply">
          {t(step.everyPhase ? "commission.supplyOk" : "commission.supplyMissing", {
            voltages: formatVoltages(step.voltages, language),
          })}
        </p>
      )}
      <Form method="post">
        <input type="hidden" name="intent" value="supply" />
        <input type="hidden" name="deviceId" value={deviceId} />
        <button type="submit" className="button" disabled={busy} data-testid="commission-check-supply">
          {t("commission.checkSupply")}
        </button>
      </Form>
      <h3>{t("commission.testStep")}</h3>
      <p className="muted">{t("commission.testHelp")}</p>
      <Form method="post">
        <input type="hidden" name="intent" value="testRun" />
        <input type="hidden" name="deviceId" value={deviceId} />
        <button type="submit" className="button" disabled={busy} data-testid="commission-test-run">
          {t("commission.runTest")}
        </button>
      </Form>
      {step?.step === "testRun" && (
        <>
          <p className="message success" role="status" data-testid="commission-measured">
            {t("commission.measured", {
              current: step.measured.runningCurrent,
              surge: step.measured.surgeCurrent,
              voltages: formatVoltages(step.measured.voltages, language),
            })}
          </p>
          <p data-testid="commission-stopped">{t("commission.stopped")}</p>
          <h3>{t("commission.settingsStep")}</h3>
          <Form method="post" className="stack" noValidate data-testid="commission-settings">
            <input type="hidden" name="intent" value="commission" />
            <input type="hidden" name="deviceId" value={deviceId} />
            <Field label={t("commission.ratedCurrent")}>
              <input
                name="defaultCurrent"
                inputMode="decimal"
                defaultValue={step.suggested.defaultCurrent}
                data-testid="commission-current"
              />
            </Field>
            <p className="muted">{t("commission.horsePower", { horsePower: step.suggested.horsePower })}</p>
            <Field label={t("commission.dryRun")}>
              <input name="dryRunThreshold" inputMode="decimal" defaultValue={step.suggested.dryRunThreshold} />
            </Field>
            <Field label={t("commission.overCurrent")}>
              <input
                name="overCurrentThreshold"
                inputMode="decimal"
                defaultValue={step.suggested.overCurrentThreshold}
              />
            </Field>
            <Field label={t("commission.feeder")}>
              <input name="feeder" maxLength={40} data-testid="commission-feeder" />
            </Field>
            <button type="submit" className="button primary" disabled={busy} data-testid="commission-save">
              {t("commission.save")}
            </button>
          </Form>
        </>
      )}
      {step?.step === "done" && (
        <p className="message success" role="status" data-testid="commission-done">
          {t("commission.done", {
            current: step.set.defaultCurrent,
            dryRun: step.set.dryRunThreshold,
            overCurrent: step.set.overCurrentThreshold,
          })}
        </p>
      )}
    </section>
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
