// What a call says, by code, in Hindi (the default) and English. A provider's text-to-speech
// reads these aloud (Twilio `<Say language="hi-IN">`, Exotel's greeting applet), so they are
// written to be heard once, on a noisy line: short sentences, the key to press said last.
// Words follow docs/glossary.md (tests/app/glossary.test.ts reads these too).
//
// An alert's call is its opening (what happened at which pump, one per kind of
// common/alert-channels.ts) followed by `stopOffer`; after the key, one of the outcomes says what
// the box confirmed (worker/alerts/call-keys.ts). A call to our voice menu asks `menu*` questions.
import { MOTOR_STOPPED_KINDS, type PhoneAlertKind } from "../../common/alert-channels.ts";
import type { SmsLanguage } from "./sms-templates.ts";

type VoiceVariable = "pumpName" | "digit" | "minutes" | "relay" | "time" | "amps" | "supply" | "reason";
type Script = { variables: readonly VoiceVariable[]; text: Record<SmsLanguage, string> };

export const VOICE_SCRIPTS = {
  callDryRun: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} ड्राई रन हुआ, इसलिए मोटर बंद कर दी गई। पानी का स्रोत देखें।",
      en: "Hello, this is Sinchai. Pump {pumpName} ran dry, so the motor was switched OFF. Check the water source.",
    },
  },
  callPhaseFault: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} पर फेज़ फॉल्ट है। फेज़ ठीक होने तक मोटर चालू नहीं हो सकती।",
      en: "Hello, this is Sinchai. There is a phase fault at pump {pumpName}. The motor cannot start until the phases are back.",
    },
  },
  callVoltageTrip: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} पर वोल्टेज सीमा से बाहर था, इसलिए मोटर बंद कर दी गई।",
      en: "Hello, this is Sinchai. The voltage at pump {pumpName} was out of limits, so the motor was switched OFF.",
    },
  },
  callOfflineWhileOn: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} का डिवाइस जवाब नहीं दे रहा, और मोटर चालू थी। पंप पर जाकर देखें।",
      en: "Hello, this is Sinchai. The box of pump {pumpName} stopped answering while the motor was ON. Go and check the pump.",
    },
  },
  callPowerBack: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} पर बिजली वापस आई। कोई चालू न करे तब तक मोटर बंद रहेगी।",
      en: "Hello, this is Sinchai. Power is back at pump {pumpName}. The motor stays OFF until someone switches it ON.",
    },
  },
  callScheduleMissed: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} का शेड्यूल नहीं चल सका। कारण ऐप में देखें।",
      en: "Hello, this is Sinchai. A schedule of pump {pumpName} could not run. See why in the app.",
    },
  },
  callTamper: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} के डिवाइस का ढक्कन खोला गया। चोरी हो सकती है, पंप पर जाकर देखें।",
      en: "Hello, this is Sinchai. The box of pump {pumpName} was opened. It may be theft. Go and check the pump.",
    },
  },
  callCableCut: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} की बिजली मोटर चलते हुए चली गई, पर आसपास के पंपों पर बिजली है। केबल कटी हो सकती है, पंप पर जाकर देखें।",
      en: "Hello, this is Sinchai. Pump {pumpName} lost power while the motor ran, but pumps nearby still have power. The cable may be cut. Go and check the pump.",
    },
  },
  /** Said after every alert's opening: the one key, which the keypress webhook reports. */
  stopOffer: {
    variables: [],
    text: {
      hi: "मोटर बंद करने के लिए 1 दबाएँ। कुछ न बदलना हो तो फ़ोन रख दें।",
      en: "To switch the motor OFF, press 1. To change nothing, hang up.",
    },
  },
  /** Said instead of `stopOffer` after the opening of a call about a motor already stopped (MOTOR_STOPPED_KINDS). */
  stateOffer: {
    variables: [],
    text: {
      hi: "मोटर का हाल सुनने के लिए 1 दबाएँ। कुछ न करना हो तो फ़ोन रख दें।",
      en: "To hear the motor's state, press 1. Otherwise, hang up.",
    },
  },
  /** 1 pressed: the box confirmed the motor is OFF. */
  stopConfirmed: {
    variables: [],
    text: {
      hi: "मोटर बंद हो गई, डिवाइस ने पुष्टि की। धन्यवाद।",
      en: "The motor is OFF: the box confirmed it. Thank you.",
    },
  },
  /** 1 pressed: the command went, but the box did not answer in time. */
  stopUnconfirmed: {
    variables: [],
    text: {
      hi: "डिवाइस ने जवाब नहीं दिया, मोटर चल रही हो सकती है। ऐप में देखें या पंप पर जाएँ।",
      en: "The box did not answer: the motor may still be running. Check the app or go to the pump.",
    },
  },
  /** 1 pressed: the box is offline, so nothing could reach it. */
  stopOffline: {
    variables: [],
    text: {
      hi: "पंप का डिवाइस ऑफ़लाइन है, इसलिए मोटर बंद नहीं हो सकी। पंप पर जाकर देखें।",
      en: "The pump's box is offline, so the motor could not be switched OFF. Go and check the pump.",
    },
  },
  /** 1 pressed: the box refused, or something else stood in the way. */
  stopFailed: {
    variables: [],
    text: {
      hi: "मोटर बंद नहीं हो सकी। ऐप में देखें या पंप पर जाएँ।",
      en: "The motor could not be switched OFF. Check the app or go to the pump.",
    },
  },
  /** 1 pressed by someone who may no longer switch this pump. */
  stopNotAllowed: {
    variables: [],
    text: {
      hi: "आप अब यह पंप नहीं चला सकते। कुछ नहीं बदला।",
      en: "You can no longer switch this pump. Nothing was changed.",
    },
  },
  /** A key for a call placed too long ago. */
  callExpired: {
    variables: [],
    text: {
      hi: "यह कॉल पुरानी हो गई है। कुछ नहीं बदला। ऐप में देखें।",
      en: "This call has expired. Nothing was changed. Check the app.",
    },
  },
  /** A key other than 1. */
  otherKey: {
    variables: ["digit"],
    text: {
      hi: "आपने {digit} दबाया। कुछ नहीं बदला। धन्यवाद।",
      en: "You pressed {digit}. Nothing was changed. Thank you.",
    },
  },
  /** A key that was already taken (a provider's retry): what it did was said then. */
  keypressReceived: {
    variables: ["digit"],
    text: {
      hi: "आपने {digit} दबाया। आपका जवाब मिल गया। धन्यवाद।",
      en: "You pressed {digit}. We have your answer. Thank you.",
    },
  },
  /** The call ran out of time without a key. */
  noKeypress: {
    variables: [],
    text: {
      hi: "कोई बटन नहीं दबाया गया। कुछ नहीं बदला। धन्यवाद।",
      en: "No key was pressed. Nothing was changed. Goodbye.",
    },
  },
  // The voice menu of a call to our number (worker/phone-control/voice-menu.ts): one question at
  // a time, each answered by one key, and what the box confirmed said back before hanging up.
  menuHello: {
    variables: [],
    text: { hi: "नमस्ते, सिंचाई से बोल रहे हैं।", en: "Hello, this is Sinchai." },
  },
  /** Several pumps: which one, by key (menuPumpChoice for each). */
  menuChoosePump: {
    variables: [],
    text: { hi: "पंप चुनें।", en: "Choose the pump." },
  },
  menuPumpChoice: {
    variables: ["pumpName", "digit"],
    text: { hi: "पंप {pumpName} के लिए {digit} दबाएँ।", en: "For pump {pumpName}, press {digit}." },
  },
  menuMain: {
    variables: ["pumpName"],
    text: {
      hi: "पंप {pumpName}। मोटर का हाल सुनने के लिए 1, मोटर चालू करने के लिए 2, बंद करने के लिए 3 दबाएँ।",
      en: "Pump {pumpName}. To hear the motor's state, press 1. To switch it ON, press 2. To switch it OFF, press 3.",
    },
  },
  menuMinutes: {
    variables: [],
    text: {
      hi: "कितनी देर? 15 मिनट के लिए 1, 30 मिनट के लिए 2, 60 मिनट के लिए 3 दबाएँ।",
      en: "For how long? For 15 minutes press 1, for 30 minutes press 2, for 60 minutes press 3.",
    },
  },
  menuWrongKey: {
    variables: [],
    text: { hi: "यह बटन मेनू में नहीं है।", en: "That key is not in the menu." },
  },
  menuState: {
    variables: ["relay", "time", "amps", "supply"],
    text: {
      hi: "मोटर {relay} है, {time} से। करंट {amps} एम्पियर। बिजली {supply}। धन्यवाद।",
      en: "The motor is {relay} since {time}. Current {amps} amps. Power at the pump: {supply}. Goodbye.",
    },
  },
  /** The last command got no answer: the hub says `unknown`. */
  menuStateUnknown: {
    variables: ["amps", "supply"],
    text: {
      hi: "मोटर चल रही है या नहीं, पता नहीं। करंट {amps} एम्पियर। बिजली {supply}। धन्यवाद।",
      en: "Whether the motor runs is not known for sure. Current {amps} amps. Power at the pump: {supply}. Goodbye.",
    },
  },
  menuStateOffline: {
    variables: [],
    text: {
      hi: "पंप का डिवाइस ऑफ़लाइन है, मोटर का हाल पता नहीं। पंप पर जाकर देखें।",
      en: "The pump's box is offline: the motor's state is not known. Go and check the pump.",
    },
  },
  menuStarted: {
    variables: ["minutes"],
    text: {
      hi: "मोटर चालू हो गई, डिवाइस ने पुष्टि की। {minutes} मिनट बाद अपने-आप बंद होगी। धन्यवाद।",
      en: "The motor is ON: the box confirmed it. It stops by itself after {minutes} minutes. Goodbye.",
    },
  },
  /** The box did not answer within 5 s, or dropped: said plainly, never guessed. */
  menuUnconfirmed: {
    variables: [],
    text: {
      hi: "डिवाइस ने जवाब नहीं दिया, पता नहीं कि मोटर चली या बंद हुई। ऐप में देखें या पंप पर जाएँ।",
      en: "The box did not answer: not known for sure whether the motor switched. Check the app or go to the pump.",
    },
  },
  menuNotDone: {
    variables: ["reason"],
    text: { hi: "आदेश नहीं हुआ: {reason}। धन्यवाद।", en: "Nothing was switched: {reason}. Goodbye." },
  },
} as const satisfies Record<string, Script>;

