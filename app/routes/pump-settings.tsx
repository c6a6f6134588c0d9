// /pump-settings: the installer's page of the chosen pump, its owner's alone (anyone else is
// told so, and the action refuses them): the motor's protection settings, the box's details
// (signal in dBm, IMEI, chip, SIM, firmware version) with a Refresh that asks the box, and its
// firmware update. Off the dashboard, one scroll from the switch no more. Live on the realtime
// socket like the dashboard, so the details grey out the moment the box drops and a firmware
// update says how it goes. The settings form posts here; every change is confirmed old → new
// before it is saved (app/components/motor-config-card.tsx). So does "Start by phone", whether a
// missed call to the start number may start the motor, confirmed before it is turned on
// (app/components/phone-start-card.tsx), and "SMS PIN", the PIN an ON by SMS must begin with
// (app/components/sms-pin-card.tsx).
import { useEffect, useState } from "react";
import { data } from "react-router";
import { motorConfigRequestSchema } from "../../common/api-schemas.ts";
import { relativeAge } from "../../common/i18n/format.ts";
import type { SettingChange } from "../../common/protection-changes.ts";
import { roleMay } from "../../common/pump-roles.ts";
import { pumpSmsPinRequestSchema } from "../../common/pump-schemas.ts";
import type { HealthData } from "../../common/realtime-protocol.ts";
import { languageOf } from "../../worker/services/page-request.ts";
import type { AuthenticatedUser } from "../../worker/services/page-session.ts";
import { setStartByMissedCall } from "../../worker/services/phone-start.ts";
import { listPumpMembers } from "../../worker/services/pump-members.ts";
import { pumpSettingsOf, saveOwnerSettings, settingChangesOf } from "../../worker/services/pump-settings.ts";
import { type Refusal, refusalError } from "../../worker/services/refusal.ts";
import { setSmsPin } from "../../worker/services/sms-pin.ts";
import { callApi } from "../call-api.ts";
import { healthReadingResponseCheck } from "../checks/generated.ts";
import { FirmwareCard } from "../components/firmware-card.tsx";
import { HealthGrid } from "../components/health-grid.tsx";
import { type ConfigOutcome, MotorConfigCard } from "../components/motor-config-card.tsx";
import { PhoneStartCard, type PhoneStartOutcome } from "../components/phone-start-card.tsx";
import { SmsPinCard, type SmsPinOutcome } from "../components/sms-pin-card.tsx";
import { useToast } from "../components/toast.tsx";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { healthCacheKey, readCachedHealth, saveCachedHealth } from "../health-cache.ts";
import { useLanguage, useT } from "../i18n/i18n.ts";
import { phoneWaysOf } from "../phone-ways.server.ts";
import { pumpContext, pumpInForm } from "../pump-choice.server.ts";
import { useDeviceRealtime } from "../realtime/use-device-realtime.ts";
import { useLiveEffects } from "../realtime/use-live-effects.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/pump-settings";

