// How the pages write lengths of time and times of day, in each language.
import { describe, expect, it } from "vitest";
import { formatDuration, formatTimeOfDay } from "../../app/format.ts";

describe("formatDuration", () => {
  it("says a length of time in words of the reader's language, its two largest units", () => {
    expect(formatDuration(7 * 60 + 31, "hi")).toBe("7 मिनट 31 सेकंड");
    expect(formatDuration(7 * 60 + 31, "en")).toBe("7 minutes 31 seconds");
    expect(formatDuration(2 * 86_400 + 3 * 3_600 + 59, "en")).toBe("2 days 3 hours");
    expect(formatDuration(3_600, "en")).toBe("1 hour");
    expect(formatDuration(0, "hi")).toBe("0 सेकंड");
  });

  it("never writes the English unit letters the admin pages used to (7m 31s)", () => {
    expect(formatDuration(451, "hi")).not.toMatch(/[a-z]/i);
  });
});

describe("formatTimeOfDay", () => {
  it("writes a schedule's time as the same language writes every other time", () => {
    const at = new Date(Date.UTC(2026, 10, 23, 4, 30)); // 10:00 India time
    const time = (language: "hi" | "en") =>
      at.toLocaleString(language === "hi" ? "hi-IN" : "en-IN", { timeZone: "Asia/Kolkata", timeStyle: "short" });
    expect(formatTimeOfDay(600, "hi")).toBe(time("hi"));
    expect(formatTimeOfDay(600, "en")).toBe(time("en"));
  });
});
