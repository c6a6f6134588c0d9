// Every SMS the product sends. India's operators deliver a business SMS only when it matches a
// template registered on a DLT platform (TRAI's TCCCPR 2018): fixed text with `{#var#}` where
// the values go, registered per language, each with its own template id. So no sentence is ever
// composed here: a template is chosen by code and its variables filled. The ids live in
// `wrangler.toml` (`TELEPHONY_DLT_TEMPLATES`, "<code>.<language>"), per environment.
//
// The texts name their variables (`{pumpName}`) so that each language can place them in its own
// order; `dltText` writes what is registered on DLT. Hindi is always UCS-2, 70 characters an SMS
// and 67 a part once split (sms-segments.ts): codes must fit one SMS and everything else two,
// with every variable at its longest (tests/telephony/sms-templates.test.ts).
import { countSmsSegments, type SmsSegments } from "./sms-segments.ts";

export type SmsLanguage = "hi" | "en";
export const SMS_LANGUAGES: readonly SmsLanguage[] = ["hi", "en"];

/**
 * What may fill a `{#var#}`. DLT allows up to 30 characters a variable; ours are shorter so the
 * whole SMS stays in budget. `cut`: a longer value is shortened (a pump's name), else refused.
 */
export const SMS_VARIABLES = {
  /** A one-time code (worker/auth/one-time-codes.ts). */
  code: { maxLength: 6, pattern: /^[0-9]{6}$/, cut: false },
  /** The pump's name as its owner wrote it (up to 40 characters in the app), or the box's id. */
  pumpName: { maxLength: 20, pattern: /^[^\n\r]+$/u, cut: true },
  /** A 10-digit mobile number: who invited, who started a motor by phone. */
  mobileNo: { maxLength: 10, pattern: /^[1-9][0-9]{9}$/, cut: false },
  /** A time of day as the reader's language writes it ("10:45 PM", "रात 10:45"). */
  time: { maxLength: 12, pattern: /^[0-9: APM\u0900-\u097F]+$/u, cut: false },
  /**
   * The app's address (whitelisted on DLT with the template): https, or local mode's plain
   * http on loopback with a port, which only the local provider ever receives.
   */
  url: {
    maxLength: 30,
    pattern: /^(https:\/\/[A-Za-z0-9./-]+|http:\/\/(localhost|127\.0\.0\.1):[0-9]{1,5})$/,
    cut: false,
  },
  /**
   * How long an "ON for N minutes" from a phone runs, in the reader's units by Intl, its two
   * largest ("1 minute", "30 मिनट", "1 hour 30 minutes"): a plural no template could spell.
   */
  duration: { maxLength: 20, pattern: /^[0-9]{1,3} [\p{L}\p{M}]+( [0-9]{1,2} [\p{L}\p{M}]+)?$/u, cut: false },
  /**
   * Why a command from a phone was not carried out, and the motor's and the supply's state in
   * a STATUS reply: always our own words for a code (worker/phone-control/phone-words.ts), never a box's.
   */
  reason: { maxLength: 30, pattern: /^[^\n\r]+$/u, cut: false },
  relay: { maxLength: 12, pattern: /^[^\n\r]+$/u, cut: false },
  supply: { maxLength: 10, pattern: /^[^\n\r]+$/u, cut: false },
  /** A date as the reader's language writes it (common/i18n/format.ts: "8 दिस॰ 2027", "8 Dec 2027"). */
  date: { maxLength: 14, pattern: /^[0-9A-Za-z .\u0900-\u097F]+$/u, cut: false },
  /** Rupees as the reader's language writes them, whole or with paise ("₹1,111", "₹1,111.50"). */
  rupees: { maxLength: 12, pattern: /^₹[0-9,]{1,9}(\.[0-9]{2})?$/u, cut: false },
  /** Our receipt number of a payment ("sinchai-123"): the farmer quotes it to support. */
  receipt: { maxLength: 20, pattern: /^sinchai-[0-9]{1,12}$/, cut: false },
  /** The motor's current in amps, one decimal, or "-". */
  amps: { maxLength: 5, pattern: /^([0-9]{1,3}(\.[0-9])?|-)$/, cut: false },
} as const satisfies Record<string, { maxLength: number; pattern: RegExp; cut: boolean }>;
export type SmsVariable = keyof typeof SMS_VARIABLES;

