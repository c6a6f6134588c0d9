// The operator commands against a deployed D1, checked without an account: the SQL they send
// (one pure function, the same text locally and remotely), the wrangler flags that carry it, which targets the options may name, and that this wrangler accepts the remote
// command and stops only where an account is needed. Nothing here reaches Cloudflare.
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HUB_NOTICE_UPSERT } from "../../common/access-change-sql.ts";
import { deploySteps } from "../../scripts/deploy.ts";
import {
  d1TargetFrom,
  PLACEHOLDER,
  placeholdersIn,
  type RawWranglerConfig,
  readWranglerToml,
} from "../../scripts/lib/environments.ts";
import { describeTarget, remoteD1ExecuteArgs } from "../../scripts/lib/local-d1.ts";
import { operatorSql, sqlText } from "../../scripts/lib/operator-sql.ts";
import { LOCAL_ENV, WRANGLER_BIN } from "../../scripts/lib/wrangler.ts";
import { runNode } from "./run-node.ts";

const HASH = "pbkdf2-sha256$100000$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA";
const KEY_HASH = "3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

describe("operatorSql", () => {
  it("builds each statement the commands send, values quoted", () => {
    expect(operatorSql({ op: "findAccount", mobileNo: "9812345678" })).toBe(
      "SELECT is_admin FROM users WHERE mobile_no = '9812345678';",
    );
    expect(operatorSql({ op: "promoteAdmin", mobileNo: "9812345678" })).toBe(
      "UPDATE users SET is_admin = 1 WHERE mobile_no = '9812345678';",
    );
    expect(operatorSql({ op: "createAdmin", mobileNo: "9812345678", passwordHash: HASH, now: 1_700_000_000_000 })).toBe(
      "INSERT INTO users (mobile_no, password_hash, is_admin, created_at) " +
        `VALUES ('9812345678', '${HASH}', 1, 1700000000000) ON CONFLICT(mobile_no) DO UPDATE SET is_admin = 1;`,
    );
    expect(
      operatorSql({
        op: "provisionDevice",
        deviceId: "SNC-ABCDEFGH",
        ownerUserId: null,
        kind: "1phase",
        keyHash: KEY_HASH,
        now: 5,
      }),
    ).toBe(
      `INSERT INTO devices (id, owner_user_id, kind, key_hash, created_at, region) VALUES ('SNC-ABCDEFGH', NULL, '1phase', '${KEY_HASH}', 5, NULL);`,
    );
    // The Worker's own provisioning (common/first-box-sql.ts): a box for an account takes its kept settings.
    const forAccount = operatorSql({
      op: "provisionDevice",
      deviceId: "SNC-ABCDEFGH",
      ownerUserId: 42,
      kind: "3phase",
      keyHash: KEY_HASH,
      now: 5,
    }).split("\n");
    expect(forAccount).toHaveLength(4);
    expect(forAccount[2]).toContain(
      "WHERE id = 'SNC-ABCDEFGH' AND EXISTS (SELECT 1 FROM first_box_settings WHERE user_id = 42)",
    );
    expect(forAccount[3]).toBe(
      "DELETE FROM first_box_settings WHERE user_id = 42 AND EXISTS (SELECT 1 FROM devices WHERE id = 'SNC-ABCDEFGH');",
    );
    // The Worker's own relink (common/access-change-sql.ts), its parameters written in; the
    // middle three give a first box the settings kept for the account (common/first-box-sql.ts).
    const relink = operatorSql({ op: "relinkDevice", deviceId: "SNC-ABCDEFGH", ownerUserId: 42, now: 5 }).split("\n");
    expect([...relink.slice(0, 3), relink.at(-1)]).toEqual([
      `INSERT INTO hub_notices (device_id, asked_at) SELECT id, 5 FROM devices WHERE id = 'SNC-ABCDEFGH' ${HUB_NOTICE_UPSERT};`,
      "DELETE FROM device_members WHERE device_id = 'SNC-ABCDEFGH' AND (SELECT owner_user_id FROM devices WHERE id = 'SNC-ABCDEFGH') IS NOT 42;",
      "UPDATE installations SET handed_over_at = 5 WHERE device_id = 'SNC-ABCDEFGH' AND handed_over_at IS NULL AND farmer_user_id IS NOT 42;",
      "UPDATE devices SET linked_at = CASE WHEN owner_user_id IS 42 THEN linked_at WHEN 42 IS NULL THEN NULL ELSE 5 END, " +
        "start_by_missed_call = CASE WHEN owner_user_id IS 42 THEN start_by_missed_call ELSE 0 END, " +
        "sms_pin = CASE WHEN owner_user_id IS 42 THEN sms_pin ELSE NULL END, " +
        "owner_user_id = 42 WHERE id = 'SNC-ABCDEFGH' RETURNING id;",
    ]);
    expect(relink.slice(3, -1)).toEqual(forAccount.slice(1));
    expect(operatorSql({ op: "relinkDevice", deviceId: "SNC-ABCDEFGH", ownerUserId: null, now: 5 })).toContain(
      "IS NOT NULL;",
    );
    expect(operatorSql({ op: "findHubNotice", deviceId: "SNC-ABCDEFGH" })).toBe(
      "SELECT version FROM hub_notices WHERE device_id = 'SNC-ABCDEFGH';",
    );
    expect(operatorSql({ op: "rotateDeviceKey", deviceId: "SNC-ABCDEFGH", keyHash: KEY_HASH })).toContain(
      "RETURNING id;",
    );
    expect(operatorSql({ op: "findOwner", mobileNo: "9812345678" })).toBe(
      "SELECT id FROM users WHERE mobile_no = '9812345678';",
    );
    expect(operatorSql({ op: "listDevices" })).toMatch(
      /^SELECT d.id, d.kind, u.mobile_no AS owner, d.online, d.firmware /,
    );
    expect(sqlText("it's")).toBe("'it''s'");
  });

  it("refuses values that are not what they claim to be, so nothing typed can become SQL", () => {
    expect(() => operatorSql({ op: "findAccount", mobileNo: "98123' OR '1'='1" })).toThrow(/Not a mobile number/);
    expect(() =>
      operatorSql({ op: "rotateDeviceKey", deviceId: "'; DROP TABLE devices; --", keyHash: KEY_HASH }),
    ).toThrow(/Not a device id/);
    expect(() => operatorSql({ op: "relinkDevice", deviceId: "SNC-ABCDEFGH", ownerUserId: -1, now: 5 })).toThrow(
      /Not a user id/,
    );
    expect(() => operatorSql({ op: "relinkDevice", deviceId: "SNC-ABCDEFGH", ownerUserId: 1.5, now: 5 })).toThrow(
      /Not a user id/,
    );
    expect(() => operatorSql({ op: "relinkDevice", deviceId: "SNC-ABC' --", ownerUserId: 1, now: 5 })).toThrow(
      /Not a device id/,
    );
    expect(() =>
      operatorSql({ op: "createAdmin", mobileNo: "9812345678", passwordHash: "x', 1, 0); --", now: 1 }),
    ).toThrow(/Not a hash/);
    expect(() =>
      operatorSql({ op: "createAdmin", mobileNo: "9812345678", passwordHash: HASH, now: Number.NaN }),
    ).toThrow(/Not a time/);
    expect(() =>
      operatorSql({
        op: "provisionDevice",
        deviceId: "SNC-ABCDEFGH",
        ownerUserId: 1,
        kind: "4phase" as "1phase",
        keyHash: KEY_HASH,
        now: 1,
      }),
    ).toThrow();
  });
});