export const meta: Route.MetaFunction = () => [{ title: "Pump settings · Sinchai" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const { pumps, chosen } = context.get(pumpContext);
  if (!chosen) return { view: "noDevice" as const };
  // Decided here, before anything of the box is read: a member gets the notice and nothing else.
  if (!roleMay(chosen.role, "configure")) return { view: "ownerOnly" as const };
  // Read again: the choice was resolved before this request's action (a settings change) ran.
  const [{ device, motorConfig, snapshot, newestFirmware }, members] = await Promise.all([
    pumpSettingsOf(envOf(context), chosen.device),
    listPumpMembers(envOf(context), chosen.device.id),
  ]);
  return {
    view: "settings" as const,
    deviceId: device.id,
    kind: device.kind,
    motorConfig,
    startByMissedCall: device.startByMissedCall,
    // Whose missed call the start number would take: the owner and every operator (an invited
    // one once they accept), named in the confirm step before it is turned on.
    startPeople: {
      ownerMobileNo: user.mobileNo,
      operators: members
        .filter((member) => member.role === "operator")
        .map((member) => ({ label: member.label, mobileNo: member.mobileNo, accepted: member.acceptedAt !== null })),
    },
    smsPinSet: device.smsPin !== null,
    phoneWays: phoneWaysOf(envOf(context), languageOf(request), { card: true }),
    numberVerified: user.numberVerified,
    cacheKey: healthCacheKey(user.mobileNo, device.id, pumps[0]?.device.id ?? null),
    // What the box told us at its hello: which build it runs, and the newest build of that kind.
    firmware: {
      connection: device.connection ?? null,
      installed: device.firmware ?? null,
      newest: newestFirmware,
    },
    snapshot,
  };
}

type ActionResult = { config: ConfigOutcome } | { phoneStart: PhoneStartOutcome } | { smsPin: SmsPinOutcome };

/** What the confirm form sends back: exactly which old → new the owner saw. */
function reviewedKey(changes: SettingChange[]): string {
  return changes.map(({ setting, from, to }) => `${setting}:${from}>${to}`).join(",");
}

/**
 * The settings form (`intent=config`), with script or without. A change is saved only when its
 * confirm step's form posts it again with `confirmed` naming the old → new the owner saw; any
 * other post of a change answers that step (again, if the settings moved meanwhile). The same
 * service as POST /api/pumps/{deviceId}/config, which saves with the history note and takes
 * the settings to the box.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const refused = (config: ConfigOutcome, status: number) => data<ActionResult>({ config }, { status });
  if (!isSameOriginRequest(request)) return refused({ ok: false, code: "crossSite" }, 403);
  const form = await readForm(request);
  const user = context.get(userContext);
  const env = envOf(context);
  if (field(form, "intent") === "phoneStart") return phoneStartAnswer(env, user, form);
  if (field(form, "intent") === "smsPin") return smsPinAnswer(env, user, form);
  if (field(form, "intent") !== "config") return refused({ ok: false, code: "invalid" }, 400);
  // The owner's alone, whatever the page showed: checked against the pump the form names.
  const access = await pumpInForm(env, user, form, "configure");
  if (!access.ok) return refused({ ok: false, code: access.code }, 403);
  const values = {
    defaultCurrent: field(form, "defaultCurrent"),
    dryRunThreshold: field(form, "dryRunThreshold"),
    overCurrentThreshold: field(form, "overCurrentThreshold"),
    underVoltage: field(form, "underVoltage"),
    overVoltage: field(form, "overVoltage"),
    voltageUnbalance: field(form, "voltageUnbalance"),
  };
  const parsed = motorConfigRequestSchema.safeParse(values);
  if (!parsed.success) {
    // The API's code for the same refusal; the page words it, never the schema's English.
    const name = String(parsed.error.issues[0]?.path[0] ?? "");
    return refused({ ok: false, code: "invalidInput", field: name, values }, 400);
  }
  const { token: _token, confirmWeakerProtection: _asJson, ...config } = parsed.data;
  const device = { ...access.pump.device, ownerUserId: user.id };
  // A voltage limit outside this kind of motor's range: the form shows the range.
  const outOfRange = (refusal: Refusal) => {
    if (refusal.code !== "invalidInput" && refusal.code !== "voltageLimitOutOfRange") throw refusalError(refusal);
    return refused({ ok: false, code: refusal.code, field: String(refusal.params.field ?? ""), values }, 400);
  };
  const checked = settingChangesOf(device, config);
  if (!checked.ok) return outOfRange(checked);
  const { changes } = checked;
  if (changes.length === 0) return { config: { ok: false, code: "unchanged" } } satisfies ActionResult;
  const confirmed = field(form, "confirmed");
  const reviewed = reviewedKey(changes);
  if (confirmed !== reviewed) {
    const review: ConfigOutcome = {
      ok: false,
      code: "review",
      changes,
      values,
      reviewed,
      changedMeanwhile: confirmed !== "",
    };
    return { config: review } satisfies ActionResult;
  }
  const saved = await saveOwnerSettings(env, device, config);
  if (!saved.ok) return outOfRange(saved);
  return { config: { ok: true, deliveredToDevice: saved.deliveredToDevice } } satisfies ActionResult;
}

/**
 * The "Start by phone" form (`intent=phoneStart`, `enabled=true|false`): the same service as
 * PUT /api/pumps/{deviceId}/phone-start, the owner's alone. Turning it on is answered with the
 * confirm step until that step's own form posts it again with `confirmed=on`; off is saved at once.
 */
async function phoneStartAnswer(env: Env, user: AuthenticatedUser, form: FormData) {
  const answer = (phoneStart: PhoneStartOutcome, status = 200) => data<ActionResult>({ phoneStart }, { status });
  const access = await pumpInForm(env, user, form, "phoneStart");
  if (!access.ok) return answer({ ok: false, code: access.code }, 403);
  const enabled = field(form, "enabled");
  if (enabled !== "true" && enabled !== "false") return answer({ ok: false, code: "invalid" }, 400);
  if (enabled === "true" && field(form, "confirmed") !== "on") return answer({ ok: false, code: "review" });
  const saved = await setStartByMissedCall(env, access.pump.device.id, enabled === "true");
  return answer({ ok: true, enabled: saved });
}

/**
 * The "SMS PIN" form (`intent=smsPin`, `pin`: 4 digits to set, empty to remove): the same
 * service as PUT /api/pumps/{deviceId}/sms-pin, the owner's alone.
 */
async function smsPinAnswer(env: Env, user: AuthenticatedUser, form: FormData) {
  const answer = (smsPin: SmsPinOutcome, status = 200) => data<ActionResult>({ smsPin }, { status });
  const access = await pumpInForm(env, user, form, "phoneStart");
  if (!access.ok) return answer({ ok: false, code: access.code }, 403);
  const parsed = pumpSmsPinRequestSchema.safeParse({ pin: field(form, "pin") || null });
  if (!parsed.success) return answer({ ok: false, code: "invalid" }, 400);
  return answer({ ok: true, pinSet: await setSmsPin(env, access.pump.device.id, parsed.data.pin) });
}

export default function PumpSettings({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  return (
    <main className="page">
      <h1>{t("settings.title")}</h1>
      {loaderData.view === "noDevice" ? (
        <p className="card message info">{t("motor.noDevice")}</p>
      ) : loaderData.view === "ownerOnly" ? (
        <p className="card message info" data-testid="owner-only">
          {t("settings.ownerOnly")}
        </p>
      ) : (
        <Settings
          settings={loaderData}
          posted={actionData && "config" in actionData ? actionData.config : null}
          postedPhoneStart={actionData && "phoneStart" in actionData ? actionData.phoneStart : null}
          postedSmsPin={actionData && "smsPin" in actionData ? actionData.smsPin : null}
        />
      )}
    </main>
  );
}

type SettingsData = Extract<Route.ComponentProps["loaderData"], { view: "settings" }>;

function Settings({
  settings,
  posted,
  postedPhoneStart,
  postedSmsPin,
}: {
  settings: SettingsData;
  posted: ConfigOutcome | null;
  postedPhoneStart: PhoneStartOutcome | null;
  postedSmsPin: SmsPinOutcome | null;
}) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const { deviceId, cacheKey } = settings;
  const [live, setLive] = useDeviceRealtime(deviceId, settings.snapshot, useLiveEffects());
  const online = live.pump.deviceStatus === "online" && live.ended === null;
  const [cachedHealth, setCachedHealth] = useState<HealthData | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  // As on the dashboard: whatever health this page sees, the browser remembers for a bad day.
  useEffect(() => {
    if (live.health) saveCachedHealth(cacheKey, live.health);
  }, [cacheKey, live.health]);

  async function refreshHealth() {
    setRefreshing(true);
    const result = await callApi(`/api/pumps/${deviceId}/health`, healthReadingResponseCheck, { method: "POST" });
    setRefreshing(false);
    if (result.ok) {
      setCachedHealth(null);
      const { healthData, source, ageSeconds } = result.data;
      setLive((current) => ({ ...current, health: healthData }));
      // The box is asked at most once a minute (its SIM pays): a report older than a few seconds says its age.
      const stale = source === "hub" && ageSeconds !== null && ageSeconds > 5;
      toast.show(
        stale ? t("health.asOf", { age: relativeAge(Date.now() - ageSeconds * 1000, language) }) : t("health.updated"),
        "success",
      );
    } else if (result.status !== 401) {
      toast.show(t("status.failed"), "error");
      setCachedHealth(readCachedHealth(cacheKey));
    }
  }

  return (
    <div className="dashboard" data-live={live.connected ? "connected" : live.ended ? "ended" : "connecting"}>
      {!online && (
        <p className="message warning" data-testid="settings-offline">
          {t("settings.offline")}
        </p>
      )}
      <MotorConfigCard initial={settings.motorConfig} posted={posted} kind={settings.kind} pump={deviceId} />
      <PhoneStartCard
        enabled={settings.startByMissedCall}
        people={settings.startPeople}
        posted={postedPhoneStart}
        pump={deviceId}
        numberVerified={settings.numberVerified}
      />
      <SmsPinCard pinSet={settings.smsPinSet} posted={postedSmsPin} pump={deviceId} />
      {settings.phoneWays && (
        <section
          className="card"
          data-testid="phone-numbers"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own escaped HTML (app/phone-ways.server.ts)
          dangerouslySetInnerHTML={{ __html: settings.phoneWays.list }}
        />
      )}
      <HealthGrid
        health={cachedHealth ?? live.health}
        cached={cachedHealth !== null}
        refreshing={refreshing}
        onRefresh={refreshHealth}
        motorStatus={live.pump.status}
        online={online}
      />
      <FirmwareCard deviceId={deviceId} firmware={settings.firmware} />
    </div>
  );
}