type Template = {
  /** The variables, each used once in every language. */
  variables: readonly SmsVariable[];
  /** How many SMS it may cost at most, in either language, filled at its longest. */
  budget: 1 | 2;
  text: Record<SmsLanguage, string>;
};

export const SMS_TEMPLATES = {
  /** Registration, sign-in and checking a number: the same words, the code says what it is. */
  signInCode: {
    variables: ["code"],
    budget: 1,
    text: {
      hi: "{code} आपका सिंचाई कोड है। 5 मिनट चलेगा। किसी को न बताएँ।",
      en: "{code} is your Sinchai code. It works for 5 minutes. Do not share it with anyone.",
    },
  },
  /** An installer links a box to this number (docs/decisions/033-installers.md): the farmer reads the code to them. */
  boxClaimCode: {
    variables: ["code", "mobileNo"],
    budget: 1,
    text: {
      hi: "{code} सिंचाई कोड: इंस्टॉलर {mobileNo} पंप जोड़ेंगे। उन्हें ही दें।",
      en: "{code} is your Sinchai code: installer {mobileNo} links a pump box to your number. Give it only to them.",
    },
  },
  passwordResetCode: {
    variables: ["code"],
    budget: 1,
    text: {
      hi: "{code} सिंचाई में नया पासवर्ड रखने का कोड है। किसी को न बताएँ।",
      en: "{code} is your Sinchai code to set a new password. It works for 5 minutes. Do not share it.",
    },
  },
  invitation: {
    variables: ["mobileNo", "pumpName", "url"],
    budget: 2,
    text: {
      hi: "सिंचाई: {mobileNo} ने आपको पंप {pumpName} से जोड़ा है। ऐप में न्योता स्वीकार करें: {url}",
      en: "Sinchai: {mobileNo} added you to the pump {pumpName}. Accept the invitation in the app: {url}",
    },
  },
  /** A recharge paid online was captured and the plan extended (docs/payments.md, "SMS"). */
  rechargeReceipt: {
    variables: ["rupees", "receipt", "pumpName", "date"],
    budget: 2,
    text: {
      hi: "सिंचाई: {rupees} मिले, रसीद {receipt}। पंप {pumpName} का प्लान अब {date} तक चलेगा।",
      en: "Sinchai: received {rupees}, receipt {receipt}. The plan of pump {pumpName} now runs until {date}.",
    },
  },
  /** A box's plan ends in 7 days, or in 1 (docs/payments.md, "Renewal reminders"). */
  planReminder: {
    variables: ["pumpName", "date", "url"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} का प्लान {date} को खत्म होगा। रिचार्ज करें: {url}/recharge",
      en: "Sinchai: the plan of pump {pumpName} ends on {date}. Recharge: {url}/recharge",
    },
  },
  alertPowerBack: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} पर बिजली वापस आई। कोई चालू न करे तब तक मोटर बंद रहेगी।",
      en: "Sinchai: power is back at pump {pumpName}. The motor stays OFF until someone switches it ON.",
    },
  },
  alertDryRun: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} सूखा चला, मोटर बंद कर दी गई। पानी का स्रोत देखें।",
      en: "Sinchai: pump {pumpName} ran dry and the motor was switched OFF. Check the water source.",
    },
  },
  alertPhaseFault: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} पर फेज़ फॉल्ट। फेज़ ठीक होने तक मोटर चालू नहीं हो सकती।",
      en: "Sinchai: phase fault at pump {pumpName}. The motor cannot start until the phases are back.",
    },
  },
  alertVoltageTrip: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} पर वोल्टेज सीमा से बाहर था, इसलिए मोटर बंद कर दी गई।",
      en: "Sinchai: the voltage at pump {pumpName} was out of limits and the motor was switched OFF.",
    },
  },
  alertOfflineWhileOn: {
    variables: ["pumpName", "time"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} के डिवाइस ने {time} से जवाब नहीं दिया, तब मोटर चालू थी। पंप देखें।",
      en: "Sinchai: the box of pump {pumpName} stopped answering at {time} while the motor was ON. Check it.",
    },
  },
  /** A clock schedule or a power window that could not run. */
  alertScheduleMissed: {
    variables: ["pumpName", "time"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} का {time} का शेड्यूल नहीं चल सका। कारण ऐप में देखें।",
      en: "Sinchai: the {time} schedule of pump {pumpName} could not run. See why in the app.",
    },
  },
  /** The box's enclosure was opened (its tamper switch). */
  alertTamper: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} के डिवाइस का ढक्कन खोला गया। चोरी हो सकती है, पंप पर जाकर देखें।",
      en: "Sinchai: the box of pump {pumpName} was opened. It may be theft: go and check the pump.",
    },
  },
  /** Every phase gone while the motor ran, while pumps of the same feeder kept their supply. */
  alertCableCut: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} की बिजली मोटर चलते हुए गई, पर आसपास बिजली है। केबल कटी हो सकती है।",
      en: "Sinchai: pump {pumpName} lost power while the motor ran, but pumps nearby have power. The cable may be cut.",
    },
  },
  /** The box of a pump whose "offline while ON" alert went out is back: to whoever that alert reached. */
  alertBackOnline: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} का डिवाइस फिर जुड़ गया। मोटर का हाल ऐप में देखें।",
      en: "Sinchai: the box of pump {pumpName} is back online. See the motor's state in the app.",
    },
  },
  // Replies to a command from a phone (worker/phone-control/): what the box confirmed, or plainly
  // that it did not. The time is when the box answered.
  phoneOn: {
    variables: ["pumpName", "time"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} की मोटर {time} पर चालू हुई, डिवाइस ने पुष्टि की।",
      en: "Sinchai: the motor of pump {pumpName} is ON since {time}, confirmed by the box.",
    },
  },
  phoneOnFor: {
    variables: ["pumpName", "time", "duration"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} की मोटर {time} पर चालू हुई, {duration} बाद अपने-आप बंद होगी।",
      en: "Sinchai: the motor of pump {pumpName} is ON since {time} and stops by itself after {duration}.",
    },
  },
  phoneOff: {
    variables: ["pumpName", "time"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} की मोटर {time} पर बंद हुई, डिवाइस ने पुष्टि की।",
      en: "Sinchai: the motor of pump {pumpName} is OFF since {time}, confirmed by the box.",
    },
  },
  /** No answer from the box in time, or it dropped: the motor may or may not have switched. */
  phoneUnconfirmed: {
    variables: ["pumpName"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} के डिवाइस ने जवाब नहीं दिया, पता नहीं कि मोटर चली या बंद हुई। ऐप में देखें।",
      en: "Sinchai: the box of pump {pumpName} did not answer: not confirmed whether the motor switched. Check the app.",
    },
  },
  phoneNotDone: {
    variables: ["pumpName", "reason"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} पर आदेश नहीं हुआ: {reason}।",
      en: "Sinchai: pump {pumpName} did not switch: {reason}.",
    },
  },
  phoneStatus: {
    variables: ["pumpName", "relay", "time", "amps", "supply"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} की मोटर {relay} है, {time} से। करंट {amps} A, बिजली {supply}।",
      en: "Sinchai: pump {pumpName}: motor {relay} since {time}, current {amps} A, power {supply}.",
    },
  },
  /**
   * To the pump's owner when someone else (an operator) started its motor by phone: the box
   * confirmed it; who, by their number, and how to stop it from any phone.
   */
  phoneStartedByOther: {
    variables: ["pumpName", "time", "mobileNo"],
    budget: 2,
    text: {
      hi: "सिंचाई: पंप {pumpName} की मोटर {time} पर {mobileNo} ने फ़ोन से चालू की। रोकना हो तो बंद भेजें।",
      en: "Sinchai: {mobileNo} started the motor of pump {pumpName} by phone at {time}. To stop it, send OFF.",
    },
  },
  /** Words a verified number sent that are no command. */
  phoneHelp: {
    variables: [],
    budget: 2,
    text: {
      hi: "सिंचाई: चालू 30 (मिनट), बंद या स्थिति लिखें; ON 30, OFF, STATUS भी चलेगा। कई पंप हों तो पंप का नाम भी लिखें।",
      en: "Sinchai: send ON 30 (minutes), OFF or STATUS. With several pumps, add the pump's name or its box id's last digits.",
    },
  },
  /** A command that names no pump (or none of the sender's) from someone with several. */
  phoneWhichPump: {
    variables: [],
    budget: 2,
    text: {
      hi: "सिंचाई: आपके कई पंप हैं। आदेश के बाद पंप का नाम या डिवाइस नंबर के आख़िरी अंक लिखें, जैसे: बंद 4F2A",
      en: "Sinchai: you have several pumps. Add the pump's name or the last digits of its box id, e.g. OFF 4F2A",
    },
  },
} as const satisfies Record<string, Template>;

