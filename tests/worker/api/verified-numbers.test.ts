// Verified numbers (docs/telephony.md, docs/decisions/027-verified-numbers.md), through the API
// as a phone app or an attacker calls it, with the SMS read from the tests' phone (the local
// provider, tests/telephony-outbound.ts): the answer to "send me a code" is the same for every
// number; registration sends a code and the number is verified once it is entered; a code signs
// a verified number in; a forgotten password is reset by a code, which ends every session of
// the account and verifies the number, so the real holder takes back a number someone else
// registered; guessing is bounded by 5 tries a code and the throttles; only a verified number
// is told of an invitation or may see and accept it.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import {
  codeRequestResponseSchema,
  loginResponseSchema,
  resetPasswordResponseSchema,
} from "../../../common/api-responses/accounts.ts";
import { adminUserResponseSchema, signInCodeResponseSchema } from "../../../common/api-responses/admin.ts";
import { apiErrorSchema, messageResponseSchema } from "../../../common/api-responses/refusals.ts";
import { BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { apiEn } from "../../../common/i18n/api-en.ts";
import { getDb } from "../../../worker/db/client.ts";
import { adminAudit, users } from "../../../worker/db/schema.ts";
import { codeSentTo, createUser, loginToken, smsSince, testPhone, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { api, getJson, getOk, postJson, putJson } from "../helpers/http.ts";
import { pumpsOf } from "../helpers/sharing.ts";
import { connectBrowser } from "../helpers/sockets.ts";

type Purpose = "signIn" | "resetPassword" | "verifyNumber";

let addressCounter = 0;
/** A client address of its own, so one test's per-address throttles never meet another's. */
function freshAddress(): string {
  addressCounter += 1;
  return `203.0.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

function askCode(purpose: Purpose, mobileNo: string, address = freshAddress()) {
  return api("/api/auth/codes", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address },
    body: JSON.stringify({ purpose, mobileNo }),
  });
}

/** Asks for a code that must be sent, and reads it off the phone. */
async function codeFor(purpose: Purpose, mobileNo: string): Promise<string> {
  const since = Date.now();
  const response = await askCode(purpose, mobileNo);
  expect(response.status).toBe(200);
  return (await codeSentTo(mobileNo, since)).code;
}

function post(path: string, body: unknown, options: { token?: string; address?: string } = {}) {
  return api(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "CF-Connecting-IP": options.address ?? freshAddress(),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function refusalOf(response: Response) {
  const body = await readJson(response, apiErrorSchema);
  return { status: response.status, code: body.code, params: body.params };
}

async function verifiedAt(mobileNo: string): Promise<number | null> {
  const [row] = await getDb(env.DB)
    .select({ at: users.numberVerifiedAt })
    .from(users)
    .where(eq(users.mobileNo, mobileNo));
  return row?.at ?? null;
}

/** A code that is not `code`. */
function otherThan(code: string, step = 1): string {
  return String((Number(code) + step) % 1_000_000).padStart(6, "0");
}

describe("asking for a code", () => {
  it("answers alike for every number, and only a number that may use the code gets the SMS", async () => {
    const verified = await createUser();
    const unverified = await createUser({ verified: false });
    const stranger = uniqueMobileNo();
    const since = Date.now();
    // Who may get a code for what: sign in a verified number, set a new password of any
    // account, verify a number not verified yet.
    const cases: [Purpose, string, boolean][] = [
      ["signIn", verified.mobileNo, true],
      ["signIn", unverified.mobileNo, false],
      ["signIn", stranger, false],
      ["resetPassword", unverified.mobileNo, true],
      ["resetPassword", stranger, false],
      ["verifyNumber", verified.mobileNo, false],
    ];
    const answers = [];
    for (const [purpose, mobileNo] of cases) {
      const response = await askCode(purpose, mobileNo);
      answers.push({ status: response.status, body: await readJson(response, codeRequestResponseSchema) });
    }
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 200,
        body: { success: true, message: apiEn["api.codeRequested"], expiresInSeconds: 300, codeLength: 6 },
      });
    }
    // The two that may: a sign-in code, and a code to set a new password, each in its own words.
    expect((await codeSentTo(verified.mobileNo, since)).text).toMatch(/^[0-9]{6} is your Sinchai code\./);
    expect((await codeSentTo(unverified.mobileNo, since)).text).toMatch(/to set a new password/);
    expect(await smsSince(verified.mobileNo, since)).toHaveLength(1);
    expect(await smsSince(unverified.mobileNo, since)).toHaveLength(1);
    expect(await smsSince(stranger, since)).toEqual([]);
  });

  it("refuses a purpose it does not know and a malformed number with 400, sending nothing", async () => {
    const user = await createUser();
    const since = Date.now();
    for (const body of [
      { purpose: "register", mobileNo: user.mobileNo },
      { purpose: "signIn", mobileNo: "12345" },
      { purpose: "signIn" },
    ]) {
      const response = await post("/api/auth/codes", body);
      expect((await refusalOf(response)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await smsSince(user.mobileNo, since)).toEqual([]);
  });

  it("is throttled per number: a fourth code within the hour waits, from any address", async () => {
    const user = await createUser();
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt++) statuses.push((await askCode("signIn", user.mobileNo)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // An unregistered number is throttled the same: the throttle tells nothing either.
    const stranger = uniqueMobileNo();
    const strangers = [];
    for (let attempt = 0; attempt < 4; attempt++) strangers.push((await askCode("signIn", stranger)).status);
    expect(strangers).toEqual(statuses);
    const refused = await askCode("signIn", user.mobileNo);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    // The wait is data too, for the page to say when the next code can be asked.
    expect(await refusalOf(refused)).toMatchObject({
      status: 429,
      code: "throttled",
      params: { retryAfterSeconds: retryAfter },
    });
  });
});

describe("registration", () => {
  it("answers as SPEC §7 says and sends a code; the number is verified only once it is entered", async () => {
    const mobileNo = uniqueMobileNo();
    const since = Date.now();
    const registered = await post("/api/auth/register", { mobileNo, password: "kuan-ka-paani-7" });
    expect(registered.status).toBe(201);
    expect(await readJson(registered, messageResponseSchema)).toEqual({
      success: true,
      message: apiEn["api.registered"],
    });
    const { code, text } = await codeSentTo(mobileNo, since);
    expect(text).toContain("is your Sinchai code");
    expect(await verifiedAt(mobileNo)).toBeNull();

    // Signing in keeps working before the number is verified.
    const token = await loginToken({ id: 0, mobileNo, password: "kuan-ka-paani-7" });
    const wrong = await post("/api/auth/verify-number", { code: otherThan(code) }, { token });
    expect(await refusalOf(wrong)).toEqual({ status: 400, code: "wrongCode", params: { triesLeft: 4 } });
    expect(await verifiedAt(mobileNo)).toBeNull();

    const right = await post("/api/auth/verify-number", { code }, { token });
    expect(right.status).toBe(200);
    expect(await readJson(right, messageResponseSchema)).toEqual({
      success: true,
      message: apiEn["api.numberVerified"],
    });
    expect(await verifiedAt(mobileNo)).toBeGreaterThan(0);
    // Used: the same code again proves nothing more, and a verified number has nothing to do.
    expect((await post("/api/auth/verify-number", { code }, { token })).status).toBe(200);
  });

  it("verifies only the session's own number, and needs a farmer's session", async () => {
    const holder = await createUser({ verified: false });
    const other = await createUser({ verified: false });
    const code = await codeFor("verifyNumber", holder.mobileNo);
    // Another account's session cannot use the code sent to the holder's number.
    const otherToken = await loginToken(other);
    expect(await refusalOf(await post("/api/auth/verify-number", { code }, { token: otherToken }))).toMatchObject({
      status: 400,
    });
    expect(await verifiedAt(other.mobileNo)).toBeNull();
    expect((await post("/api/auth/verify-number", { code })).status).toBe(401);
    const token = await loginToken(holder);
    expect((await post("/api/auth/verify-number", { code }, { token })).status).toBe(200);
  });
});

describe("signing in with a code", () => {
  it("signs a verified number in, once per code, as the password does", async () => {
    const { user, device } = await farmerWithDevice();
    const code = await codeFor("signIn", user.mobileNo);
    const response = await post("/api/auth/login-code", { mobileNo: user.mobileNo, code });
    expect(response.status).toBe(200);
    const body = await readJson(response, loginResponseSchema);
    expect(body.user).toEqual({ id: user.id, mobileNo: user.mobileNo, isAdmin: false });
    expect((await getJson(`/api/pumps/${device.deviceId}/members`, body.token)).status).toBe(200);
    // A known-device cookie, as a password login gives.
    expect(response.headers.get("Set-Cookie")).toContain("sinchai_known_device=");
    const again = await post("/api/auth/login-code", { mobileNo: user.mobileNo, code });
    expect(await refusalOf(again)).toEqual({ status: 401, code: "noCode", params: {} });
  });

  it("refuses a code of another purpose or number, and a wrong one says how many tries are left", async () => {
    const user = await createUser();
    const resetCode = await codeFor("resetPassword", user.mobileNo);
    expect(await refusalOf(await post("/api/auth/login-code", { mobileNo: user.mobileNo, code: resetCode }))).toEqual({
      status: 401,
      code: "noCode",
      params: {},
    });
    const code = await codeFor("signIn", user.mobileNo);
    const elsewhere = await createUser();
    expect((await post("/api/auth/login-code", { mobileNo: elsewhere.mobileNo, code })).status).toBe(401);
    expect(
      await refusalOf(await post("/api/auth/login-code", { mobileNo: user.mobileNo, code: otherThan(code) })),
    ).toEqual({ status: 401, code: "wrongCode", params: { triesLeft: 4 } });
    expect((await post("/api/auth/login-code", { mobileNo: user.mobileNo, code })).status).toBe(200);
  });
});

describe("a forgotten password, reset by a code", () => {
  it("sets the new password, ends every session of the account with its sockets, and verifies the number", async () => {
    const user = await createUser({ isAdmin: true, verified: false });
    await provisionDevice(user.id);
    const [phone, adminArea] = await Promise.all([loginToken(user), loginToken(user, "admin")]);
    const socket = await connectBrowser(user.mobileNo, { token: phone });
    const code = await codeFor("resetPassword", user.mobileNo);

    // A weak password is refused before the code is tried: the code still works after.
    const weak = await post("/api/auth/reset-password", { mobileNo: user.mobileNo, code, newPassword: user.mobileNo });
    expect(await refusalOf(weak)).toMatchObject({ status: 400, code: "passwordIsMobile" });

    const response = await post("/api/auth/reset-password", {
      mobileNo: user.mobileNo,
      code,
      newPassword: "naya-paani-2026",
    });
    expect(response.status).toBe(200);
    const body = await readJson(response, resetPasswordResponseSchema);
    expect(body).toMatchObject({
      success: true,
      message: apiEn["api.passwordReset"],
      endedSessions: 2,
      user: { id: user.id, mobileNo: user.mobileNo, isAdmin: true },
    });
    expect((await socket.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
    expect((await getJson("/api/recharge/plan", phone)).status).toBe(401);
    expect((await getJson("/api/admin/users", adminArea)).status).toBe(401);
    expect((await getJson("/api/recharge/plan", body.token)).status).toBe(200);
    expect((await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: user.password })).status).toBe(401);
    expect((await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: "naya-paani-2026" })).status).toBe(
      200,
    );
    expect(await verifiedAt(user.mobileNo)).toBeGreaterThan(0);
  });

  it("gives the real holder back a number someone else registered: their sessions and password stop working", async () => {
    const mobileNo = uniqueMobileNo();
    // Someone registers a number that is not theirs, and signs in with it.
    const registered = Date.now();
    expect((await post("/api/auth/register", { mobileNo, password: "kisi-aur-ka-1" })).status).toBe(201);
    // Its verification code leaves after the answer: taken here, it cannot pass for the reset's.
    await codeSentTo(mobileNo, registered);
    const impostor = await loginToken({ id: 0, mobileNo, password: "kisi-aur-ka-1" });
    // The holder of the number finds it taken...
    const taken = await post("/api/auth/register", { mobileNo, password: "mera-apna-2026" });
    expect(await refusalOf(taken)).toMatchObject({ status: 409, code: "duplicateRegistration" });
    // ...and sets a new password with a code sent to it.
    const code = await codeFor("resetPassword", mobileNo);
    const reset = await post("/api/auth/reset-password", { mobileNo, code, newPassword: "mera-apna-2026" });
    expect(reset.status).toBe(200);
    expect((await getJson("/api/recharge/plan", impostor)).status).toBe(401);
    expect((await postJson("/api/auth/login", { mobileNo, password: "kisi-aur-ka-1" })).status).toBe(401);
    expect(await verifiedAt(mobileNo)).toBeGreaterThan(0);
  });

  it("changes nothing for a wrong code, a stranger's number or a code of another purpose", async () => {
    const user = await createUser();
    const token = await loginToken(user);
    const signInCode = await codeFor("signIn", user.mobileNo);
    const attempts = [
      { mobileNo: user.mobileNo, code: signInCode, newPassword: "naya-paani-2026" },
      { mobileNo: uniqueMobileNo(), code: signInCode, newPassword: "naya-paani-2026" },
    ];
    for (const body of attempts) {
      expect((await refusalOf(await post("/api/auth/reset-password", body))).status).toBe(401);
    }
    expect((await getJson("/api/pumps", token)).status).toBe(200);
    expect((await postJson("/api/auth/login", { mobileNo: user.mobileNo, password: user.password })).status).toBe(200);
  });
});

describe("guessing codes", () => {
  it("checks at most 5 guesses a code and 3 codes an hour: 15 guesses, then 429", async () => {
    const user = await createUser();
    const attacker = freshAddress();
    let guesses = 0;
    let refusedAsk: Response | null = null;
    for (let round = 0; round < 10 && !refusedAsk; round++) {
      const since = Date.now();
      const asked = await askCode("signIn", user.mobileNo);
      if (asked.status === 429) {
        refusedAsk = asked;
        break;
      }
      // The attacker has no code; the test reads it off the phone only so no guess is right by chance.
      const { code } = await codeSentTo(user.mobileNo, since);
      for (let guess = 1; guess <= 6; guess++) {
        const response = await post(
          "/api/auth/login-code",
          { mobileNo: user.mobileNo, code: otherThan(code, guess) },
          { address: attacker },
        );
        const { code: refusal, params } = await refusalOf(response);
        if (refusal === "wrongCode") guesses += 1;
        else expect({ guess, refusal }).toEqual({ guess: 6, refusal: "noCode" });
        if (guess < 6) expect(params).toEqual({ triesLeft: 5 - guess });
      }
    }
    expect(guesses).toBe(15);
    expect(refusedAsk?.status).toBe(429);
  });

  it("counts parallel guesses before comparing: of 12 at once, 5 are compared", async () => {
    const user = await createUser();
    const code = await codeFor("signIn", user.mobileNo);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        post("/api/auth/login-code", { mobileNo: user.mobileNo, code: otherThan(code, index + 1) }).then(refusalOf),
      ),
    );
    expect(answers.filter((answer) => answer.code === "wrongCode")).toHaveLength(5);
    expect(answers.filter((answer) => answer.code === "noCode")).toHaveLength(7);
    // Out of tries: even the right code no longer works.
    expect((await post("/api/auth/login-code", { mobileNo: user.mobileNo, code })).status).toBe(401);
  });

  it("is throttled per client address whatever the numbers: the 21st check in 15 minutes waits", async () => {
    const address = freshAddress();
    const statuses = [];
    for (let attempt = 0; attempt < 21; attempt++) {
      const response = await post("/api/auth/login-code", { mobileNo: uniqueMobileNo(), code: "123456" }, { address });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("invitations need a verified number", () => {
  const invite = (deviceId: string, mobileNo: string, token: string) =>
    postJson(`/api/pumps/${deviceId}/members`, { mobileNo, role: "operator", label: "Ram" }, token);

  it("an unverified account sees no invitation and cannot answer one, until its number is verified", async () => {
    const owner = await farmerWithDevice();
    const invitee = await createUser({ verified: false });
    expect((await invite(owner.device.deviceId, invitee.mobileNo, owner.token)).status).toBe(201);
    const token = await loginToken(invitee);
    const listed = await pumpsOf(token);
    expect(listed.invitations).toEqual([]);
    for (const answer of ["accept", "decline"]) {
      const response = await postJson(`/api/pumps/${owner.device.deviceId}/invitation`, { answer }, token);
      expect(await refusalOf(response)).toMatchObject({ status: 404, code: "invitationNotFound" });
    }
    expect((await getJson(`/api/pumps/${owner.device.deviceId}/status`, token)).status).toBe(404);

    const code = await codeFor("verifyNumber", invitee.mobileNo);
    expect((await post("/api/auth/verify-number", { code }, { token })).status).toBe(200);
    const after = await pumpsOf(token);
    expect(after.invitations.map((invitation) => invitation.deviceId)).toEqual([owner.device.deviceId]);
    const accepted = await postJson(`/api/pumps/${owner.device.deviceId}/invitation`, { answer: "accept" }, token);
    expect(accepted.status).toBe(200);
  });

  it("tells only a verified number by SMS: the owner's number and the box's id, nothing the owner typed", async () => {
    const owner = await farmerWithDevice();
    await putJson(`/api/pumps/${owner.device.deviceId}/name`, { name: "कुएँ वाला पंप" }, owner.token);
    const verified = await createUser();
    const unverified = await createUser({ verified: false });
    const stranger = uniqueMobileNo();
    const since = Date.now();
    for (const mobileNo of [unverified.mobileNo, stranger, verified.mobileNo]) {
      expect((await invite(owner.device.deviceId, mobileNo, owner.token)).status).toBe(201);
    }
    const sms = await testPhone().waitForSms(verified.mobileNo, (candidate) => candidate.at >= since);
    expect(sms.text).toBe(
      `सिंचाई: ${owner.user.mobileNo} ने आपको पंप ${owner.device.deviceId} से जोड़ा है। ऐप में न्योता स्वीकार करें: ${env.TELEPHONY_WEBHOOK_ORIGIN}`,
    );
    expect(await smsSince(unverified.mobileNo, since)).toEqual([]);
    expect(await smsSince(stranger, since)).toEqual([]);
  });
});

describe("an admin sends a farmer a code", () => {
  const send = (userId: number, token: string) => postJson(`/api/admin/users/${userId}/sign-in-code`, {}, token);

  it("a sign-in code to a verified number, never shown to the admin, on the audit trail", async () => {
    const admin = await createUser({ isAdmin: true });
    const adminToken = await loginToken(admin, "admin");
    const farmer = await createUser();
    const since = Date.now();
    const response = await send(farmer.id, adminToken);
    expect(response.status).toBe(200);
    const body = await readJson(response, signInCodeResponseSchema);
    expect(body).toEqual({
      success: true,
      message: apiEn["api.signInCodeSent"],
      purpose: "signIn",
      expiresInSeconds: 300,
    });
    const { code } = await codeSentTo(farmer.mobileNo, since);
    expect(JSON.stringify(body)).not.toContain(code);
    expect((await post("/api/auth/login-code", { mobileNo: farmer.mobileNo, code })).status).toBe(200);
    const [row] = await getDb(env.DB)
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.adminUserId, admin.id), eq(adminAudit.target, farmer.mobileNo)));
    expect(row).toMatchObject({ action: "POST /api/admin/users/:id/sign-in-code", status: 200 });
    expect(JSON.parse(row!.details)).toEqual({ purpose: "signIn" });
    expect(row!.details).not.toContain(code);
  });

  it("a code to set a new password when the number is not verified; throttled per number; 404; farmers 403", async () => {
    const admin = await createUser({ isAdmin: true });
    const adminToken = await loginToken(admin, "admin");
    const farmer = await createUser({ verified: false });
    const since = Date.now();
    const response = await send(farmer.id, adminToken);
    expect(await readJson(response, signInCodeResponseSchema)).toMatchObject({ purpose: "resetPassword" });
    // In Hindi, the app's default: the farmer's language is not known.
    expect((await codeSentTo(farmer.mobileNo, since)).text).toMatch(/^[0-9]{6} सिंचाई में नया पासवर्ड रखने का कोड है/);
    // The number's own throttle: three codes an hour, whoever asks.
    expect((await askCode("resetPassword", farmer.mobileNo)).status).toBe(200);
    expect((await send(farmer.id, adminToken)).status).toBe(200);
    expect(await refusalOf(await send(farmer.id, adminToken))).toMatchObject({ status: 429, code: "throttled" });
    expect(await refusalOf(await send(999_999, adminToken))).toMatchObject({ status: 404, code: "userNotFound" });
    expect((await send(farmer.id, await loginToken(farmer))).status).toBe(403);
  });

  it("a verified number changed by an admin is not verified any more", async () => {
    const admin = await createUser({ isAdmin: true });
    const adminToken = await loginToken(admin, "admin");
    const { user, box } = await farmerWithBox({ autoAck: true });
    const newMobile = uniqueMobileNo();
    const changed = await putJson("/api/admin/device-config", { mobileNo: user.mobileNo, newMobile }, adminToken);
    expect(changed.status).toBe(200);
    box.close();
    expect(await verifiedAt(newMobile)).toBeNull();
    const view = await getOk(`/api/admin/user/${user.id}`, adminToken, adminUserResponseSchema);
    expect(view.user.numberVerifiedAt).toBeNull();
  });
});
