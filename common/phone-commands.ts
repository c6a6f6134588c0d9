// The words a farmer may send from any phone to switch a pump (docs/telephony.md, "Switching
// from any phone"): ON 30 / चालू 30, OFF / बंद, STATUS / स्थिति, in either script and any case,
// with Devanagari or Latin digits, in the spellings farmers write (बन्द, चालु) and among the words
// that only make a command polite (मोटर बंद करो), and after them a pump's name or the last characters of its
// box's id when the farmer has several; before them, the pump's SMS PIN where its owner set one
// ("1234 चालू 30", as GSM starters take it). Read the same way by the Worker and the docs' tests.

/** How long an ON from a phone may ask to run, in minutes (the hub switches it off then). */
export const PHONE_RUN_MINUTES = { min: 1, max: 480 } as const;
/** The runs the voice menu offers, by key: 1, 2, 3. */
export const VOICE_MENU_RUNS = [15, 30, 60] as const;

export type PhoneAction = { kind: "on"; minutes: number | null } | { kind: "off" } | { kind: "status" };

/** A command as sent: what to do, the words that name the pump and the PIN before them (null: none given). */
export type PhoneCommand = { action: PhoneAction; pump: string | null; pin: string | null };

/** An SMS PIN is this many digits (a GSM starter's password is 4). */
export const SMS_PIN_LENGTH = 4;
export const SMS_PIN_PATTERN = new RegExp(`^[0-9]{${SMS_PIN_LENGTH}}$`);

/**
 * Each command word in both scripts (and the Hindi words as people type them in Latin letters),
 * compared as `spellingKey` writes them, so `बन्द`, `चालु`, `स्थिती` and `ऑफ़` need no rows of their
 * own. `stop` is an OFF (docs/decisions/046-stop-by-sms-stops.md).
 */
export const PHONE_COMMAND_WORDS = {
  on: ["on", "ऑन", "चालू", "chalu", "chaalu", "chaloo", "chaaloo"],
  off: ["off", "ऑफ", "बंद", "बंध", "band", "bandh", "stop", "स्टॉप", "स्टाप"],
  status: ["status", "स्टेटस", "स्थिति", "sthiti", "sthithi", "stithi"],
} as const;

/**
 * Words around a command that only make it polite or plain ("मोटर बंद कर दो", "off karo"): left
 * out before and after the verb, after the minutes and at the end, never inside a pump's name.
 */
export const PHONE_FILLER_WORDS = [
  "मोटर",
  "करो",
  "कर",
  "करें",
  "करे",
  "करना",
  "दो",
  "दें",
  "दे",
  "दीजिए",
  "दीजिये",
  "कीजिए",
  "कीजिये",
  "कृपया",
  "जी",
  "please",
  "pls",
  "plz",
  "motor",
  "karo",
  "kar",
  "kardo",
  "do",
  "dijiye",
  "kijiye",
  "ji",
] as const;

/** Words after the minutes: how many minutes one of them is. */
const UNIT_MINUTES: Record<string, number> = {
  मिनट: 1,
  मिनिट: 1,
  min: 1,
  mins: 1,
  minute: 1,
  minutes: 1,
  घंटा: 60,
  घंटे: 60,
  ghanta: 60,
  ghante: 60,
  hour: 60,
  hours: 60,
  hr: 60,
  hrs: 60,
};

/**
 * A word as the reader compares it, whatever spelling of it a farmer typed: no nukta (`फ़` is
 * `फ`), `ँ` as `ं`, a nasal consonant with a virama before another consonant as `ं` (`बन्द` is
 * `बंद`), the long `ू` and `ी` as the short `ु` and `ि` (`चालु`, `स्थिती`).
 */
export function spellingKey(word: string): string {
  return word
    .normalize("NFD")
    .replace(/\u093c/g, "")
    .normalize("NFC")
    .replace(/\u0901/g, "\u0902")
    .replace(/[\u0919\u091e\u0923\u0928\u092e]\u094d(?=[\u0915-\u0939])/g, "\u0902")
    .replace(/\u0942/g, "\u0941")
    .replace(/\u0940/g, "\u093f")
    .replace(/\u090a/g, "\u0909")
    .replace(/\u0908/g, "\u0907");
}

