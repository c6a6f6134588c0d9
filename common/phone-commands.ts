// The words a farmer may send from any phone to switch a pump (docs/telephony.md, "Switching
// from any phone"): ON 30 / चालू 30, OFF / बंद, STATUS / स्थिति, in either script and any case,
// with Devanagari or Latin digits, and after them a pump's name or the last characters of its
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

/** Each command word, lower-cased, in both scripts (and the Hindi words as people type them in Latin letters). */
export const PHONE_COMMAND_WORDS = {
  on: ["on", "चालू", "chalu", "chaalu"],
  off: ["off", "बंद", "band", "bandh"],
  status: ["status", "स्थिति", "sthiti"],
} as const;

const VERBS = new Map<string, keyof typeof PHONE_COMMAND_WORDS>(
  Object.entries(PHONE_COMMAND_WORDS).flatMap(([verb, words]) =>
    words.map((word) => [word, verb as keyof typeof PHONE_COMMAND_WORDS] as const),
  ),
);

/** Devanagari digits (०-९) as Latin ones, as phones with a Hindi keyboard type them. */
function latinDigits(text: string): string {
  return text.replace(/[\u0966-\u096f]/g, (digit) => String(digit.charCodeAt(0) - 0x0966));
}

/** The text as the reader compares it: NFC, Latin digits, single spaces, lower case. */
export function normalisedWords(text: string): string {
  return latinDigits(text.normalize("NFC")).replace(/\s+/g, " ").trim().toLowerCase();
}

/** The command in an SMS, or null when it is none (an unknown word, minutes out of range). */
export function readPhoneCommand(text: string): PhoneCommand | null {
  let [first = "", ...rest] = normalisedWords(text).split(" ");
  let pin: string | null = null;
  if (SMS_PIN_PATTERN.test(first)) {
    pin = first;
    [first = "", ...rest] = rest;
  }
  const verb = VERBS.get(first);
  if (!verb) return null;
  let words = rest;
  let action: PhoneAction;
  if (verb === "on") {
    let minutes: number | null = null;
    if (words[0] !== undefined && /^[0-9]{1,4}$/.test(words[0])) {
      minutes = Number(words[0]);
      if (minutes < PHONE_RUN_MINUTES.min || minutes > PHONE_RUN_MINUTES.max) return null;
      words = words.slice(1);
    }
    action = { kind: "on", minutes };
  } else {
    action = { kind: verb };
  }
  const pump = words.join(" ");
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
  const byName = pumps.filter((pump) => pump.name !== null && normalisedWords(pump.name) === wanted);
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