describe("remoteD1ExecuteArgs", () => {
  const sql = operatorSql({ op: "listDevices" });

  it("names the environment's database and carries the SQL in --command", () => {
    expect(remoteD1ExecuteArgs("production", sql)).toEqual([
      "d1",
      "execute",
      "DB",
      "--remote",
      "--env",
      "production",
      "--command",
      sql,
      "--json",
      "-c",
      "wrangler.toml",
    ]);
  });

  it("never sends a remote database a file: that would be an import, locking it and answering without rows", () => {
    expect(remoteD1ExecuteArgs("production", sql)).not.toContain("--file");
    expect(describeTarget({ remote: true, environment: "production" })).toBe("the production D1 (remote)");
    expect(describeTarget({ remote: false, persistTo: ".wrangler/state" })).toBe("local D1 (.wrangler/state)");
  });
});

describe("d1TargetFrom: what --remote, --env and --persist-to may name", () => {
  const filled: RawWranglerConfig = {
    env: {
      staging: { d1_databases: [{ binding: "DB", database_id: "0b1c9a7e-5d2f-4c11-9e5a-2f7c3d4b5a61" }] },
      production: { d1_databases: [{ binding: "DB", database_id: `${PLACEHOLDER} with the id` }] },
    },
  };

  it("is local unless --remote, and --env alone is a mistake", () => {
    expect(d1TargetFrom({ remote: false, persistTo: "state" })).toEqual({ remote: false, persistTo: "state" });
    expect(() => d1TargetFrom({ remote: false, env: "production", persistTo: "state" })).toThrow(/add --remote/);
  });

  it("is remote only with a named environment that has no placeholders left", () => {
    expect(d1TargetFrom({ remote: true, env: "staging", persistTo: "state" }, filled)).toEqual({
      remote: true,
      environment: "staging",
    });
    expect(() => d1TargetFrom({ remote: true, persistTo: "state" }, filled)).toThrow(
      "--remote needs --env staging|production.",
    );
    expect(() => d1TargetFrom({ remote: true, env: "prod", persistTo: "state" }, filled)).toThrow(
      /no environment "prod"/,
    );
    expect(() => d1TargetFrom({ remote: true, env: "production", persistTo: "state" }, filled)).toThrow(
      /env\.production\.d1_databases\[0\]\.database_id/,
    );
  });
});

