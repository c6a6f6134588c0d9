// The caps on what commands from a phone are answered with: a pump's replies in any 24 hours and
// the help SMS a number gets. Past a cap the SMS is not sent (the command has already acted);
// the provider the tests play receives exactly the capped number.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sendPhoneReply } from "../../../worker/phone-control/phone-replies.ts";
import { uniqueMobileNo } from "../helpers/accounts.ts";
import { smsTo } from "../telephony-support.ts";

const REPLIES_PER_PUMP = 30;
const HELP_PER_NUMBER = 3;

describe("replies to commands from a phone", () => {
  it("a pump's replies stop at 30 in a day, whoever they go to; another pump's still go", async () => {
    const deviceId = `SNC-R${crypto.randomUUID().slice(0, 7).toUpperCase()}`;
    const numbers = [uniqueMobileNo(), uniqueMobileNo()];
    const sent: boolean[] = [];
    for (let index = 0; index < REPLIES_PER_PUMP + 2; index++) {
      sent.push(
        await sendPhoneReply(env, numbers[index % 2]!, deviceId, "hi", {
          template: "phoneUnconfirmed",
          values: { pumpName: "कुएँ वाला पंप" },
        }),
      );
    }
    expect(sent.filter(Boolean)).toHaveLength(REPLIES_PER_PUMP);
    expect(sent.slice(REPLIES_PER_PUMP)).toEqual([false, false]);
    const received = (await smsTo(numbers[0]!)).length + (await smsTo(numbers[1]!)).length;
    expect(received).toBe(REPLIES_PER_PUMP);

    const other = await sendPhoneReply(env, numbers[0]!, `${deviceId}X`, "hi", {
      template: "phoneUnconfirmed",
      values: { pumpName: "खेत वाला पंप" },
    });
    expect(other).toBe(true);
  });

  it("a number gets the help SMS three times a day; another number still gets it", async () => {
    const [mobileNo, other] = [uniqueMobileNo(), uniqueMobileNo()];
    const sent: boolean[] = [];
    for (let index = 0; index < HELP_PER_NUMBER + 2; index++) {
      sent.push(await sendPhoneReply(env, mobileNo, null, "hi", { template: "phoneHelp", values: {} }));
    }
    expect(sent).toEqual([true, true, true, false, false]);
    expect(await smsTo(mobileNo)).toHaveLength(HELP_PER_NUMBER);
    expect(await sendPhoneReply(env, other, null, "en", { template: "phoneHelp", values: {} })).toBe(true);
  });
});
