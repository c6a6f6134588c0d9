// One-time codes in workerd with the real D1 and AuthThrottle: the same answer for every number,
// stored as a keyed hash, 5 minutes, 5 tries counted before each comparison, bound to number and
// purpose, used once, throttled per number and per client address. Not wired to any route yet:
// these call the module as the routes will.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import {
  CODE_MAX_TRIES,
  CODE_TTL_MS,
  type CodePurpose,
  checkCode,
  hashCode,
  newCode,
  requestCode,
} from "../../../worker/auth/one-time-codes.ts";
import type { AuthClient } from "../../../worker/auth/throttle.ts";
import { getDb } from "../../../worker/db/client.ts";
import { oneTimeCodes } from "../../../worker/db/schema.ts";
import { HttpError } from "../../../worker/http/http-error.ts";
import { createUser, uniqueMobileNo } from "../helpers/accounts.ts";

let addressCounter = 0;
/** A client address of its own, so one test's throttle never meets another's. */
function freshClient(): AuthClient {
  addressCounter += 1;
  return { ip: `198.51.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`, knownDevice: null };
}

type Asked = { answer: Awaited<ReturnType<typeof requestCode>>; delivered: string[]; order: string[] };

/** Asks for a code as a route will, waiting for what runs after the answer. */
async function ask(
  mobileNo: string,
  options: { purpose?: CodePurpose; mayReceive?: boolean; client?: AuthClient | null; now?: number } = {},
): Promise<Asked> {
  const delivered: string[] = [];
  const order: string[] = [];
  const background: Promise<unknown>[] = [];
  const answer = await requestCode(
    env,
    {
      purpose: options.purpose ?? "signIn",
      mobileNo,
      client: options.client === undefined ? freshClient() : options.client,
      mayReceive: async () => {
        order.push("mayReceive");
        return options.mayReceive ?? true;
      },
      deliver: async (code) => {
        order.push("deliver");
        delivered.push(code);
      },
      waitUntil: (promise) => background.push(promise),
    },
    options.now,
  );
  order.push("answered");
  await Promise.all(background);
  return { answer, delivered, order };
}

function check(mobileNo: string, code: string, options: { purpose?: CodePurpose; now?: number } = {}) {
  return checkCode(env, { purpose: options.purpose ?? "signIn", mobileNo, code, client: freshClient() }, options.now);
}

async function rowOf(mobileNo: string, purpose: CodePurpose = "signIn") {
  const [row] = await getDb(env.DB)
    .select()
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.mobileNo, mobileNo), eq(oneTimeCodes.purpose, purpose)));
  return row;
}

/** A code that is not `code`. */
function otherThan(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0");
}