describe("the remote command, given to this wrangler without an account", () => {
  let directory: string;

  beforeAll(async () => {
    // A copy of wrangler.toml as an operator would have filled it in (made-up id, UPI id, push
    // contact and telephony settings).
    directory = await mkdtemp(join(tmpdir(), "sinchai-remote-d1-"));
    const toml = (await readFile("wrangler.toml", "utf8"))
      .replace(/"REPLACE-ME with the database_id[^"]*"/g, '"0b1c9a7e-5d2f-4c11-9e5a-2f7c3d4b5a61"')
      .replace(/"REPLACE-ME with the UPI id[^"]*"/g, '"sinchai@examplebank"')
      .replace(/"REPLACE-ME with the mailto:[^"]*"/g, '"mailto:support@example.in"')
      .replace(/^((?:TELEPHONY|PHONE|PAYMENT|RAZORPAY)_[A-Z_]+ = )"REPLACE-ME[^"]*"/gm, '$1"filled-in"')
      .replace(/^("[A-Za-z]+\.(?:hi|en)" = )"REPLACE-ME[^"]*"/gm, '$1"1207161234567890123"');
    await writeFile(join(directory, "wrangler.toml"), toml);
    const filledIn = await readWranglerToml(join(directory, "wrangler.toml"));
    expect(placeholdersIn(filledIn.env)).toEqual([]);
    await symlink(resolve("migrations"), join(directory, "migrations"), "dir");
  });

  afterAll(() => rm(directory, { recursive: true, force: true }));

  /** Runs wrangler there with no credentials at all: no token, and a config home of its own. */
  function wrangler(args: string[]) {
    const env: NodeJS.ProcessEnv = { ...process.env, ...LOCAL_ENV, XDG_CONFIG_HOME: join(directory, "config") };
    delete env.CLOUDFLARE_API_TOKEN;
    delete env.CLOUDFLARE_ACCOUNT_ID;
    delete env.CLOUDFLARE_ENV;
    return runNode([WRANGLER_BIN, ...args], { cwd: directory, env });
  }

  it("accepts every flag of `npm run device -- list --remote --env production` and stops at the missing API token", async () => {
    const args = remoteD1ExecuteArgs("production", operatorSql({ op: "listDevices" }));
    const { code, output } = await wrangler(args);
    expect(code).not.toBe(0);
    expect(output).toContain("CLOUDFLARE_API_TOKEN");
    expect(output).not.toMatch(/Unknown argument|No environment found/);
  });

  it("accepts the deploy's migration step for production and stops at the missing API token too", async () => {
    const migrate = deploySteps("production", { dryRun: false }).find((step) => step.args.includes("migrations"))!;
    expect(migrate.args[0]).toBe(WRANGLER_BIN);
    const { code, output } = await wrangler(migrate.args.slice(1));
    expect(code).not.toBe(0);
    expect(output).toContain("CLOUDFLARE_API_TOKEN");
    expect(output).not.toMatch(/Unknown argument|No environment found|No migrations present/);
  });
});
