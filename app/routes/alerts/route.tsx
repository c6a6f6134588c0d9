// /alerts: how a pump's alerts reach the farmer. First, per kind, by the app only, an SMS or a
// call (docs/telephony.md, "Alerts by SMS and call"): a plain form posted to this route's action,
// so it works before (and without) JavaScript and before any permission prompt, saved through
// the same service as PUT /api/alerts/channels, with the page's language as the language of the
// SMS and calls (./phone-channels.tsx). SMS and calls need a verified number: until then the
// page says so and links to /verify-number. Then the app's own alerts on this phone (Web Push),
// per browser: turn them on (the browser asks the farmer's permission and gives a push address
// for our VAPID key), choose which kinds, send a test, turn them off; a phone that cannot take
// them is pointed to SMS and calls. A subscription lasts as long as this login. The
// DeviceHub sends them (worker/alerts/deliver.ts) for every pump the farmer owns or operates
// (the page lists them, and the pumps they only watch, whose alerts they do not get).
import { type FormEvent, useEffect, useState } from "react";
import { ALERT_KINDS, type AlertKind } from "../../../common/alerts.ts";
import { subscriptionResponseSchema, subscriptionSavedResponseSchema } from "../../../common/api-responses/alerts.ts";
import { messageResponseSchema } from "../../../common/api-responses/refusals.ts";
import { type ApiResult, callApi } from "../../call-api.ts";
import { Choice } from "../../components/choice.tsx";
import { useToast } from "../../components/toast.tsx";
import { isSameOriginRequest, readForm } from "../../form.server.ts";
import { type MessageKey, useLanguage, useT } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";
import { refused, saveChannels } from "./actions.server.ts";
import { loadAlertsPage } from "./loader.server.ts";
import { PhoneChannels } from "./phone-channels.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Alerts · Sinchai" }];

export async function loader(args: Route.LoaderArgs) {
  return loadAlertsPage(args);
}

/** The channels form: each kind's channel, saved in the page's language for the SMS and calls. */
export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) return refused("error.crossSite", 403);
  return saveChannels(request, envOf(context), context.get(userContext), await readForm(request));
}

const KIND_KEYS: Record<AlertKind, MessageKey> = {
  dryRun: "alerts.kind.dryRun",
  overCurrent: "alerts.kind.overCurrent",
  voltage: "alerts.kind.voltage",
  phase: "alerts.kind.phase",
  power: "alerts.kind.power",
  offlineWhileOn: "alerts.kind.offlineWhileOn",
  runningWithoutCommand: "alerts.kind.runningWithoutCommand",
  schedule: "alerts.kind.schedule",
  theft: "alerts.kind.theft",
};

type Status = "checking" | "unsupported" | "denied" | "off" | "on";

/** The page's service worker (registered by the root once the page has loaded). */
async function serviceWorker(): Promise<ServiceWorkerRegistration | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

function supported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
}

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

