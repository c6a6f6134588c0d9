// The operators' provisioning commands against a real local D1.
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashClaimCode } from "../../common/claim-codes.ts";
import { DEVICE_ID_PATTERN, hashDeviceKey, hashPassword } from "../../common/credentials.ts";
import {
  assignDevice,
  labelDevice,
  listDevices,
  provisionDevice,
  rotateDeviceKey,
} from "../../scripts/lib/device-admin.ts";
import { type D1Target, executeLocalSql } from "../../scripts/lib/local-d1.ts";
import { freshPersistDir } from "../integration/local-worker.ts";

let target: D1Target & { remote: false };

beforeAll(async () => {
  target = { remote: false, persistTo: await freshPersistDir() };
  await executeLocalSql(
    target.persistTo,
    `INSERT INTO users (mobile_no, password_hash, created_at) VALUES ('9123450001', '${await hashPassword("x-password")}', 0),
                                                                     ('9123450002', 'unused', 0), ('9123450003', 'unused', 0),
                                                                     ('9123450004', 'unused', 0), ('9123450005', 'unused', 0);`,
  );
});

afterAll(() => rm(target.persistTo, { recursive: true, force: true }));

describe("npm run device", () => {
  it("provisions, rotates, assigns and lists, keeping only key hashes", async () => {
    const { deviceId, key } = await provisionDevice(target, { kind: "1phase", ownerMobileNo: "9123450001" });
    expect(deviceId).toMatch(DEVICE_ID_PATTERN);
    const [stored] = await executeLocalSql<{ key_hash: string }>(
      target.persistTo,
      `SELECT key_hash FROM devices WHERE id = '${deviceId}';`,
    );
    expect(stored!.key_hash).toBe(await hashDeviceKey(key));

    const rotated = await rotateDeviceKey(target, deviceId);
    expect(rotated).not.toBe(key);
    const [after] = await executeLocalSql<{ key_hash: string }>(
      target.persistTo,
      `SELECT key_hash FROM devices WHERE id = '${deviceId}';`,
    );
    expect(after!.key_hash).toBe(await hashDeviceKey(rotated));

    expect(await assignDevice(target, deviceId, null, null)).toEqual({
      told: false,
      why: "no Worker address was given (--url)",
    });
    expect(await assignDevice(target, deviceId, "9123450002", null)).toMatchObject({ told: false });
    expect(await listDevices(target)).toEqual([
      { id: deviceId, kind: "1phase", owner: "9123450002", online: 0, firmware: null },
    ]);
  });

  it("assigns as the admin API does: the old owner's people and invitations go, and the hub's notice waits in D1", async () => {
    const { deviceId } = await provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450003" });
    await executeLocalSql(
      target.persistTo,
      `INSERT INTO device_members (device_id, mobile_no, role, label, created_at, accepted_at)
       VALUES ('${deviceId}', '9123450009', 'operator', 'Ram', 1, 1), ('${deviceId}', '9123450008', 'viewer', 'Sita', 1, NULL);`,
    );
    // No Worker answers at this address: the notice stays for the Worker's cron trigger.
    const told = await assignDevice(target, deviceId, "9123450002", "http://127.0.0.1:9");
    expect(told).toMatchObject({ told: false, why: expect.stringContaining("did not deliver it") });
    const left = <Row = Record<string, unknown>>(sql: string) => executeLocalSql<Row>(target.persistTo, sql);
    expect(await left(`SELECT mobile_no FROM device_members WHERE device_id = '${deviceId}';`)).toEqual([]);
    expect(await left(`SELECT version FROM hub_notices WHERE device_id = '${deviceId}';`)).toEqual([{ version: 1 }]);
    const [linked] = await left<{ linked_at: number | null }>(
      `SELECT linked_at FROM devices WHERE id = '${deviceId}';`,
    );
    expect(linked!.linked_at).toEqual(expect.any(Number));
    // The same owner again changes nothing: people stay, and `linked_at` (which box is first) too.
    await left(
      `INSERT INTO device_members (device_id, mobile_no, role, label, created_at, accepted_at) VALUES ('${deviceId}', '9123450009', 'operator', 'Ram', 1, 1);`,
    );
    await assignDevice(target, deviceId, "9123450002", null);
    expect(await left(`SELECT mobile_no FROM device_members WHERE device_id = '${deviceId}';`)).toEqual([
      { mobile_no: "9123450009" },
    ]);
    expect(await left(`SELECT linked_at FROM devices WHERE id = '${deviceId}';`)).toEqual([linked]);
  });

  it("labels a box with a new claim code, keeping only its hash, and refuses a box that does not exist", async () => {
    const { deviceId } = await provisionDevice(target, { kind: "3phase" });
    const code = await labelDevice(target, deviceId);
    expect(code).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{10}$/);
    const rows = await executeLocalSql<{ code_hash: string; used_at: number | null }>(
      target.persistTo,
      `SELECT code_hash, used_at FROM box_claims WHERE device_id = '${deviceId}';`,
    );
    expect(rows).toEqual([{ code_hash: await hashClaimCode(deviceId, code), used_at: null }]);
    await expect(labelDevice(target, "SNC-ZZZZZZZZ")).rejects.toThrow("No device SNC-ZZZZZZZZ.");
  });

  it("tags a box waiting for its farmer with a region in its one form, and no box of an owner", async () => {
    const { deviceId } = await provisionDevice(target, { kind: "3phase", region: "  Bara  Banki " });
    const rows = await executeLocalSql<{ region: string | null }>(
      target.persistTo,
      `SELECT region FROM devices WHERE id = '${deviceId}';`,
    );
    expect(rows).toEqual([{ region: "bara banki" }]);
    await expect(
      provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450002", region: "sitapur" }),
    ).rejects.toThrow(/no region/);
    await expect(provisionDevice(target, { kind: "3phase", region: "x'; DROP TABLE devices; --" })).rejects.toThrow();
  });

  it("refuses unknown accounts and bad ids", async () => {
    await expect(provisionDevice(target, { kind: "3phase", ownerMobileNo: "9999999999" })).rejects.toThrow(
      /No account/,
    );
    await expect(rotateDeviceKey(target, "SNC-ZZZZZZZZ")).rejects.toThrow(/No device/);
    await expect(rotateDeviceKey(target, "'; DROP TABLE devices; --")).rejects.toThrow(/Not a device id/);
  });

  it("provisions a second box for an account that has one, as the admin API does", async () => {
    const first = await provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450004" });
    const second = await provisionDevice(target, { kind: "1phase", ownerMobileNo: "9123450004" });
    const owned = await executeLocalSql<{ id: string }>(
      target.persistTo,
      "SELECT d.id FROM devices d JOIN users u ON u.id = d.owner_user_id WHERE u.mobile_no = '9123450004' ORDER BY d.id;",
    );
    expect(owned.map((row) => row.id)).toEqual([first.deviceId, second.deviceId].sort());
  });

  it("gives an account's first box the settings an admin kept for it, once", async () => {
    const [account] = await executeLocalSql<{ id: number }>(
      target.persistTo,
      "SELECT id FROM users WHERE mobile_no = '9123450005';",
    );
    await executeLocalSql(
      target.persistTo,
      `INSERT INTO first_box_settings (user_id, default_current, dry_run_threshold, over_current_threshold, changed_by_user_id, updated_at)
       VALUES (${account!.id}, 8.9, 25, 40, NULL, 1);`,
    );
    const first = await provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450005" });
    const second = await provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450005" });
    const settings = (deviceId: string) =>
      executeLocalSql(
        target.persistTo,
        `SELECT default_current, dry_run_threshold, over_current_threshold FROM devices WHERE id = '${deviceId}';`,
      );
    expect(await settings(first.deviceId)).toEqual([
      { default_current: 8.9, dry_run_threshold: 25, over_current_threshold: 40 },
    ]);
    expect(await settings(second.deviceId)).toEqual([
      { default_current: 1, dry_run_threshold: 30, over_current_threshold: 30 },
    ]);
    expect(await executeLocalSql(target.persistTo, "SELECT user_id FROM first_box_settings;")).toEqual([]);
  });
});