describe("asking for a code", () => {
  it("answers alike for a number that may get one and one that may not, and leaves alike rows", async () => {
    const registered = uniqueMobileNo();
    const unregistered = uniqueMobileNo();
    const sent = await ask(registered, { mayReceive: true });
    const withheld = await ask(unregistered, { mayReceive: false });
    expect(withheld.answer).toEqual(sent.answer);
    expect(sent.answer).toEqual({ expiresInSeconds: 300, codeLength: 6 });
    // Whether it may is asked only after the answer, and only then is the code sent.
    expect(sent.order).toEqual(["answered", "mayReceive", "deliver"]);
    expect(withheld.order).toEqual(["answered", "mayReceive"]);
    expect(sent.delivered).toHaveLength(1);
    expect(withheld.delivered).toEqual([]);
    const [a, b] = [await rowOf(registered), await rowOf(unregistered)];
    expect(Object.keys(a!)).toEqual(Object.keys(b!));
    expect([a!.tries, a!.usedAt, a!.expiresAt - a!.createdAt]).toEqual([
      b!.tries,
      b!.usedAt,
      b!.expiresAt - b!.createdAt,
    ]);
    expect(a!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    // A withheld code exists but nobody has it: checking it is just a wrong guess.
    expect(await check(unregistered, "123456")).toMatchObject({ ok: false, reason: "wrongCode" });
  });

  it("makes six random digits, stored only as a keyed hash bound to the number and purpose", async () => {
    const codes = new Set(Array.from({ length: 200 }, () => newCode()));
    for (const code of codes) expect(code).toMatch(/^[0-9]{6}$/);
    expect(codes.size).toBeGreaterThan(190);

    const mobileNo = uniqueMobileNo();
    const { delivered } = await ask(mobileNo);
    const code = delivered[0]!;
    const row = await rowOf(mobileNo);
    expect(row!.codeHash).not.toContain(code);
    expect(row!.codeHash).toBe(await hashCode(env.JWT_SECRET, "signIn", mobileNo, code));
    // Without the Worker's secret the row proves nothing: another key makes another hash.
    expect(row!.codeHash).not.toBe(await hashCode(`${env.JWT_SECRET}-other`, "signIn", mobileNo, code));
    expect(row!.codeHash).not.toBe(await hashCode(env.JWT_SECRET, "resetPassword", mobileNo, code));
  });

  it("goes on when the code cannot be delivered: the failure is logged, without the code", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const background: Promise<unknown>[] = [];
    const answer = await requestCode(env, {
      purpose: "verifyNumber",
      mobileNo: uniqueMobileNo(),
      client: freshClient(),
      mayReceive: async () => true,
      deliver: async () => {
        throw new Error("the provider said 503");
      },
      waitUntil: (promise) => background.push(promise),
    });
    await Promise.all(background);
    expect(answer).toEqual({ expiresInSeconds: 300, codeLength: 6 });
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toBe("A verifyNumber code could not be delivered");
    errors.mockRestore();
  });
});

describe("checking a code", () => {
  it("accepts the right code once", async () => {
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo)).delivered[0]!;
    expect(await check(mobileNo, code)).toEqual({ ok: true });
    expect(await check(mobileNo, code)).toEqual({ ok: false, reason: "noCode" });
  });

  it("allows 5 tries: after 5 wrong ones even the right code is refused", async () => {
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo)).delivered[0]!;
    const answers = [];
    for (let i = 0; i < CODE_MAX_TRIES; i++) answers.push(await check(mobileNo, otherThan(code)));
    expect(answers.map((answer) => !answer.ok && answer.reason === "wrongCode" && answer.triesLeft)).toEqual([
      4, 3, 2, 1, 0,
    ]);
    expect(await check(mobileNo, code)).toEqual({ ok: false, reason: "noCode" });
    // A malformed guess is a try like any other.
    const next = uniqueMobileNo();
    const nextCode = (await ask(next)).delivered[0]!;
    expect(await check(next, "12 34")).toEqual({ ok: false, reason: "wrongCode", triesLeft: 4 });
    expect(await check(next, nextCode)).toEqual({ ok: true });
  });

  it("counts every one of parallel guesses: of 12 at once, 5 are compared and 7 find no code", async () => {
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo)).delivered[0]!;
    const answers = await Promise.all(Array.from({ length: 12 }, () => check(mobileNo, otherThan(code))));
    const compared = answers.filter((answer) => !answer.ok && answer.reason === "wrongCode");
    expect(compared).toHaveLength(5);
    expect(compared.map((answer) => !answer.ok && answer.reason === "wrongCode" && answer.triesLeft).sort()).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect((await rowOf(mobileNo))!.tries).toBe(5);
  });

  it("uses a right code once when it is checked many times at once", async () => {
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo)).delivered[0]!;
    const answers = await Promise.all(Array.from({ length: 5 }, () => check(mobileNo, code)));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
  });

  it("lives 5 minutes", async () => {
    const now = Date.now();
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo, { now })).delivered[0]!;
    expect(await check(mobileNo, code, { now: now + CODE_TTL_MS })).toEqual({ ok: false, reason: "noCode" });
    expect(await check(mobileNo, code, { now: now + CODE_TTL_MS - 1 })).toEqual({ ok: true });
  });

  it("works only for its own number and purpose, and a new code replaces the last", async () => {
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo, { purpose: "resetPassword" })).delivered[0]!;
    expect(await check(mobileNo, code, { purpose: "signIn" })).toEqual({ ok: false, reason: "noCode" });
    expect(await check(uniqueMobileNo(), code, { purpose: "resetPassword" })).toEqual({ ok: false, reason: "noCode" });
    const newer = (await ask(mobileNo, { purpose: "resetPassword" })).delivered[0]!;
    if (newer !== code) {
      expect(await check(mobileNo, code, { purpose: "resetPassword" })).toMatchObject({ reason: "wrongCode" });
    }
    expect(await check(mobileNo, newer, { purpose: "resetPassword" })).toEqual({ ok: true });
  });
});