export default function Alerts({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const toast = useToast();
  const [status, setStatus] = useState<Status>("checking");
  const [kinds, setKinds] = useState<AlertKind[]>([...ALERT_KINDS]);
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: looked up once, when the page opens: the key comes with the page
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      if (!supported() || !loaderData.publicKey) return setStatus("unsupported");
      if (Notification.permission === "denied") return setStatus("denied");
      const registration = await serviceWorker();
      if (cancelled) return;
      if (!registration) return setStatus("unsupported");
      const subscription = await registration.pushManager.getSubscription();
      if (!subscription) return setStatus("off");
      const result = await callApi(
        `/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`,
        subscriptionResponseSchema,
      );
      if (cancelled) return;
      if (result.ok && result.data.subscription) {
        setEndpoint(subscription.endpoint);
        setKinds(result.data.subscription.kinds);
        setStatus("on");
      } else {
        setStatus("off");
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  function save(subscription: PushSubscriptionJSON, chosen: AlertKind[]) {
    return callApi("/api/push/subscriptions", subscriptionSavedResponseSchema, {
      method: "PUT",
      body: { subscription, kinds: chosen, language },
    });
  }

  /** The server's own words for a refusal (another account's phone, too many tests), else ours. */
  const failure = (result: ApiResult<unknown>, fallback: MessageKey) => (!result.ok && result.message) || t(fallback);
  async function turnOn() {
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setStatus(permission === "denied" ? "denied" : "off");
        return;
      }
      const registration = await serviceWorker();
      if (!registration) return setStatus("unsupported");
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(loaderData.publicKey!),
      });
      const saved = await save(subscription.toJSON(), kinds);
      if (saved.ok) {
        setEndpoint(subscription.endpoint);
        setStatus("on");
        toast.show(t("alerts.saved"), "success");
      } else {
        toast.show(failure(saved, "alerts.subscribeFailed"), "error");
      }
    } catch (error) {
      // "Try again" cannot help a phone whose browser will not subscribe: point to SMS and calls.
      console.error("Could not subscribe to alerts", error);
      toast.show(t("alerts.subscribeFailed"), "error");
    } finally {
      setBusy(false);
    }
  }

  async function saveKinds(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const registration = await serviceWorker();
    const subscription = await registration?.pushManager.getSubscription();
    const saved = subscription ? await save(subscription.toJSON(), kinds) : null;
    setBusy(false);
    if (saved?.ok) toast.show(t("alerts.saved"), "success");
    else toast.show(saved ? failure(saved, "alerts.failed") : t("alerts.failed"), "error");
  }

  async function turnOff() {
    setBusy(true);
    const registration = await serviceWorker();
    const subscription = await registration?.pushManager.getSubscription();
    if (subscription) {
      await callApi("/api/push/subscriptions", messageResponseSchema, {
        method: "DELETE",
        body: { endpoint: subscription.endpoint },
      });
      await subscription.unsubscribe().catch(() => false);
    }
    setEndpoint(null);
    setStatus("off");
    setBusy(false);
  }

  async function sendTest() {
    if (!endpoint) return;
    setBusy(true);
    const result = await callApi("/api/push/test", messageResponseSchema, { method: "POST", body: { endpoint } });
    setBusy(false);
    toast.show(
      result.ok ? t("alerts.testSent") : failure(result, "alerts.testFailed"),
      result.ok ? "success" : "error",
    );
  }

  const toggleKind = (kind: AlertKind) =>
    setKinds((current) =>
      current.includes(kind)
        ? current.filter((item) => item !== kind)
        : ALERT_KINDS.filter((item) => item === kind || current.includes(item)),
    );

  const pumpName = (pump: { deviceId: string; name: string | null }) =>
    pump.name ?? t("pumps.unnamed", { id: pump.deviceId });

  return (
    <main className="page">
      <h1>{t("alerts.title")}</h1>
      {loaderData.alertPumps.length > 0 && (
        <p data-testid="alerts-pumps">{t("alerts.pumps", { pumps: loaderData.alertPumps.map(pumpName).join(", ") })}</p>
      )}
      {loaderData.watchedPumps.length > 0 && (
        <p className="muted" data-testid="alerts-watched">
          {t("alerts.watchedPumps", { pumps: loaderData.watchedPumps.map(pumpName).join(", ") })}
        </p>
      )}
      <PhoneChannels phone={loaderData.phone} notice={actionData?.notice} />
      <section className="card stack" aria-labelledby="alerts-app-title" data-testid="alerts" data-status={status}>
        <h2 id="alerts-app-title">{t("alerts.app.title")}</h2>
        <p className="muted">{t("alerts.intro")}</p>
        <noscript>
          <p className="message warning">{t("alerts.needsScript")}</p>
        </noscript>
        <p
          id="alerts-state"
          className={`message ${status === "on" ? "success" : status === "off" || status === "checking" ? "info" : "warning"}`}
          role="status"
        >
          {t(
            status === "checking"
              ? "alerts.checking"
              : status === "unsupported"
                ? "alerts.unsupported"
                : status === "denied"
                  ? "alerts.denied"
                  : status === "on"
                    ? "alerts.on"
                    : "alerts.off",
          )}
        </p>
        {status === "off" && (
          <button type="button" className="button primary" onClick={turnOn} disabled={busy}>
            {busy ? t("alerts.busy") : t("alerts.turnOn")}
          </button>
        )}
      </section>

      {status === "on" && (
        <section className="card" aria-labelledby="alerts-kinds-title">
          <form className="stack" onSubmit={saveKinds}>
            <fieldset className="choices">
              <legend id="alerts-kinds-title">{t("alerts.choose")}</legend>
              {ALERT_KINDS.map((kind) => (
                <Choice
                  key={kind}
                  type="checkbox"
                  name="kinds"
                  value={kind}
                  checked={kinds.includes(kind)}
                  onChange={() => toggleKind(kind)}
                  label={t(KIND_KEYS[kind])}
                />
              ))}
            </fieldset>
            <div className="form-actions">
              <button type="submit" className="button primary" disabled={busy}>
                {t("alerts.save")}
              </button>
              <button type="button" className="button" onClick={sendTest} disabled={busy}>
                {t("alerts.test")}
              </button>
              <button type="button" className="button danger" onClick={turnOff} disabled={busy}>
                {t("alerts.turnOff")}
              </button>
            </div>
          </form>
        </section>
      )}
    </main>
  );
}
