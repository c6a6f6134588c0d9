// What a call says, by code, in Hindi (the default) and English. A provider's text-to-speech
// reads these aloud (Twilio `<Say language="hi-IN">`, Exotel's greeting applet), so they are
// written to be heard once, on a noisy line: short sentences, the key to press said last.
// Words follow docs/glossary.md (tests/app/glossary.test.ts reads these too).
import type { SmsLanguage } from "./sms-templates.ts";

type Script = { variables: readonly ("pumpName" | "digit")[]; text: Record<SmsLanguage, string> };

export const VOICE_SCRIPTS = {
  /** The critical call: a motor needs the farmer, who may stop it with one key. */
  stopOffer: {
    variables: ["pumpName"],
    text: {
      hi: "नमस्ते, सिंचाई से कॉल है। पंप {pumpName} की मोटर चल रही है और उसे आपका ध्यान चाहिए। मोटर बंद करने के लिए 1 दबाएँ। कुछ न बदलना हो तो फ़ोन रख दें।",
      en: "Hello, this is Sinchai. The motor of pump {pumpName} is running and needs your attention. To switch the motor OFF, press 1. To change nothing, hang up.",
    },
  },
  /** After a key: what was pressed has been taken; what it led to is told by SMS and in the app. */
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
} as const satisfies Record<string, Script>;

export type VoiceScriptCode = keyof typeof VOICE_SCRIPTS;
export const VOICE_SCRIPT_CODES = Object.keys(VOICE_SCRIPTS) as VoiceScriptCode[];

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
