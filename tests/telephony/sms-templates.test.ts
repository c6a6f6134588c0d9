// India's SMS rules as the templates keep them: GSM-7 and UCS-2 segments counted as phones count
// them, every template at its longest within its budget (codes one SMS, the rest two) in both
// languages, DLT's `{#var#}` text, and a template id for every template and language in every
// environment of wrangler.toml.
import { describe, expect, it } from "vitest";
import { environmentNames, readWranglerToml } from "../../scripts/lib/environments.ts";
import { messageTime } from "../../worker/services/message-time.ts";
import { countSmsSegments } from "../../worker/telephony/sms-segments.ts";
import {
  dltText,
  fillSmsTemplate,
  fitVariable,
  SMS_LANGUAGES,
  SMS_TEMPLATE_CODES,
  SMS_TEMPLATES,
  SMS_VARIABLES,
  type SmsVariable,
  templateIdKey,
} from "../../worker/telephony/sms-templates.ts";

describe("SMS segments", () => {
  it("count GSM-7 as 160 in one SMS and 153 a part", () => {
    expect(countSmsSegments("a".repeat(160))).toMatchObject({ encoding: "gsm7", units: 160, segments: 1 });
    expect(countSmsSegments("a".repeat(161))).toMatchObject({ encoding: "gsm7", segments: 2 });
    expect(countSmsSegments("a".repeat(306))).toMatchObject({ segments: 2 });
    expect(countSmsSegments("a".repeat(307))).toMatchObject({ segments: 3 });
    expect(countSmsSegments("")).toMatchObject({ units: 0, segments: 1 });
  });

  it("count an extension character (€ [ ] { } ~ ^ | \\) as two septets, never split across parts", () => {
    expect(countSmsSegments("€".repeat(80))).toMatchObject({ encoding: "gsm7", units: 160, segments: 1 });
    expect(countSmsSegments(`${"a".repeat(159)}€`)).toMatchObject({ units: 161, segments: 2 });
    // 152 septets then a two-septet character: it does not fit the first part's last septet.
    expect(countSmsSegments(`${"a".repeat(152)}€${"a".repeat(152)}`)).toMatchObject({ units: 306, segments: 3 });
    expect(countSmsSegments("@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!\"#¤%&'()*+,-./:;<=>?¡ÄÖÑÜ§¿äöñüà").encoding).toBe("gsm7");
  });

  it("count anything else (all Hindi) as UCS-2: 70 in one SMS, 67 a part, an emoji two units", () => {
    expect(countSmsSegments("क".repeat(70))).toMatchObject({ encoding: "ucs2", units: 70, segments: 1 });
    expect(countSmsSegments("क".repeat(71))).toMatchObject({ segments: 2 });
    expect(countSmsSegments("क".repeat(134))).toMatchObject({ segments: 2 });
    expect(countSmsSegments("क".repeat(135))).toMatchObject({ segments: 3 });
    // One non-GSM character makes the whole text UCS-2: 80 Latin letters and a rupee sign are 2 SMS.
    expect(countSmsSegments(`${"a".repeat(80)}₹`)).toMatchObject({ encoding: "ucs2", units: 81, segments: 2 });
    expect(countSmsSegments(`${"क".repeat(66)}🙂`)).toMatchObject({ units: 68, segments: 1 });
    expect(countSmsSegments(`${"क".repeat(66)}🙂${"क".repeat(67)}`)).toMatchObject({ units: 135, segments: 3 });
  });
});

/** The longest value of each variable, as hard as it can be on each encoding. */
const LONGEST: Record<"ucs2" | "gsm7", Record<SmsVariable, string>> = {
  // A Hindi pump name cut to its length; everything else at its full length.
  ucs2: {
    code: "999999",
    pumpName: "कुएँ वाला पंप, नदी किनारे वाले खेत पर",
    mobileNo: "9876543210",
    // The longest part of the day a Hindi time is named by.
    time: "दोपहर 12:45",
    url: `https://${"p".repeat(22)}`,
    duration: "7 घंटे 59 मिनट",
    reason: "क".repeat(30),
    relay: "क".repeat(12),
    supply: "क".repeat(10),
    amps: "999.9",
    date: "28 सित॰ 2027",
    rupees: "₹1,111.00",
    receipt: "sinchai-999999999999",
  },
  // Extension characters cost two septets each.
  gsm7: {
    code: "999999",
    pumpName: "{[]}".repeat(10),
    mobileNo: "9876543210",
    time: "12:45 PM",
    url: `https://${"p".repeat(22)}`,
    duration: "7 hours 59 minutes",
    reason: "w".repeat(30),
    relay: "w".repeat(12),
    supply: "w".repeat(10),
    amps: "999.9",
    date: "28 Sept 2027",
    rupees: "₹1,111.00",
    receipt: "sinchai-999999999999",
  },
};

