// "SMS PIN" on the owner's settings page: whether an ON by SMS must begin with a PIN the owner
// chose ("1234 चालू 30"), as GSM starters ask. Off until the owner sets one: the sender's number
// alone is then the key, which can be faked (docs/security.md, "Caller ID"). OFF never needs
// it. One plain form sets or changes the PIN (4 digits), another removes it; with script the
// same posts run through a fetcher and the page's data is read again after each.
import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { SMS_PIN_LENGTH } from "../../common/phone-commands.ts";
import { useT } from "../i18n/i18n.ts";
import { Field } from "./field.tsx";

/** Where the forms post: the settings page's action. */
const SETTINGS_PATH = "/pump-settings";

/** The answer to the card's post. `invalid`: not 4 digits; `notAllowed`, `noDevice`: a post this page never makes. */
export type SmsPinOutcome = { ok: true; pinSet: boolean } | { ok: false; code: "invalid" | "notAllowed" | "noDevice" };

export function SmsPinCard({
  pinSet,
  posted,
  pump,
}: {
  /** What D1 holds now (the page's data, read again after every post). */
  pinSet: boolean;
  posted: SmsPinOutcome | null;
  /** The box this is for: the post names it. */
  pump: string;
}) {
  const t = useT();
  const fetcher = useFetcher<{ smsPin: SmsPinOutcome | null }>();
  const busy = fetcher.state !== "idle";
  const answered = fetcher.data?.smsPin ?? posted;
  const refused = answered && !answered.ok ? answered : null;
  // A PIN saved with script: the field empties, as a page loaded again after the plain post would be.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.smsPin?.ok) form.current?.reset();
  }, [fetcher.state, fetcher.data]);

  return (
    <section className="card" aria-labelledby="sms-pin-title" data-testid="sms-pin">
      <h2 id="sms-pin-title">{t("smsPin.title")}</h2>
      <p data-testid="sms-pin-state" data-pin-set={pinSet}>
        <strong>{t(pinSet ? "smsPin.on" : "smsPin.off")}</strong>
      </p>
      <p className="muted">{t("smsPin.why")}</p>
      {refused && (
        <p className="message error" role="alert">
          {t(refused.code === "invalid" ? "smsPin.invalid" : "smsPin.failed")}
        </p>
      )}
      <fetcher.Form ref={form} method="post" action={SETTINGS_PATH} className="stack">
        <input type="hidden" name="intent" value="smsPin" />
        <input type="hidden" name="pump" value={pump} />
        <Field label={t(pinSet ? "smsPin.changeLabel" : "smsPin.setLabel")}>
          <input
            name="pin"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            pattern={`[0-9]{${SMS_PIN_LENGTH}}`}
            minLength={SMS_PIN_LENGTH}
            maxLength={SMS_PIN_LENGTH}
            required
          />
        </Field>
        <button type="submit" className="button" disabled={busy}>
          {t("smsPin.save")}
        </button>
      </fetcher.Form>
      {pinSet && (
        <fetcher.Form method="post" action={SETTINGS_PATH}>
          <input type="hidden" name="intent" value="smsPin" />
          <input type="hidden" name="pump" value={pump} />
          <input type="hidden" name="pin" value="" />
          <button type="submit" className="button" disabled={busy}>
            {t("smsPin.remove")}
          </button>
        </fetcher.Form>
      )}
    </section>
  );
}
