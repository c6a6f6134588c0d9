// Twilio's webhook signature (common/twilio-signature.ts) against Twilio's own worked example:
// https://www.twilio.com/docs/usage/webhooks/webhooks-security (Auth Token 12345, the URL
// https://mycompany.com/myapp.php?foo=1&bar=2 and five POST fields sign to 0/KCTR6DLpKmkAf8muzZqo1nDgQ=;
// the same vector is in Twilio's helper libraries' tests).
import { describe, expect, it } from "vitest";
import { isTwilioSignatureValid, twilioSignature } from "../../common/twilio-signature.ts";

const TOKEN = "12345";
const URL = "https://mycompany.com/myapp.php?foo=1&bar=2";
const FIELDS: [string, string][] = [
  ["CallSid", "CA1234567890ABCDE"],
  ["Caller", "+12349013030"],
  ["Digits", "1234"],
  ["From", "+12349013030"],
  ["To", "+18005551212"],
];
const PUBLISHED = "0/KCTR6DLpKmkAf8muzZqo1nDgQ=";

describe("Twilio's webhook signature", () => {
  it("is Twilio's published example, whatever order the fields come in", async () => {
    expect(await twilioSignature(TOKEN, URL, FIELDS)).toBe(PUBLISHED);
    expect(await twilioSignature(TOKEN, URL, [...FIELDS].reverse())).toBe(PUBLISHED);
    expect(await isTwilioSignatureValid(TOKEN, PUBLISHED, URL, FIELDS)).toBe(true);
  });

  it("fails for any change to the token, the URL, a field, or the signature itself", async () => {
    const changed: [string, string][] = FIELDS.map(([name, value]) => [name, name === "Digits" ? "1235" : value]);
    expect(await isTwilioSignatureValid("12346", PUBLISHED, URL, FIELDS)).toBe(false);
    expect(await isTwilioSignatureValid(TOKEN, PUBLISHED, `${URL}&baz=3`, FIELDS)).toBe(false);
    expect(await isTwilioSignatureValid(TOKEN, PUBLISHED, URL.replace("https:", "http:"), FIELDS)).toBe(false);
    expect(await isTwilioSignatureValid(TOKEN, PUBLISHED, URL, changed)).toBe(false);
    expect(await isTwilioSignatureValid(TOKEN, PUBLISHED, URL, [...FIELDS, ["Extra", ""]])).toBe(false);
    expect(await isTwilioSignatureValid(TOKEN, PUBLISHED, URL, FIELDS.slice(1))).toBe(false);
    for (const signature of [
      null,
      undefined,
      "",
      PUBLISHED.slice(0, -2),
      `${PUBLISHED}=`,
      PUBLISHED.toLowerCase(),
      "0/KCTR6DLpKmkAf8muzZqo1nDgQ",
    ]) {
      expect(await isTwilioSignatureValid(TOKEN, signature, URL, FIELDS)).toBe(false);
    }
    // No key, no signature: an unset token accepts nothing.
    expect(await isTwilioSignatureValid("", PUBLISHED, URL, FIELDS)).toBe(false);
  });

  it("signs a repeated field once per value, in value order", async () => {
    const events: [string, string][] = [
      ["StatusCallbackEvent", "ringing"],
      ["StatusCallbackEvent", "answered"],
    ];
    const a = await twilioSignature(TOKEN, URL, events);
    expect(await twilioSignature(TOKEN, URL, [...events].reverse())).toBe(a);
    expect(await twilioSignature(TOKEN, URL, [events[0]!])).not.toBe(a);
  });
});