const VERBS = new Map<string, keyof typeof PHONE_COMMAND_WORDS>(
  Object.entries(PHONE_COMMAND_WORDS).flatMap(([verb, words]) =>
    words.map((word) => [spellingKey(word), verb as keyof typeof PHONE_COMMAND_WORDS] as const),
  ),
);
const FILLERS = new Set<string>(PHONE_FILLER_WORDS.map(spellingKey));
const UNITS = new Map(Object.entries(UNIT_MINUTES).map(([word, minutes]) => [spellingKey(word), minutes]));

/** Devanagari digits (०-९) as Latin ones, as phones with a Hindi keyboard type them. */
function latinDigits(text: string): string {
  return text.replace(/[\u0966-\u096f]/g, (digit) => String(digit.charCodeAt(0) - 0x0966));
}

/** The text as the reader compares it: NFC, Latin digits, single spaces, lower case. */
export function normalisedWords(text: string): string {
  return latinDigits(text.normalize("NFC")).replace(/\s+/g, " ").trim().toLowerCase();
}

/** `words` from `from` on without the filler words at their start. */
function skipFillers(words: readonly string[], from: number): number {
  let index = from;
  while (index < words.length && FILLERS.has(spellingKey(words[index]!))) index++;
  return index;
}

/** Minutes written at `words[index]` (with a unit word after them, or none): how many and where they end. */
function minutesAt(words: readonly string[], index: number): { minutes: number; next: number } | null {
  const number = words[index];
  if (number === undefined || !/^[0-9]{1,4}$/.test(number)) return null;
  const unit = words[index + 1] === undefined ? undefined : UNITS.get(spellingKey(words[index + 1]!));
  return { minutes: Number(number) * (unit ?? 1), next: unit === undefined ? index + 1 : index + 2 };
}

/** The command in an SMS, or null when it is none (an unknown word, minutes out of range). */
export function readPhoneCommand(text: string): PhoneCommand | null {
  const words = normalisedWords(text).split(" ");
  let index = skipFillers(words, 0);
  let pin: string | null = null;
  if (SMS_PIN_PATTERN.test(words[index] ?? "")) {
    pin = words[index]!;
    index = skipFillers(words, index + 1);
  }
  // "30 मिनट चालू": the minutes before the verb.
  const before = minutesAt(words, index);
  if (before) index = skipFillers(words, before.next);
  const verb = VERBS.get(spellingKey(words[index] ?? ""));
  if (!verb || (before && verb !== "on")) return null;
  index = skipFillers(words, index + 1);
  let action: PhoneAction;
  if (verb === "on") {
    const after = before ? null : minutesAt(words, index);
    const minutes = before?.minutes ?? after?.minutes ?? null;
    if (minutes !== null && (minutes < PHONE_RUN_MINUTES.min || minutes > PHONE_RUN_MINUTES.max)) return null;
    if (after) index = skipFillers(words, after.next);
    action = { kind: "on", minutes };
  } else {
    action = { kind: verb };
  }
  let end = words.length;
  while (end > index && FILLERS.has(spellingKey(words[end - 1]!))) end--;
  const pump = words.slice(index, end).join(" ");
  return { action, pump: pump === "" ? null : pump, pin };
}

/**
 * Which of the caller's pumps `words` names: the one whose name is those words (any case and
 * spacing), else the one whose box id ends with them (letters and digits only, at least 2).
 * None given: the only pump. Null when none or more than one fits.
 */
export function choosePump<Pump extends { deviceId: string; name: string | null }>(
  pumps: readonly Pump[],
  words: string | null,
): Pump | null {
  if (words === null) return pumps.length === 1 ? pumps[0]! : null;
  const wanted = normalisedWords(words);
  const named = (name: string) => spellingKey(normalisedWords(name)) === spellingKey(wanted);
  const byName = pumps.filter((pump) => pump.name !== null && named(pump.name));
  if (byName.length === 1) return byName[0]!;
  const tail = wanted.replace(/[^a-z0-9]/g, "");
  if (tail.length < 2) return null;
  const byId = pumps.filter((pump) =>
    pump.deviceId
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .endsWith(tail),
  );
  return byId.length === 1 ? byId[0]! : null;
}
