// Verified numbers end to end: the real Worker under `wrangler dev` (workerd, local D1) sends its
// SMS through our Twilio adapter to the local provider (telephony-sim/), as `npm start` runs
// them, and the test reads each code off the provider as a farmer reads the SMS. A new farmer is
// verified by the code registration sends; a forgotten password is set anew with one, ending the
// other session; guessing a sign-in code is stopped after 5 guesses a code and 3 codes; an
// invitation reaches only a verified number. Local mode reports no client address, so the
// per-number throttle and the 5 tries are what stop the guessing here, as against `npm start`.
import { describe, expect, it } from "vitest";
import { ApiClient } from "../../common/api-client.ts";
import {
  codeRequestResponseSchema,
  loginResponseSchema,
  resetPasswordResponseSchema,
} from "../../common/api-responses/accounts.ts";
import { pumpListResponseSchema, pumpMemberResponseSchema } from "../../common/api-responses/pumps.ts";
import { messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { uniqueMobileNo } from "./accounts.ts";
import { sharedAdmin, sharedWorker, sharedWorkerLog } from "./shared-worker.ts";

const { worker, phone } = sharedWorker();

/** Whether the local provider printed `text`, as `npm start` shows it under [phone]. */
const printed = (text: string) =>
  sharedWorkerLog()
    .split("\n")
    .some((line) => line.startsWith("[phone]") && line.includes(text));

/** The code in the first SMS with one to `mobileNo` since `since`, as the farmer's phone shows it. */
async function codeSentTo(mobileNo: string, since: number): Promise<string> {
  const sms = await phone.waitForSms(
    mobileNo,
    (candidate) => candidate.at >= since && /\b[0-9]{6}\b/.test(candidate.text),
  );
  return /\b([0-9]{6})\b/.exec(sms.text)![1]!;
}

/** A farmer registered through the API and signed in, with the code registration sent to the number. */
async function registered(password = "kuan-ka-paani-7"): Promise<{ api: ApiClient; mobileNo: string; code: string }> {
  const mobileNo = uniqueMobileNo();
  const api = new ApiClient(worker.url, { headers: { "Accept-Language": "hi" } });
  const since = Date.now();
  await api.register(mobileNo, password);
  await api.logIn(mobileNo, password);
  return { api, mobileNo, code: await codeSentTo(mobileNo, since) };
}

/** Asks for a code as the Hindi pages do (the SMS comes in the asker's language). */
async function askCode(purpose: "signIn" | "resetPassword", mobileNo: string) {
  return new ApiClient(worker.url, { headers: { "Accept-Language": "hi" } }).request(
    "POST",
    "/api/auth/codes",
    codeRequestResponseSchema,
    { purpose, mobileNo },
  );
}

describe("verified numbers against the real Worker and the local provider", () => {
  it("a new farmer is verified by the code registration sent, printed by the provider", async () => {
    const { api, mobileNo, code } = await registered();
    expect(printed(`${code} आपका सिंचाई कोड है।`)).toBe(true);
    await api.post("/api/auth/verify-number", messageResponseSchema, { code });
    // Verified: a code now signs the number in.
    const since = Date.now();
    expect((await askCode("signIn", mobileNo)).status).toBe(200);
    const signIn = await codeSentTo(mobileNo, since);
    const answer = await new ApiClient(worker.url).request("POST", "/api/auth/login-code", loginResponseSchema, {
      mobileNo,
      code: signIn,
    });
    expect(answer.ok).toBe(true);
  });

  it("a forgotten password is set anew with a code, and the other session ends", async () => {
    const { api: oldPhone, mobileNo } = await registered();
    const since = Date.now();
    expect((await askCode("resetPassword", mobileNo)).status).toBe(200);
    const code = await codeSentTo(mobileNo, since);
    expect(printed(`${code} सिंचाई में नया पासवर्ड रखने का कोड है।`)).toBe(true);
    const reset = await new ApiClient(worker.url).post("/api/auth/reset-password", resetPasswordResponseSchema, {
      mobileNo,
      code,
      newPassword: "naya-kuan-2026",
    });
    expect(reset.endedSessions).toBe(1);
    expect((await oldPhone.request("GET", "/api/pumps", pumpListResponseSchema)).status).toBe(401);
    await new ApiClient(worker.url).logIn(mobileNo, "naya-kuan-2026");
  });

  it("guessing a sign-in code: 5 guesses a code, 3 codes an hour for the number (registration's among them), then asking waits", async () => {
    const { api, mobileNo, code } = await registered();
    await api.post("/api/auth/verify-number", messageResponseSchema, { code });
    const attacker = new ApiClient(worker.url);
    let checked = 0;
    let asks = 0;
    for (;;) {
      const asked = await askCode("signIn", mobileNo);
      if (!asked.ok) {
        expect(asked.status).toBe(429);
        expect(Number(asked.headers.get("Retry-After"))).toBeGreaterThan(0);
        break;
      }
      asks += 1;
      for (let guess = 0; guess < 10; guess++) {
        // A guess the attacker makes blind (the code itself is never tried: it could only be luck).
        const tried = String(100_000 + guess * 7_919 + asks);
        const answer = await attacker.request("POST", "/api/auth/login-code", loginResponseSchema, {
          mobileNo,
          code: tried,
        });
        expect(answer.ok).toBe(false);
        if (!answer.ok && answer.error.code === "wrongCode") checked += 1;
        else break;
      }
    }
    expect({ asks, checked }).toEqual({ asks: 2, checked: 10 });
  });

  it("an invitation reaches only a verified number", async () => {
    const owner = await registered();
    await owner.api.post("/api/auth/verify-number", messageResponseSchema, { code: owner.code });
    const admin = await sharedAdmin();
    const { device } = await admin.provisionDevice("3phase", owner.mobileNo);
    const verified = await registered();
    await verified.api.post("/api/auth/verify-number", messageResponseSchema, { code: verified.code });
    const unverified = await registered();
    const since = Date.now();
    for (const invitee of [unverified, verified]) {
      const answer = await owner.api.request("POST", `/api/pumps/${device.id}/members`, pumpMemberResponseSchema, {
        mobileNo: invitee.mobileNo,
        role: "operator",
        label: "Ram",
      });
      expect(answer.status).toBe(201);
    }
    const told = await phone.waitForSms(verified.mobileNo, (sms) => sms.at >= since);
    expect(told.text).toContain(`सिंचाई: ${owner.mobileNo} ने आपको पंप ${device.id} से जोड़ा है।`);
    await phone.settled();
    expect((await phone.records()).sms.filter((sms) => sms.to === unverified.mobileNo && sms.at >= since)).toEqual([]);
    const theirs = await unverified.api.get("/api/pumps", pumpListResponseSchema);
    expect(theirs.invitations).toEqual([]);
    const mine = await verified.api.get("/api/pumps", pumpListResponseSchema);
    expect(mine.invitations.map((invitation) => invitation.deviceId)).toEqual([device.id]);
  });
});