describe("throttling", () => {
  async function status(promise: Promise<unknown>): Promise<number | "ok"> {
    try {
      await promise;
      return "ok";
    } catch (error) {
      if (error instanceof HttpError) return error.status;
      throw error;
    }
  }

  it("limits codes for one number, from any address, whether or not it may get them", async () => {
    for (const mayReceive of [true, false]) {
      const mobileNo = uniqueMobileNo();
      const outcomes = [];
      for (let i = 0; i < 5; i++) outcomes.push(await status(ask(mobileNo, { mayReceive })));
      expect(outcomes).toEqual(["ok", "ok", "ok", 429, 429]);
    }
  });

  it("limits codes asked from one client address, whatever the numbers", async () => {
    const client = freshClient();
    const outcomes = [];
    for (let i = 0; i < 12; i++) outcomes.push(await status(ask(uniqueMobileNo(), { client })));
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(10);
    expect(outcomes.slice(10)).toEqual([429, 429]);
  });

  it("limits checks from one client address, right or wrong, whatever the numbers", async () => {
    const client = freshClient();
    const mobileNo = uniqueMobileNo();
    const code = (await ask(mobileNo)).delivered[0]!;
    const outcomes = [];
    for (let i = 0; i < 20; i++) {
      outcomes.push(
        await status(checkCode(env, { purpose: "signIn", mobileNo: uniqueMobileNo(), code: "000000", client })),
      );
    }
    expect(outcomes.every((outcome) => outcome === "ok")).toBe(true);
    const refused = await checkCode(env, { purpose: "signIn", mobileNo, code, client }).catch((error) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(0);
    // The refused check cost the code nothing.
    expect((await rowOf(mobileNo))!.tries).toBe(0);
  });

  it("limits checks of one number from any addresses: 20 a day, then each waits; a right code clears them", async () => {
    // The farmer's verified account: its own phone signed in to it before.
    const farmer = await createUser();
    const { mobileNo } = farmer;
    // Many codes' worth of guesses from many addresses (as a spread-out attacker's would have,
    // once the waits between codes have passed): the number's own count stops them.
    for (let i = 0; i < 20; i++) {
      expect(await status(checkCode(env, { purpose: "signIn", mobileNo, code: "000000", client: freshClient() }))).toBe(
        "ok",
      );
    }
    const refused = await checkCode(env, { purpose: "signIn", mobileNo, code: "000000", client: freshClient() }).catch(
      (error) => error,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(0);
    // The farmer's own phone (it signed in with this number before) is not held back by them.
    const code = (await ask(mobileNo, { client: null })).delivered[0]!;
    const ownPhone: AuthClient = {
      ...freshClient(),
      knownDevice: { id: "own-phone", accounts: [{ mobileNo, accountId: farmer.id, version: 0 }] },
    };
    expect(await checkCode(env, { purpose: "signIn", mobileNo, code, client: ownPhone })).toEqual({ ok: true });
    // A right code ends the count: the next check is not held back.
    expect(await status(checkCode(env, { purpose: "signIn", mobileNo, code: "000000", client: freshClient() }))).toBe(
      "ok",
    );
  });
});
