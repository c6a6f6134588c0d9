// Who started a running motor, as the switch card words the pump state's `startedBy` (its line
// under the run's time, app/components/pump-state-view.tsx), and the calm line of a run the hub
// credited from its current (an ON whose answer was lost).
import { describe, expect, it } from "vitest";
import { wordIn } from "../../common/i18n/catalogue.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";

const words = (language: "hi" | "en", values: Record<string, string | number>) =>
  wordIn({ language, messages: language === "hi" ? hi : en }, "switch.startedBy", {
    statusSource: "ack",
    you: 0,
    label: "",
    role: "owner",
    ...values,
  });

describe("who started the run", () => {
  it("names the operator by the owner's name for them, and how they asked", () => {
    expect(words("hi", { how: "sms", role: "operator", label: "राजू" })).toBe("\nकिसने: राजू, SMS से");
    expect(words("en", { how: "sms", role: "operator", label: "राजू" })).toBe("\nStarted by: राजू, by SMS");
    expect(words("hi", { how: "missedCall", role: "operator", label: "राजू" })).toBe("\nकिसने: राजू, मिस्ड कॉल से");
  });

  it("says the reader's own run is theirs, the owner's is the owner's, and a schedule's is the schedule's", () => {
    expect(words("hi", { how: "app", you: 1 })).toBe("\nकिसने: आप, ऐप से");
    expect(words("hi", { how: "voiceMenu" })).toBe("\nकिसने: मालिक, फ़ोन मेनू से");
    expect(words("en", { how: "app" })).toBe("\nStarted by: the owner, in the app");
    expect(words("hi", { how: "schedule", role: "" })).toBe("\nकिसने: शेड्यूल");
    expect(words("en", { how: "powerWindow", role: "" })).toBe("\nStarted by: a power window");
  });

  it("a run credited from its current says so calmly first, as the reader's own ON when it was theirs", () => {
    expect(words("hi", { how: "app", you: 1, statusSource: "currentAfterCommand" })).toBe(
      "\nआपका चालू आदेश: मोटर चल रही है (करंट से पता चला), डिवाइस की पुष्टि नहीं आई।\nकिसने: आप, ऐप से",
    );
    expect(words("en", { how: "sms", role: "operator", label: "Ram", statusSource: "currentAfterCommand" })).toBe(
      "\nThe ON: the motor is running (its current shows it); the box did not confirm it.\nStarted by: Ram, by SMS",
    );
  });
});
