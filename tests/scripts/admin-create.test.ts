// `npm run admin:create` as an operator runs it, against a real local D1:
// a new admin who can log in with the password, a promotion that keeps the password, refusals.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../common/credentials.ts";
import { PASSWORD_ENV } from "../../scripts/lib/admin-account.ts";
import { executeLocalSql } from "../../scripts/lib/local-d1.ts";
import { runNode } from "./run-node.ts";

let persistTo: string;

beforeAll(async () => {
  // Not even migrated: the command must prepare a fresh local database itself.
  persistTo = await mkdtemp(join(tmpdir(), "sinchai-admin-create-"));
});

afterAll(() => rm(persistTo, { recursive: true, force: true }));

function adminCreate(args: string[], options: { password?: string; stdin?: string } = {}) {
  const env = { ...process.env };
  delete env[PASSWORD_ENV];
  if (options.password !== undefined) env[PASSWORD_ENV] = options.password;
  // stdin is always a pipe, closed at once unless given text, so the script never waits for a terminal.
  return runNode(["scripts/admin-create.ts", ...args, "--persist-to", persistTo], { env, stdin: options.stdin ?? "" });
}

type Row = { mobile_no: string; password_hash: string; is_admin: number };

const accounts = (mobileNo: string) =>
  executeLocalSql<Row>(
    persistTo,
    `SELECT mobile_no, password_hash, is_admin FROM users WHERE mobile_no = '${mobileNo}';`,
  );

/** `mobileNo` is one account, an admin's, that signs in with `password`; its rows. */
async function expectOneAdmin(mobileNo: string, password: string) {
  const rows = await accounts(mobileNo);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.is_admin).toBe(1);
  expect(await verifyPassword(password, rows[0]!.password_hash)).toBe(true);
  return rows;
}

/** The command refuses `password` for 9123400004 with `message`, and creates nothing. */
async function expectRefused(password: string, message: string) {
  const run = await adminCreate(["--mobile", "9123400004"], { password });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(message);
  expect(await accounts("9123400004")).toEqual([]);
}

describe("npm run admin:create", () => {
  it("creates an admin with a hashed password from the environment", async () => {
    const run = await adminCreate(["--mobile", "9123400001"], { password: "first-admin-password" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Created admin 9123400001");
    const [row] = await expectOneAdmin("9123400001", "first-admin-password");
    expect(row!.password_hash).not.toContain("first-admin-password");
  });

  it("reads the password from standard input when it is not a terminal", async () => {
    const run = await adminCreate(["--mobile", "9123400002"], { stdin: "piped-password-123\n" });
    expect(run.code, run.stderr).toBe(0);
    expect(await verifyPassword("piped-password-123", (await accounts("9123400002"))[0]!.password_hash)).toBe(true);
  });

  it("promotes an existing account instead of adding a second one, keeping its password", async () => {
    await executeLocalSql(
      persistTo,
      `INSERT INTO users (mobile_no, password_hash, created_at) VALUES ('9123400003', '${await hashPassword("farmer-password")}', 0);`,
    );
    const run = await adminCreate(["--mobile", "9123400003"], { password: "ignored-password" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("now an admin");
    await expectOneAdmin("9123400003", "farmer-password");
    const again = await adminCreate(["--mobile", "9123400003"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already an admin");
  });

  it("refuses a short password, a bad number and a missing number, creating nothing", async () => {
    await expectRefused("short", "at least 8 characters");
    await expectRefused("password123", "too common");
    await expectRefused("9123400004", "cannot be your mobile number");
    await expectRefused("qqqqqqqqqqqq", "one character repeated");
    const empty = await adminCreate(["--mobile", "9123400004"], { stdin: "" });
    expect(empty.code).toBe(1);
    expect(await accounts("9123400004")).toEqual([]);
    const bad = await adminCreate(["--mobile", "0123400004"], { password: "long-enough-password" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("10-digit");
    const missing = await adminCreate([], { password: "long-enough-password" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Usage: npm run admin:create");
  });
});