export type SmsTemplateCode = keyof typeof SMS_TEMPLATES;
export const SMS_TEMPLATE_CODES = Object.keys(SMS_TEMPLATES) as SmsTemplateCode[];

/** The values a template takes, by variable name. */
export type SmsValues<Code extends SmsTemplateCode> = Record<(typeof SMS_TEMPLATES)[Code]["variables"][number], string>;

/** The key of a template's DLT id in `TELEPHONY_DLT_TEMPLATES`. */
export function templateIdKey(code: SmsTemplateCode, language: SmsLanguage): string {
  return `${code}.${language}`;
}

/** The text as registered on DLT: every variable written `{#var#}`. */
export function dltText(code: SmsTemplateCode, language: SmsLanguage): string {
  return SMS_TEMPLATES[code].text[language].replace(/\{[a-zA-Z]+\}/g, "{#var#}");
}

const graphemes = new Intl.Segmenter("hi", { granularity: "grapheme" });

/**
 * A value made to fit its variable: a name cut whole letter by whole letter (a Devanagari
 * letter with its vowel sign is one) to its length in UTF-16 units, what an SMS counts, and
 * ended with "..", which stays GSM-7; any other value too long or malformed is an error.
 */
export function fitVariable(variable: SmsVariable, value: string): string {
  const rule = SMS_VARIABLES[variable];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  let text = value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (text.length > rule.maxLength) {
    if (!rule.cut) throw new Error(`The SMS variable ${variable} takes at most ${rule.maxLength} characters.`);
    let cut = "";
    for (const { segment } of graphemes.segment(text)) {
      if (cut.length + segment.length > rule.maxLength - 2) break;
      cut += segment;
    }
    text = `${cut.trimEnd()}..`;
  }
  if (!rule.pattern.test(text)) throw new Error(`Not a value for the SMS variable ${variable}.`);
  return text;
}

export type FilledSms = {
  template: SmsTemplateCode;
  language: SmsLanguage;
  text: string;
  segments: SmsSegments;
};

/** The SMS a template makes with these values, and what it costs. */
export function fillSmsTemplate<Code extends SmsTemplateCode>(
  template: Code,
  language: SmsLanguage,
  values: SmsValues<Code>,
): FilledSms {
  const text = SMS_TEMPLATES[template].text[language].replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => {
    const value = (values as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`The SMS template ${template} needs ${name}.`);
    return fitVariable(name as SmsVariable, value);
  });
  return { template, language, text, segments: countSmsSegments(text) };
}
