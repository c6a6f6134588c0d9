// The phone's ways to switch a pump without data (docs/telephony.md, "The numbers"), rendered on
// the server as HTML in the reader's language: links a phone dials or texts, so they are what a
// farmer has when the app cannot switch. The page only places this HTML; the dashboard's script
// is held to a byte budget (tests/e2e/page-weight.spec.ts) and carries none of it.
import { translate } from "../common/i18n/dictionaries.ts";
import type { Language } from "../common/i18n/language.ts";
import { phoneNumbersOf } from "../worker/services/phone-numbers.ts";

export type PhoneWaysHtml = {
  /** The switch card's line and two big links to stop the motor (a call, an SMS with the stop word). */
  stop: string;
  /** The three numbers, each with what it does, and who may use them (and the card's link where asked). */
  list: string;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** "+918000000002" as a person reads it from a card: "+91 80000 00002". */
const spaced = (number: string) => number.replace(/^\+91(\d{5})(\d{5})$/, "+91 $1 $2");

const link = (id: string, href: string, text: string, className?: string) =>
  `<a href="${escapeHtml(href)}"${className ? ` class="${className}"` : ""} data-testid="${id}">${escapeHtml(text)}</a>`;

/** This environment's numbers as HTML in `language`, or null when none is configured. */
export function phoneWaysOf(env: Env, language: Language, { card = false } = {}): PhoneWaysHtml | null {
  const { sms, stop, start } = phoneNumbersOf(env);
  if (!sms && !stop && !start) return null;
  const t = (key: Parameters<typeof translate>[1]) => translate(language, key);
  const stopWord = t("phoneWays.stopWord");
  const stopLinks = [
    stop && link("call-stop", `tel:${stop}`, `${t("phoneWays.callStop")} ${spaced(stop)}`, "button danger"),
    sms &&
      link(
        "sms-stop",
        `sms:${sms}?body=${encodeURIComponent(stopWord)}`,
        `${t("phoneWays.smsStop")} “${stopWord}” ${spaced(sms)}`,
        "button",
      ),
  ];
  const rows = [
    sms && [link("number-sms", `sms:${sms}`, spaced(sms)), t("phoneWays.sms")],
    stop && [link("number-stop", `tel:${stop}`, spaced(stop)), t("phoneWays.stop")],
    start && [link("number-start", `tel:${start}`, spaced(start)), t("phoneWays.start")],
  ].filter((row): row is string[] => Boolean(row));
  return {
    stop: `<p>${escapeHtml(t("phoneWays.noData"))}</p>${stopLinks.filter(Boolean).join("")}`,
    list:
      `<h2>${escapeHtml(t("phoneWays.title"))}</h2><dl>` +
      rows.map(([a, label]) => `<div><dt>${escapeHtml(label!)}</dt><dd>${a}</dd></div>`).join("") +
      `</dl><p class="muted">${escapeHtml(t("phoneWays.who"))}</p>` +
      (card ? link("phone-card-link", "/phone-card", t("phoneWays.card")) : ""),
  };
}
