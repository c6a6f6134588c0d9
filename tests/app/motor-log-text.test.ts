// Motor log entries worded from their kind in both languages (common/i18n/motor-log.ts).
import { describe, expect, it } from "vitest";
import { wordsIn } from "../../common/i18n/dictionaries.ts";
import { motorLogEntryText, motorLogText } from "../../common/i18n/motor-log.ts";
import { MOTOR_LOG_KINDS, motorLogEventSchema } from "../../common/motor-log-event.ts";
import { MOTOR_LOG_EXAMPLES } from "./motor-log-examples.ts";

/** Latin words a Hindi sentence may keep: units and a phase's letter (times say सुबह, दोपहर, शाम, रात). */
const ALLOWED_LATIN = new Set(["A", "W", "V", "R", "Y", "B"]);

/** The Latin words left in a Hindi text once the box's quoted words are taken out. */
function latinWords(text: string): string[] {
  const unquoted = text.replace(/“[^”]*”/g, "");
  return (unquoted.match(/[A-Za-z]+/g) ?? []).filter((word) => !ALLOWED_LATIN.has(word));
}

describe("motor log catalogue", () => {
  it("has an example of every kind, each a valid event", () => {
    const covered = new Set(MOTOR_LOG_EXAMPLES.map((example) => example.event.kind));
    expect([...MOTOR_LOG_KINDS].filter((kind) => !covered.has(kind))).toEqual([]);
    for (const { event } of MOTOR_LOG_EXAMPLES) expect(motorLogEventSchema.parse(event)).toEqual(event);
  });

  it.each(MOTOR_LOG_EXAMPLES.map((example) => [example.english, example] as const))(
    "English: %s",
    (english, { event }) => {
      expect(motorLogText(event, wordsIn("en"))).toBe(english);
    },
  );

  it.each(
    MOTOR_LOG_EXAMPLES.filter((example) => example.event.kind !== "legacy").map(
      (example) => [example.english, example] as const,
    ),
  )("Hindi, with no English word but units and quoted box words: %s", (_, { event }) => {
    const hindi = motorLogText(event, wordsIn("hi"));
    expect(hindi).toMatch(/[\u0900-\u097F]/);
    expect(latinWords(hindi)).toEqual([]);
    expect(hindi).not.toContain("{");
  });

  it("quotes the box's own words in Hindi and keeps them as written", () => {
    expect(
      motorLogText(
        { kind: "otaFailed", version: "2.4.0", reason: "box", error: "SHA-256 mismatch", firmware: null },
        wordsIn("hi"),
      ),
    ).toBe("फ़र्मवेयर 2.4.0 का अपडेट नहीं हो सका: डिवाइस ने कहा “SHA-256 mismatch”।");
    expect(motorLogText({ kind: "phaseFault", phase: null, detail: "R-Y imbalance 12%" }, wordsIn("hi"))).toBe(
      "फेज़ फॉल्ट पाया गया (डिवाइस ने कहा: “R-Y imbalance 12%”)। मोटर चलाना बंद है।",
    );
    // A phase the box named as a code is worded, not quoted.
    expect(motorLogText({ kind: "phaseFault", phase: "Y", detail: "Phase Y missing" }, wordsIn("hi"))).toBe(
      "फेज़ फॉल्ट पाया गया (Y फेज़ में)। मोटर चलाना बंद है।",
    );
  });

  it("words what the old Hindi screens said the same way", () => {
    const hi = (english: string) =>
      motorLogText(MOTOR_LOG_EXAMPLES.find((example) => example.english === english)!.event, wordsIn("hi"));
    expect(hi("Motor turned ON from the app")).toBe("मोटर चालू की गई (ऐप से)");
    expect(hi("Motor turned ON by schedule (12:45 PM, daily, for 90 minutes)")).toBe(
      "मोटर चालू की गई (शेड्यूल से: दोपहर 12:45, रोज़, 90 मिनट के लिए)",
    );
    expect(hi("Scheduled ON at 5:30 AM was missed: the device was offline.")).toBe(
      "सुबह 5:30 का शेड्यूल (चालू) छूट गया: डिवाइस ऑफ़लाइन था।",
    );
    expect(hi("Power cut at the pump. Motor stopped.")).toBe("पंप पर बिजली कट गई। मोटर रुक गई।");
  });

  it("counts minutes with plurals in English", () => {
    expect(motorLogText({ kind: "scheduleOffGivenUp", afterMinutes: 1 }, wordsIn("en"))).toBe(
      "Scheduled switch-off (after 1 minute) was given up after a day of failed attempts. Check the pump.",
    );
  });

  it("words entries as pages get them, and shows the server's words for a kind the page does not know", () => {
    const entry = (kind: string, params: Record<string, never> | Record<string, string>) => ({
      kind,
      params,
      logMessage: "as the server said",
    });
    expect(motorLogEntryText({ kind: "phaseOk", params: {}, logMessage: "Phase is OK now." }, wordsIn("hi"))).toBe(
      "फेज़ अब ठीक है।",
    );
    expect(motorLogEntryText(entry("pumpStolen", {}), wordsIn("hi"))).toBe("as the server said");
    expect(motorLogEntryText(entry("toString", {}), wordsIn("hi"))).toBe("as the server said");
    // Parameters a page cannot read (a different server) never break the list.
    expect(() => motorLogEntryText(entry("switched", {}), wordsIn("hi"))).not.toThrow();
  });
});
