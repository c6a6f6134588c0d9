// The environment's numbers for switching a pump from any phone (docs/telephony.md, "The
// numbers"), as links a phone dials or texts: nothing here needs data, so they are what a farmer
// has when the app cannot switch (no internet, the box offline, a command nobody confirmed).
import type { PhoneNumbers } from "../../worker/services/phone-numbers.ts";
import { useT } from "../i18n/i18n.ts";

/** "+918000000002" as a person reads it from a card: "+91 80000 00002". */
const spaced = (number: string) => number.replace(/^\+91(\d{5})(\d{5})$/, "+91 $1 $2");

/** The two ways to stop the motor without data, big, for the switch card's states that cannot switch. */
export function StopByPhone({ numbers }: { numbers: PhoneNumbers }) {
  const t = useT();
  if (!numbers.stop && !numbers.sms) return null;
  return (
    <div className="message warning" data-testid="stop-by-phone">
      <p>{t("phoneWays.noData")}</p>
      {numbers.stop && (
        <a href={`tel:${numbers.stop}`} className="button danger" data-testid="call-stop">
          {t("phoneWays.callStop")} {spaced(numbers.stop)}
        </a>
      )}
      {numbers.sms && (
        <a
          href={`sms:${numbers.sms}?body=${encodeURIComponent(t("phoneWays.stopWord"))}`}
          className="button"
          data-testid="sms-stop"
        >
          {t("phoneWays.smsStop")} “{t("phoneWays.stopWord")}” {spaced(numbers.sms)}
        </a>
      )}
    </div>
  );
}

/** The three numbers, each with what it does; the printable card's link where `card` says. */
export function PhoneNumbersCard({ numbers, card = false }: { numbers: PhoneNumbers; card?: boolean }) {
  const t = useT();
  const rows = [
    ["sms", numbers.sms, "phoneWays.sms"],
    ["stop", numbers.stop, "phoneWays.stop"],
    ["start", numbers.start, "phoneWays.start"],
  ] as const;
  if (rows.every(([, number]) => !number)) return null;
  return (
    <section className="card" aria-labelledby="phone-ways-title" data-testid="phone-numbers">
      <h2 id="phone-ways-title">{t("phoneWays.title")}</h2>
      <dl>
        {rows.map(
          ([line, number, label]) =>
            number && (
              <div key={line}>
                <dt>{t(label)}</dt>
                <dd>
                  <a href={`${line === "sms" ? "sms" : "tel"}:${number}`} data-testid={`number-${line}`}>
                    {spaced(number)}
                  </a>
                </dd>
              </div>
            ),
        )}
      </dl>
      <p className="muted">{t("phoneWays.who")}</p>
      {card && (
        <a href="/phone-card" data-testid="phone-card-link">
          {t("phoneWays.card")}
        </a>
      )}
    </section>
  );
}