export type VoiceScriptCode = keyof typeof VOICE_SCRIPTS;
export const VOICE_SCRIPT_CODES = Object.keys(VOICE_SCRIPTS) as VoiceScriptCode[];

/** Each phone alert kind's opening. */
export const CALL_OPENINGS = {
  dryRun: "callDryRun",
  phaseFault: "callPhaseFault",
  voltageTrip: "callVoltageTrip",
  offlineWhileOn: "callOfflineWhileOn",
  powerBack: "callPowerBack",
  scheduleMissed: "callScheduleMissed",
  tamper: "callTamper",
  cableCut: "callCableCut",
} as const satisfies Record<PhoneAlertKind, VoiceScriptCode>;

/** What a call may say after its key, by code (worker/alerts/call-keys.ts chooses). */
export type CallOutcomeScript =
  | "stopConfirmed"
  | "stopUnconfirmed"
  | "stopOffline"
  | "stopFailed"
  | "stopNotAllowed"
  | "callExpired"
  | "noKeypress";

export function isPhoneAlertKind(value: string | null): value is PhoneAlertKind {
  return value !== null && Object.hasOwn(CALL_OPENINGS, value);
}

export type VoiceValues<Code extends VoiceScriptCode> = Record<
  (typeof VOICE_SCRIPTS)[Code]["variables"][number],
  string
>;

/** The words of a script with its values in place (each at most 40 characters, one line). */
export function voiceText<Code extends VoiceScriptCode>(
  script: Code,
  language: SmsLanguage,
  values: VoiceValues<Code>,
): string {
  return VOICE_SCRIPTS[script].text[language].replace(/\{([a-zA-Z]+)\}/g, (_, name: string) => {
    const value = (values as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`The voice script ${script} needs ${name}.`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
    return Array.from(value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim())
      .slice(0, 40)
      .join("");
  });
}

/**
 * What an alert's call says before it waits for the key: its opening, then the offer: to hear the
 * motor's state when the motor is already stopped (a dry run), else to stop it.
 */
export function alertCallText(kind: PhoneAlertKind, language: SmsLanguage, pumpName: string): string[] {
  const offer = MOTOR_STOPPED_KINDS.includes(kind) ? "stateOffer" : "stopOffer";
  return [voiceText(CALL_OPENINGS[kind], language, { pumpName }), voiceText(offer, language, {})];
}
