// The operators' provisioning commands against a real local D1 (wrangler d1 execute).
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_ID_PATTERN, hashDeviceKey, hashPassword } from "../../common/credentials.ts";
import { assignDevice, listDevices, provisionDevice, rotateDeviceKey } from "../../scripts/lib/device-admin.ts";
import { type D1Target, executeLocalSql } from "../../scripts/lib/local-d1.ts";
import { freshPersistDir } from "../integration/local-worker.ts";

let target: D1Target & { remote: false };

beforeAll(async () => {
  target = { remote: false, persistTo: await freshPersistDir() };
  await executeLocalSql(
    target.persistTo,
    `INSERT INTO users (mobile_no, password_hash, created_at) VALUES ('9123450001', '${await hashPassword("x-password")}', 0),
                                                                     ('9123450002', 'unused', 0);`,
  );
}, 60_000);

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

    await assignDevice(target, deviceId, null);
    await assignDevice(target, deviceId, "9123450002");
    expect(await listDevices(target)).toEqual([
      { id: deviceId, kind: "1phase", owner: "9123450002", online: 0, firmware: null },
    ]);
  }, 60_000);

  it("refuses unknown accounts, accounts that already have a device and bad ids", async () => {
    await expect(provisionDevice(target, { kind: "3phase", ownerMobileNo: "9999999999" })).rejects.toThrow(
      /No account/,
    );
    await provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450001" });
    await expect(provisionDevice(target, { kind: "3phase", ownerMobileNo: "9123450001" })).rejects.toThrow(
      /already has device/,
    );
    await expect(rotateDeviceKey(target, "SNC-ZZZZZZZZ")).rejects.toThrow(/No device/);
    await expect(rotateDeviceKey(target, "'; DROP TABLE devices; --")).rejects.toThrow(/Not a device id/);
  }, 60_000);
});
