// The three numbers farmers switch with when the phone has no data (worker/services/phone-numbers.ts):
// local mode's come from wrangler.toml, and a value that is not an E.164 number (empty, or an
// operator's placeholder) is not configured, so no page offers a wrong number to call.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { phoneNumbersOf } from "../../../worker/services/phone-numbers.ts";

describe("the environment's phone numbers", () => {
  it("are local mode's from wrangler.toml", () => {
    expect(phoneNumbersOf(env)).toEqual({ sms: "+918000000001", stop: "+918000000002", start: "+918000000003" });
  });

  it("leave out a number that is empty, a placeholder or not E.164", () => {
    expect(
      phoneNumbersOf({
        PHONE_SMS_NUMBER: "",
        PHONE_STOP_NUMBER: "REPLACE-ME with the number whose missed call stops a pump, as +91...",
        PHONE_START_NUMBER: "08000000003",
      }),
    ).toEqual({ sms: null, stop: null, start: null });
    expect(phoneNumbersOf({ PHONE_STOP_NUMBER: "+918000000002" })).toEqual({
      sms: null,
      stop: "+918000000002",
      start: null,
    });
  });
});