describe("the SMS templates", () => {
  it("fit their budget in both languages with every variable at its longest: codes 1 SMS, the rest at most 2", () => {
    const table: string[] = [];
    for (const code of SMS_TEMPLATE_CODES) {
      const { budget } = SMS_TEMPLATES[code];
      expect(budget).toBe(code.endsWith("Code") ? 1 : 2);
      for (const language of SMS_LANGUAGES) {
        for (const values of Object.values(LONGEST)) {
          const sms = fillSmsTemplate(code, language, values);
          expect(sms.segments.segments, `${code}.${language}: ${sms.text}`).toBeLessThanOrEqual(budget);
        }
        const hindiName = fillSmsTemplate(code, language, LONGEST.ucs2).segments;
        table.push(`${code}.${language}: ${hindiName.units} ${hindiName.encoding} units, ${hindiName.segments} SMS`);
      }
    }
    console.log(`At their longest (Hindi pump names):\n  ${table.join("\n  ")}`);
  });

  it("are registered on DLT as their text with {#var#} for each variable, each used once in either language", () => {
    for (const code of SMS_TEMPLATE_CODES) {
      const template = SMS_TEMPLATES[code];
      for (const language of SMS_LANGUAGES) {
        const named = [...template.text[language].matchAll(/\{([a-zA-Z]+)\}/g)].map((match) => match[1]);
        expect([...named].sort(), `${code}.${language}`).toEqual([...template.variables].sort());
        const dlt = dltText(code, language);
        expect(dlt.match(/\{#var#\}/g) ?? []).toHaveLength(template.variables.length);
        expect(dlt).not.toMatch(/\{[a-zA-Z]+\}/);
      }
      // A Hindi template is in Devanagari, an English one in GSM-7 (sent as UCS-2 only for a Hindi name).
      expect(countSmsSegments(dltText(code, "hi")).encoding).toBe("ucs2");
      expect(countSmsSegments(dltText(code, "en")).encoding).toBe("gsm7");
      expect(dltText(code, "hi")).toMatch(/सिंचाई/);
    }
    expect(dltText("signInCode", "hi")).toBe("{#var#} आपका सिंचाई कोड है। 5 मिनट चलेगा। किसी को न बताएँ।");
  });

  it("take every minute of the day as the messages write it: शाम 5:15 in Hindi, 5:15 PM in English", () => {
    expect(messageTime(17 * 60 + 15, "hi")).toBe("शाम 5:15");
    expect(messageTime(17 * 60 + 15, "en")).toBe("5:15 PM");
    for (let minute = 0; minute < 24 * 60; minute++) {
      for (const language of SMS_LANGUAGES) {
        const time = messageTime(minute, language);
        expect(fitVariable("time", time), `${minute} ${language}`).toBe(time);
        if (language === "hi") expect(time).not.toMatch(/AM|PM|am|pm/);
      }
    }
  });

  it("fill their variables: a long name cut, in GSM-7, control characters gone; a bad code refused", () => {
    const dryRun = fillSmsTemplate("alertDryRun", "hi", { pumpName: "कुएँ वाला पंप, नदी किनारे वाले खेत पर" });
    expect(dryRun.text).toBe("सिंचाई: पंप कुएँ वाला पंप, नदी.. सूखा चला, मोटर बंद कर दी गई। पानी का स्रोत देखें।");
    // Cut between whole letters: never a vowel sign or virama left without its consonant.
    const letters = (text: string) =>
      [...new Intl.Segmenter("hi", { granularity: "grapheme" }).segment(text)].map((g) => g.segment);
    for (const name of ["किनारेकिनारेकिनारेकिनारे", "क्षत्रिय क्षेत्र का पंप नंबर दो", "🙂".repeat(15)]) {
      const cut = fitVariable("pumpName", name);
      expect(cut.length).toBeLessThanOrEqual(SMS_VARIABLES.pumpName.maxLength);
      const kept = letters(cut.slice(0, -2));
      expect(letters(name).slice(0, kept.length)).toEqual(kept);
    }
    expect(fitVariable("pumpName", "Well\npump")).toBe("Well pump");
    expect(Array.from(fitVariable("pumpName", "x".repeat(40)))).toHaveLength(SMS_VARIABLES.pumpName.maxLength);
    expect(() => fillSmsTemplate("signInCode", "hi", { code: "12345" })).toThrow(/code/);
    expect(() => fillSmsTemplate("signInCode", "hi", { code: "1234567" })).toThrow(/code/);
    expect(() =>
      fillSmsTemplate("invitation", "en", { mobileNo: "98765", pumpName: "a", url: "https://a.in" }),
    ).toThrow(/mobileNo/);
    expect(() =>
      fillSmsTemplate("invitation", "en", { mobileNo: "9876543210", pumpName: "a", url: "http://a.in" }),
    ).toThrow(/url/);
    // Local mode's own address, which only the local provider receives; nothing else plain http.
    const invitationTo = (url: string) => () =>
      fillSmsTemplate("invitation", "en", { mobileNo: "9876543210", pumpName: "a", url });
    expect(invitationTo("http://localhost:8787")()).toMatchObject({
      text: expect.stringContaining("http://localhost:8787"),
    });
    for (const url of [
      "http://localhost",
      "http://127.0.0.1.evil.in:80",
      "http://10.0.0.5:8787",
      "http://localhost:8787/x",
    ]) {
      expect(invitationTo(url), url).toThrow(/url/);
    }
    expect(fillSmsTemplate("signInCode", "en", { code: "042917" })).toMatchObject({
      text: "042917 is your Sinchai code. It works for 5 minutes. Do not share it with anyone.",
      segments: { encoding: "gsm7", segments: 1 },
    });
  });

  it("have a DLT template id for every template and language in every environment of wrangler.toml", async () => {
    const config = await readWranglerToml();
    const expected = SMS_TEMPLATE_CODES.flatMap((code) =>
      SMS_LANGUAGES.map((language) => templateIdKey(code, language)),
    );
    const sections = [
      ["top level", config],
      ...environmentNames(config).map((name) => [name, config.env![name]!] as const),
    ] as const;
    for (const [name, section] of sections) {
      const ids = ((section as { vars?: Record<string, unknown> }).vars?.TELEPHONY_DLT_TEMPLATES ?? {}) as Record<
        string,
        string
      >;
      expect(Object.keys(ids).sort(), name).toEqual([...expected].sort());
      for (const id of Object.values(ids))
        expect(id, name).toMatch(name === "top level" ? /^[0-9]{19}$/ : /^REPLACE-ME|^[0-9]{19}$/);
    }
  });
});
