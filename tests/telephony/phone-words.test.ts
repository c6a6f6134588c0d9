// The words a reply to a phone fills in for a wait and a run's length: the real wait of the
// hub's pause after a command (the constant the app counts down), in seconds under a minute, and
// plurals by Intl in both languages ("1 minute", never "1 minutes"); each fits its SMS variable.
import { describe, expect, it } from "vitest";
import { MOTOR_COOLDOWN_MS } from "../../common/constants.ts";
import { PHONE_RUN_MINUTES } from "../../common/phone-commands.ts";
import { reasonWords, runWords } from "../../worker/phone-control/phone-words.ts";
import { fitVariable, SMS_LANGUAGES } from "../../worker/telephony/sms-templates.ts";

describe("a reply's wait and run", () => {
  it("says the pause after a command in seconds, as long as the hub said is left, else the whole pause", () => {
    expect(MOTOR_COOLDOWN_MS).toBe(10_000);
    expect(reasonWords("wait", "hi")).toBe("10 सेकंड बाद फिर भेजें");
    expect(reasonWords("wait", "en")).toBe("wait 10 seconds and send again");
    expect(reasonWords("wait", "hi", 3_200)).toBe("4 सेकंड बाद फिर भेजें");
    expect(reasonWords("wait", "en", 900)).toBe("wait 1 second and send again");
    expect(reasonWords("wait", "en", 60_000)).toBe("wait 1 minute and send again");
  });

  it("writes a run's length with Intl's units and plurals", () => {
    expect(runWords(1, "en")).toBe("1 minute");
    expect(runWords(30, "en")).toBe("30 minutes");
    expect(runWords(90, "en")).toBe("1 hour 30 minutes");
    expect(runWords(1, "hi")).toBe("1 मिनट");
    expect(runWords(120, "hi")).toBe("2 घंटे");
    expect(runWords(60, "hi")).toBe("1 घंटा");
  });

  it("fits the SMS variables for every run from a phone and every wait the pause can ask", () => {
    for (const language of SMS_LANGUAGES) {
      for (let minutes = PHONE_RUN_MINUTES.min; minutes <= PHONE_RUN_MINUTES.max; minutes++) {
        expect(fitVariable("duration", runWords(minutes, language))).toBe(runWords(minutes, language));
      }
      for (let ms = 1; ms <= MOTOR_COOLDOWN_MS; ms += 250) {
        expect(() => fitVariable("reason", reasonWords("wait", language, ms))).not.toThrow();
      }
      for (const reason of [
        "offline",
        "phaseFault",
        "noSupply",
        "voltage",
        "refused",
        "updating",
        "pin",
        "pinLocked",
      ] as const) {
        expect(() => fitVariable("reason", reasonWords(reason, language))).not.toThrow();
      }
    }
  });
});
