// Throttled logins and registrations, and refused common passwords (docs/security.md).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clientAddressKey } from "../../../worker/auth/client-address.ts";
import { KNOWN_DEVICE_COOKIE } from "../../../worker/auth/throttle.ts";
import { createUser, uniqueMobileNo } from "../helpers/accounts.ts";
import { api, cookieSetBy, postJson } from "../helpers/http.ts";

function login(body: object, headers: Record<string, string> = {}) {
  return api("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Moves a throttle's remembered attempts `ms` into the past, as if time had passed. */
async function age(name: string, ms: number) {
  const stub = env.AUTH_THROTTLE.get(env.AUTH_THROTTLE.idFromName(name));
  await runInDurableObject(stub, (_object, state) => {
    state.storage.sql.exec("UPDATE attempts SET at = at - ?", ms);
  });
}

describe("login throttling per number", () => {
  it("slows a guesser after 5 failures, even with the right password, and lets them retry after the delay", async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login({ mobileNo: user.mobileNo, password: `wrong-${attempt}` })).status).toBe(401);
    }
    const throttled = await login({ mobileNo: user.mobileNo, password: user.password });
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toMatchObject({
      success: false,
      message: "Too many attempts. Please wait a little and try again.",
    });
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThanOrEqual(29);
    await age(`loginNumber:${user.mobileNo}`, 31_000);
    expect((await login({ mobileNo: user.mobileNo, password: user.password })).status).toBe(200);
    // Success clears the count: the farmer starts fresh.
    expect((await login({ mobileNo: user.mobileNo, password: "wrong-again" })).status).toBe(401);
  });

  it("doubles the delay with every further failure", async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 5; attempt++) await login({ mobileNo: user.mobileNo, password: "wrong" });
    await age(`loginNumber:${user.mobileNo}`, 31_000);
    expect((await login({ mobileNo: user.mobileNo, password: "wrong" })).status).toBe(401); // 6th, after 30 s
    const next = await login({ mobileNo: user.mobileNo, password: "wrong" });
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("Retry-After"))).toBeGreaterThanOrEqual(59); // now 60 s
  });

  it("treats an unknown number like a known one", async () => {
    const mobileNo = uniqueMobileNo();
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login({ mobileNo, password: "wrong" })).status).toBe(401);
    expect((await login({ mobileNo, password: "wrong" })).status).toBe(429);
  });

  it("never locks out the farmer's own phone (known-device cookie)", async () => {
    const user = await createUser();
    const first = await login({ mobileNo: user.mobileNo, password: user.password });
    const cookie = first.headers.getSetCookie().find((value) => value.startsWith(`${KNOWN_DEVICE_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax; Max-Age=31536000/);
    for (let attempt = 0; attempt < 8; attempt++) await login({ mobileNo: user.mobileNo, password: "attacker" });
    expect((await login({ mobileNo: user.mobileNo, password: user.password })).status).toBe(429); // the attacker's side
    const ownPhone = await login(
      { mobileNo: user.mobileNo, password: user.password },
      { Cookie: cookie.split(";")[0]! },
    );
    expect(ownPhone.status).toBe(200);
  });

  it("counts the known phone's own failures apart, 10 free: a stolen phone cannot guess through the login", async () => {
    const user = await createUser();
    const first = await login({ mobileNo: user.mobileNo, password: user.password });
    const cookie = cookieSetBy(first, KNOWN_DEVICE_COOKIE);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt++) {
      statuses.push(
        (await login({ mobileNo: user.mobileNo, password: `guess-${attempt}` }, { Cookie: cookie })).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    // Apart from strangers' count: the number itself is not throttled for a browser without the cookie.
    expect((await login({ mobileNo: user.mobileNo, password: user.password })).status).toBe(200);
  });

  it("ignores a forged known-device cookie", async () => {
    const user = await createUser();
    for (let attempt = 0; attempt < 5; attempt++) await login({ mobileNo: user.mobileNo, password: "wrong" });
    const forged = `${KNOWN_DEVICE_COOKIE}=eyJhbGciOiJIUzI1NiJ9.eyJudW1iZXJzIjpbIjEiXX0.forged`;
    expect((await login({ mobileNo: user.mobileNo, password: user.password }, { Cookie: forged })).status).toBe(429);
  });
});

describe("login throttling per client address", () => {
  it("slows one address trying many numbers, not the others", async () => {
    const attacker = { "CF-Connecting-IP": "203.0.113.7" };
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, attacker)).status).toBe(401);
    }
    expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, attacker)).status).toBe(429);
    const user = await createUser();
    expect(
      (await login({ mobileNo: user.mobileNo, password: user.password }, { "CF-Connecting-IP": "198.51.100.9" }))
        .status,
    ).toBe(200);
  });

  it("does not count loopback (local mode, where every client shares 127.0.0.1)", async () => {
    const local = { "CF-Connecting-IP": "127.0.0.1" };
    for (let attempt = 0; attempt < 25; attempt++) {
      expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, local)).status).toBe(401);
    }
  });

  it("applies to the admin login too", async () => {
    const admin = await createUser({ isAdmin: true });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await postJson("/api/admin/login", { mobileNo: admin.mobileNo, password: "wrong" })).status).toBe(401);
    }
    expect((await postJson("/api/admin/login", { mobileNo: admin.mobileNo, password: admin.password })).status).toBe(
      429,
    );
  });
});

describe("registration", () => {
  it("refuses the most common passwords, whatever their case", async () => {
    for (const password of ["password", "PASSWORD1", "iloveyou", "qwertyuiop", "12345678"]) {
      const response = await postJson("/api/auth/register", { mobileNo: uniqueMobileNo(), password });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        success: false,
        message: "This password is too common. Please choose a less common one.",
      });
    }
    expect(
      (await postJson("/api/auth/register", { mobileNo: uniqueMobileNo(), password: "kheti-ka-pani-2026" })).status,
    ).toBe(201);
  });

  it("refuses the mobile number itself, blanks and one character repeated, each with its own message", async () => {
    const mobileNo = uniqueMobileNo();
    const refusals: [string, string][] = [
      [mobileNo, "Your password cannot be your mobile number."],
      [` ${mobileNo} `, "Your password cannot be your mobile number."],
      [`+91${mobileNo}`, "Your password cannot be your mobile number."],
      [`0${mobileNo}`, "Your password cannot be your mobile number."],
      ["          ", "Your password cannot be only spaces."],
      ["\t \u00a0 \u3000  \t\n", "Your password cannot be only spaces."],
      ["zzzzzzzzzzzz", "Your password cannot be one character repeated."],
      ["QqQqQqQqQq", "Your password cannot be one character repeated."],
      ["कककककककककक", "Your password cannot be one character repeated."],
      ["🌾🌾🌾🌾🌾🌾🌾🌾", "Your password cannot be one character repeated."],
    ];
    for (const [password, message] of refusals) {
      const response = await postJson("/api/auth/register", { mobileNo, password });
      expect(response.status, JSON.stringify(password)).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, message });
    }
    // Nothing was created: the number is still free.
    expect((await postJson("/api/auth/register", { mobileNo, password: `kheti ${mobileNo}` })).status).toBe(201);
  });

  it("is limited to 10 an hour per client address", async () => {
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.44" };
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await api("/api/auth/register", {
        method: "POST",
        headers,
        body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }),
      });
      expect(response.status).toBe(201);
    }
    const eleventh = await api("/api/auth/register", {
      method: "POST",
      headers,
      body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }),
    });
    expect(eleventh.status).toBe(429);
  });
});

describe("attempts counted before the password is hashed", () => {
  it("lets only 5 of 40 parallel wrong passwords for one number through to the hash", async () => {
    const user = await createUser();
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, attempt) =>
        login({ mobileNo: user.mobileNo, password: `wrong-${attempt}` }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
  });

  it("lets only 20 of 40 parallel wrong passwords from one address through, over many numbers", async () => {
    const attacker = { "CF-Connecting-IP": "203.0.113.80" };
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        login({ mobileNo: uniqueMobileNo(), password: "wrong" }, attacker).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it("accepts only 10 of 30 parallel registrations from one address", async () => {
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": "192.0.2.90" };
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () =>
        api("/api/auth/register", {
          method: "POST",
          headers,
          body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }),
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it("does not count a successful login against the address", async () => {
    const user = await createUser();
    const client = { "CF-Connecting-IP": "198.51.100.70" };
    for (let attempt = 0; attempt < 25; attempt++) {
      expect((await login({ mobileNo: user.mobileNo, password: user.password }, client)).status).toBe(200);
    }
  });
});

describe("IPv6 clients", () => {
  it("share one limit per /64: rotating the last 64 bits does not help", async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const address = `2001:db8:aa:bb:${(attempt + 1).toString(16)}::${(attempt * 7 + 1).toString(16)}`;
      expect(
        (await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, { "CF-Connecting-IP": address })).status,
      ).toBe(401);
    }
    // The same /64 written another way (leading zeros, upper case, no "::").
    const sameNetwork = { "CF-Connecting-IP": "2001:0DB8:00AA:00BB:ffff:ffff:ffff:ffff" };
    expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, sameNetwork)).status).toBe(429);
    // The neighbouring /64 is somebody else.
    const neighbour = { "CF-Connecting-IP": "2001:db8:aa:bc::1" };
    expect((await login({ mobileNo: uniqueMobileNo(), password: "wrong" }, neighbour)).status).toBe(401);
  });

  it("limits registrations per /64 too", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await api("/api/auth/register", {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": `2001:db8:cc:dd::${attempt + 1}` },
        body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }),
      });
      expect(response.status).toBe(201);
    }
    const next = await api("/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "2001:db8:cc:dd:1:2:3:4" },
      body: JSON.stringify({ mobileNo: uniqueMobileNo(), password: "a-fine-password" }),
    });
    expect(next.status).toBe(429);
  });
});

describe("the key a client address is throttled under", () => {
  it("is the /64 for IPv6, the address for IPv4, nothing for loopback", () => {
    expect(clientAddressKey("2001:db8:aa:bb:1:2:3:4")).toBe("2001:db8:aa:bb::/64");
    expect(clientAddressKey("2001:DB8:00AA:00BB::9")).toBe("2001:db8:aa:bb::/64");
    expect(clientAddressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientAddressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientAddressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientAddressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientAddressKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    for (const loopback of ["127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])
      expect(clientAddressKey(loopback)).toBeNull();
    // Not an address: keyed verbatim, never thrown on.
    expect(clientAddressKey("not:an:address::at:all:x")).toBe("not:an:address::at:all:x");
  });
});
