// Each phone kind's channel (app, SMS or call): a plain form posted to the page's action, so it
// works before (and without) JavaScript and before any permission prompt. SMS and calls need a
// verified number: until then the form says so and links to /verify-number.
import { Form, useNavigation } from "react-router";
import {
  ALERT_CHANNELS,
  type AlertChannel,
  PHONE_ALERT_KINDS,
  type PhoneAlertKind,
} from "../../../common/alert-channels.ts";
import { type MessageKey, useT } from "../../i18n/i18n.ts";
import type { Route } from "./+types/route";

export type Notice = { key: MessageKey; tone: "success" | "error" };

const SAVE_ANCHOR = "alert-channels-save";

const PHONE_KIND_KEYS: Record<PhoneAlertKind, MessageKey> = {
  dryRun: "alerts.phoneKind.dryRun",
  phaseFault: "alerts.phoneKind.phaseFault",
  voltageTrip: "alerts.phoneKind.voltageTrip",
  offlineWhileOn: "alerts.phoneKind.offlineWhileOn",
  powerBack: "alerts.phoneKind.powerBack",
  scheduleMissed: "alerts.phoneKind.scheduleMissed",
  tamper: "alerts.phoneKind.tamper",
  cableCut: "alerts.phoneKind.cableCut",
};

const CHANNEL_KEYS: Record<AlertChannel, MessageKey> = {
  app: "alerts.channel.app",
  sms: "alerts.channel.sms",
  call: "alerts.channel.call",
};

/** Each phone kind with app, SMS or call: a form that works without the page's script. */
export function PhoneChannels({
  phone,
  notice,
}: {
  phone: Route.ComponentProps["loaderData"]["phone"];
  notice?: Notice;
}) {
  const t = useT();
  const busy = useNavigation().state === "submitting";
  const verified = phone.numberVerified;
  return (
    <section className="card stack" aria-labelledby="alert-channels-title" data-testid="alert-channels">
      <h2 id="alert-channels-title">{t("alerts.channels.title")}</h2>
      <p className="muted">{t("alerts.channels.intro")}</p>
      {!verified && (
        <p className="message warning" data-testid="alert-channels-unverified">
          {t("alerts.channels.unverified")} <a href="/verify-number">{t("alerts.channels.verify")}</a>
        </p>
      )}
      <Form method="post" action={`/alerts#${SAVE_ANCHOR}`} className="stack channel-choices">
        {PHONE_ALERT_KINDS.map((kind) => (
          <fieldset key={kind} className="choices" data-testid={`channel-${kind}`}>
            <legend>{t(PHONE_KIND_KEYS[kind])}</legend>
            <div className="channel-row">
              {ALERT_CHANNELS.map((channel) => (
                <label key={channel} className="choice">
                  <input
                    type="radio"
                    name={`channel.${kind}`}
                    value={channel}
                    // An unverified number gets nothing by phone, whatever is stored.
                    defaultChecked={(verified ? phone.channels[kind] : "app") === channel}
                    disabled={!verified && channel !== "app"}
                  />
                  <span className="choice-label">{t(CHANNEL_KEYS[channel])}</span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        {verified && (
          <>
            <p className="muted" data-testid="alert-channels-language">
              {t("alerts.channels.language", { language: phone.language })}
            </p>
            <p className="muted" data-testid="alert-channels-today">
              {t("alerts.channels.today", {
                sms: phone.today.sms,
                smsCap: phone.caps.sms,
                call: phone.today.call,
                callCap: phone.caps.call,
              })}
            </p>
          </>
        )}
        {/* The answer shows where the farmer pressed (the kinds above are a screen and more tall);
            without script the page comes back opened at it (`#alert-channels-save`). */}
        <div id={SAVE_ANCHOR} className="stack">
          {notice && (
            <p
              className={`message ${notice.tone}`}
              role={notice.tone === "error" ? "alert" : "status"}
              data-testid="alert-channels-notice"
            >
              {t(notice.key)}
            </p>
          )}
          {verified && (
            <button type="submit" className="button primary" disabled={busy}>
              {t("alerts.save")}
            </button>
          )}
        </div>
      </Form>
    </section>
  );
}
