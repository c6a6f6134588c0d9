// The answer to the status the dashboard asked for when it opened is said ("Motor is currently
// OFF.") only while nothing the page learned since contradicts it.
import { describe, expect, it } from "vitest";
import { type StatusAnswer, statusAnswerStillTrue } from "../../app/realtime/status-answer.ts";
import type { PumpState } from "../../common/pump-state.ts";
import { OFF_SINCE_HELLO } from "./pump-state-examples.ts";

const off: PumpState = { ...OFF_SINCE_HELLO, powerDataAt: 1_000 };
const answerOff: StatusAnswer = { status: "off", statusSince: 1_000, deviceStatus: "online", pendingCommand: null };
const sending = { action: "on", source: "app", sentAt: 3_000, state: "sent" } as const;

describe("the status answer of a page's opening", () => {
  it("is said when the page knows nothing newer, or when it is the newer news", () => {
    expect(statusAnswerStillTrue(answerOff, off, false)).toBe(true);
    expect(statusAnswerStillTrue({ ...answerOff, status: "on", statusSince: 5_000 }, off, false)).toBe(true);
  });

  it("is not said once the page knows a later status: the farmer's ON confirmed before the answer arrived", () => {
    const on: PumpState = { ...off, status: "on", statusSince: 4_000, statusSource: "ack", at: 4_000 };
    expect(statusAnswerStillTrue(answerOff, on, false)).toBe(false);
  });

  it("is not said while a command is on its way, by the hub's word or the page's own tap", () => {
    expect(statusAnswerStillTrue(answerOff, { ...off, pendingCommand: sending }, false)).toBe(false);
    expect(statusAnswerStillTrue({ ...answerOff, pendingCommand: sending }, off, false)).toBe(false);
    expect(statusAnswerStillTrue(answerOff, off, true)).toBe(false);
  });

  it("is not said when the hub could not vouch for it", () => {
    expect(statusAnswerStillTrue({ ...answerOff, deviceStatus: "offline" }, off, false)).toBe(false);
    expect(statusAnswerStillTrue({ ...answerOff, status: "unknown" }, off, false)).toBe(false);
  });

  it("disagreeing with the page at the same moment is not said (the page's state stands)", () => {
    expect(statusAnswerStillTrue({ ...answerOff, status: "on" }, off, false)).toBe(false);
  });
});
