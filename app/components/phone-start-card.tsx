// "Start by phone" on the owner's settings page: whether a missed call to the start number starts
// the motor (docs/decisions/028-switching-by-phone.md), from the owner's number or an operator's.
// The state in words, why it is off until the owner turns it on, and one button named by what it
// does. The confirm step names every person whose call it will take, with their number, and says
// the owner is told by SMS when someone else starts the motor by phone.
// Turning it on asks first with the page's one confirm step (the pattern of the motor settings,
// docs/decisions/025-weaker-protection-asks-first.md): the action answers with the step, whose own
// small form posts the same again with `confirmed`; turning it off is saved at once. A plain
// form first (no script: the step and the result come back in the page); with script the same
// posts run through a fetcher, and the page's data (the state) is read again after each.
import { useState } from "react";
import { useFetcher } from "react-router";
import { formatMobileNo } from "../../common/i18n/format.ts";
import { useT } from "../i18n/i18n.ts";
import { ConfirmStep } from "./confirm-step.tsx";

/** Stands for a person's label in a message, so the label can be marked as no words of ours. */
const LABEL = "\u2063label\u2063";

/** Where the forms post: the settings page's action. */
const SETTINGS_PATH = "/pump-settings";

/**
 * The answer to the card's post. `review`: turning it on waits for the confirm step.
 * `invalid`, `notAllowed`, `noDevice`: a post this page never makes.
 */
export type PhoneStartOutcome =
  | { ok: true; enabled: boolean }
  | { ok: false; code: "review" | "invalid" | "notAllowed" | "noDevice" };

/** Whose missed call to the start number starts the motor: the owner and the pump's operators. */
export type StartPeople = {
  ownerMobileNo: string;
  /** `accepted`: false while the invitation waits; their call counts once they accept. */
  operators: { label: string; mobileNo: string; accepted: boolean }[];
};

export function PhoneStartCard({
  enabled,
  people,
  posted,
  pump,
  numberVerified,
}: {
  /** What D1 holds now (the page's data, read again after every post). */
  enabled: boolean;
  people: StartPeople;
  posted: PhoneStartOutcome | null;
  /** The box this is for: the post names it, so a switch of pump in another tab cannot redirect it. */
  pump: string;
  /** A missed call counts only from a verified number: say so beside the switch. */
  numberVerified: boolean;
}) {
  const t = useT();
  const fetcher = useFetcher<{ phoneStart: PhoneStartOutcome | null }>();
  const busy = fetcher.state !== "idle";
  const answered = fetcher.data?.phoneStart ?? posted;
  /** The confirm step the owner said no to (with script): it goes away. */
  const [dismissed, setDismissed] = useState<PhoneStartOutcome | null>(null);
  const review = answered && !answered.ok && answered.code === "review" && answered !== dismissed ? answered : null;
  const refused = answered && !answered.ok && answered.code !== "review" ? answered : null;

  return (
    <section className="card" aria-labelledby="phone-start-title" data-testid="phone-start">
      <h2 id="phone-start-title">{t("phoneStart.title")}</h2>
      <p data-testid="phone-start-state" data-enabled={enabled}>
        <strong>{t(enabled ? "phoneStart.on" : "phoneStart.off")}</strong>
      </p>
      <p className="muted">{t("phoneStart.why")}</p>
      {!numberVerified && (
        <p className="message info">
          {t("phoneStart.unverified")} <a href="/verify-number">{t("alerts.channels.verify")}</a>
        </p>
      )}
      {refused && (
        <p className="message error" role="alert">
          {t("phoneStart.failed")}
        </p>
      )}
      {review ? (
        <ConfirmStep
          step={review}
          Form={fetcher.Form}
          action={SETTINGS_PATH}
          warning
          testId="phone-start-review"
          hidden={{ intent: "phoneStart", pump, enabled: "true", confirmed: "on" }}
          submit={
            <button type="submit" className="button danger" disabled={busy}>
              {t("phoneStart.enable")}
            </button>
          }
          onCancel={() => setDismissed(review)}
        >
          <p>
            <strong>{t("phoneStart.confirmTitle")}</strong>
          </p>
          <p>{t("phoneStart.confirmText")}</p>
          <ul data-testid="phone-start-people">
            <li>{t("phoneStart.personOwner", { mobileNo: formatMobileNo(people.ownerMobileNo) })}</li>
            {people.operators.map((operator) => {
              const key = operator.accepted ? "phoneStart.personOperator" : "phoneStart.personInvited";
              // The owner's own name for them, in whatever script they wrote it.
              const [before, after] = t(key, { label: LABEL, mobileNo: formatMobileNo(operator.mobileNo) }).split(
                LABEL,
              );
              return (
                <li key={operator.mobileNo}>
                  {before}
                  <span translate="no">{operator.label}</span>
                  {after}
                </li>
              );
            })}
          </ul>
          <p>{t("phoneStart.ownerTold")}</p>
        </ConfirmStep>
      ) : (
        <fetcher.Form method="post" action={SETTINGS_PATH}>
          <input type="hidden" name="intent" value="phoneStart" />
          <input type="hidden" name="pump" value={pump} />
          <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
          <button type="submit" className="button" disabled={busy}>
            {t(enabled ? "phoneStart.disable" : "phoneStart.enable")}
          </button>
        </fetcher.Form>
      )}
    </section>
  );
}
