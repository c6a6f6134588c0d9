// Motor logs are written once, in English, by the DeviceHub (and stored in D1 for admins).
// Hindi readers get the known messages in Hindi; anything unknown is shown as written.
import type { Language } from "./i18n/i18n.ts";

const ON = "मोटर चालू की गई";
const OFF = "मोटर बंद की गई";

const REPEAT: Record<string, string> = { daily: "रोज़", once: "एक बार" };

/** "6:00 AM, daily, for 30 minutes" → "6:00 AM, रोज़, 30 मिनट के लिए" */
function scheduleNote(note: string): string {
  return note
    .split(", ")
    .map((part) => REPEAT[part] ?? part.replace(/^for (\d+) minutes$/, "$1 मिनट के लिए").replace(/^after (\d+) minutes$/, "$1 मिनट बाद"))
    .join(", ");
}

const SOURCES: [RegExp, (match: RegExpExecArray) => string][] = [
  [/^ from the app$/, () => " (ऐप से)"],
  [/^ by schedule(?: \((.+)\))?$/, (m) => ` (शेड्यूल से${m[1] ? `: ${scheduleNote(m[1])}` : ""})`],
  [/^ \(switched at the box\)$/, () => " (डिवाइस पर हाथ से)"],
  [/^ \(by the box's schedule\)$/, () => " (डिवाइस के अपने शेड्यूल से)"],
  [/^ \(box restarted\)$/, () => " (डिवाइस दोबारा चालू हुआ)"],
  [/^ \(reported by the box\)$/, () => " (डिवाइस ने बताया)"],
  [/^ \(reported by the box when it reconnected\)$/, () => " (दोबारा जुड़ने पर डिवाइस ने बताया)"],
  [/^ \(restarted by the box after the power cut\)$/, () => " (बिजली कटने के बाद डिवाइस ने खुद चालू की)"],
];

/** " from the app", " by schedule (6:00 AM, daily)", " by the server: <why>" → Hindi. */
function commandSource(source: string): string {
  for (const [pattern, render] of SOURCES) {
    const match = pattern.exec(source);
    if (match) return render(match);
  }
  const server = /^ by the server: (.+)$/.exec(source);
  return server ? ` (सर्वर से: ${server[1]})` : source;
}

const MESSAGES: [RegExp, (match: RegExpExecArray) => string][] = [
  [
    /^Motor (ON|OFF)( from the app| by schedule(?: \(.+\))?| by the server: .+): the box (did not confirm it|went offline before confirming it) \(the motor may (?:still )?be running\)\.$/,
    (m) =>
      `मोटर ${m[1] === "ON" ? "चालू" : "बंद"} करने का आदेश${commandSource(m[2]!)}: ${
        m[3] === "did not confirm it" ? "डिवाइस ने पुष्टि नहीं की" : "पुष्टि से पहले डिवाइस ऑफ़लाइन हो गया"
      } (मोटर चल रही हो सकती है)।`,
  ],
  [/^Motor is running without a confirmed command \((.+) A\)\.$/, (m) => `मोटर बिना पक्के आदेश के चल रही है (${m[1]} A)।`],
  [/^Motor is ON but draws no current\.$/, () => "मोटर चालू है पर करंट नहीं ले रही।"],
  [/^Dry run detected\. Motor turned OFF automatically\.$/, () => "ड्राई रन पाया गया। मोटर अपने आप बंद हो गई।"],
  [/^Overcurrent detected\. Motor turned OFF!$/, () => "ओवरकरंट पाया गया। मोटर बंद हो गई!"],
  [/^Phase fault detected(?:: (.+))?\. Motor operation is disabled\.$/, (m) => `फेज़ फॉल्ट पाया गया${m[1] ? ` (${m[1]})` : ""}। मोटर चलाना बंद है।`],
  [/^Phase is OK now\.$/, () => "फेज़ अब ठीक है।"],
  [/^Power cut at the pump\. Motor stopped\.$/, () => "पंप पर बिजली कट गई। मोटर रुक गई।"],
  [/^Power is back at the pump\. The motor stays OFF until someone switches it on\.$/, () => "पंप पर बिजली वापस आ गई। कोई चालू करे तब तक मोटर बंद रहेगी।"],
  [/^Motor turned OFF by the server: (.+)\.$/, (m) => `सर्वर ने मोटर बंद की: ${m[1]}।`],
  [/^Firmware updated to (.+)\.$/, (m) => `फ़र्मवेयर ${m[1]} पर अपडेट हुआ।`],
  [/^Firmware update to (.+) started\.$/, (m) => `फ़र्मवेयर ${m[1]} का अपडेट शुरू हुआ।`],
  [/^Firmware update to (\S+) failed: (.+)\.$/, (m) => `फ़र्मवेयर ${m[1]} का अपडेट विफल: ${m[2]}।`],
  [/^Scheduled (ON|OFF) at (.+) was missed: the device was offline\.$/, (m) => `${m[2]} का शेड्यूल (${m[1] === "ON" ? "चालू" : "बंद"}) छूट गया: डिवाइस ऑफ़लाइन था।`],
  [/^Scheduled (ON|OFF) at (.+) was missed: the server could not run it on time\.$/, (m) => `${m[2]} का शेड्यूल (${m[1] === "ON" ? "चालू" : "बंद"}) छूट गया: सर्वर समय पर नहीं चला सका।`],
  [/^Scheduled (ON|OFF) at (.+) was not carried out: (.+)\.$/, (m) => `${m[2]} का शेड्यूल (${m[1] === "ON" ? "चालू" : "बंद"}) पूरा नहीं हुआ: ${m[3]}।`],
  [/^Scheduled switch-off \((.+)\) failed: (.+)\. Trying again every minute\.$/, (m) => `शेड्यूल से बंद करना (${scheduleNote(m[1]!)}) विफल: ${m[2]}। हर मिनट फिर कोशिश होगी।`],
];

export function logText(message: string, language: Language): string {
  if (language === "en") return message;
  const motor = /^Motor turned (ON|OFF)(.*?)( \((confirmed late|confirmed when the box reconnected)\))?$/.exec(message);
  if (motor && !message.startsWith("Motor turned OFF by the server")) {
    const base = motor[1] === "ON" ? ON : OFF;
    const confirmed = !motor[4] ? "" : motor[4] === "confirmed late" ? " (देर से पुष्टि)" : " (दोबारा जुड़ने पर पुष्टि)";
    if (motor[2] === "") return base + confirmed;
    for (const [pattern, render] of SOURCES) {
      const match = pattern.exec(motor[2]!);
      if (match) return base + render(match) + confirmed;
    }
  }
  for (const [pattern, render] of MESSAGES) {
    const match = pattern.exec(message);
    if (match) return render(match);
  }
  return message;
}
