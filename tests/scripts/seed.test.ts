// `npm start` seeds the demo once: a restart keeps the demo accounts, what a person changed
// and the demo box's key; `--reset-demo` starts the demo over (against a real local D1).
import { readFile, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashDeviceKey, verifyPassword } from "../../common/credentials.ts";
import { executeLocalSql } from "../../scripts/lib/local-d1.ts";
import { localDeviceFile } from "../../scripts/lib/local-devices.ts";
import { DEMO_DEVICE, DEMO_USER, resetLocalDemo, seedLocalDemo } from "../../scripts/lib/seed.ts";
import { freshPersistDir } from "../integration/local-worker.ts";

let persistTo: string;

beforeAll(async () => {
  persistTo = await freshPersistDir();
});

afterAll(() => rm(persistTo, { recursive: true, force: true }));

async function demoState() {
  const [row] = await executeLocalSql<{
    key_hash: string;
    default_current: number;
    password_hash: string;
    user_id: number;
  }>(
    persistTo,
    `SELECT d.key_hash, d.default_current, u.password_hash, u.id AS user_id FROM devices d JOIN users u ON u.id = d.owner_user_id
     WHERE d.id = '${DEMO_DEVICE.deviceId}';`,
  );
  const file = JSON.parse(await readFile(localDeviceFile(persistTo, DEMO_DEVICE.deviceId), "utf8")) as { key: string };
  return { ...row!, fileKey: file.key };
}

describe("the demo seed", () => {
  it("seeds once, then keeps the accounts, their changes and the box's key across restarts; --reset-demo starts over", async () => {
    const first = await seedLocalDemo(persistTo);
    const seeded = await demoState();
    expect(seeded.key_hash).toBe(await hashDeviceKey(first.key));
    expect(seeded.fileKey).toBe(first.key);
    const seededCurrent = seeded.default_current;

    // A person changes the pump's settings; then npm start runs again.
    await executeLocalSql(persistTo, `UPDATE devices SET default_current = 3.5 WHERE id = '${DEMO_DEVICE.deviceId}';`);
    const second = await seedLocalDemo(persistTo);
    const kept = await demoState();
    expect(second.key).toBe(first.key);
    expect(kept.key_hash).toBe(seeded.key_hash);
    expect(kept.default_current).toBe(3.5);
    expect(kept.user_id).toBe(seeded.user_id);

    // The key file lost (or the key rotated elsewhere): a new key, the settings still kept.
    await rm(localDeviceFile(persistTo, DEMO_DEVICE.deviceId));
    const third = await seedLocalDemo(persistTo);
    const rekeyed = await demoState();
    expect(third.key).not.toBe(first.key);
    expect(rekeyed.key_hash).toBe(await hashDeviceKey(third.key));
    expect(rekeyed.default_current).toBe(3.5);

    // --reset-demo: the demo as first seeded, a fresh account and key.
    await executeLocalSql(
      persistTo,
      `UPDATE users SET password_hash = 'changed' WHERE mobile_no = '${DEMO_USER.mobileNo}';`,
    );
    const reset = await resetLocalDemo(persistTo);
    const clean = await demoState();
    expect(reset.key).not.toBe(third.key);
    expect(clean.key_hash).toBe(await hashDeviceKey(reset.key));
    expect(clean.default_current).toBe(seededCurrent);
    expect(clean.user_id).not.toBe(seeded.user_id);
    expect(await verifyPassword(DEMO_USER.password, clean.password_hash)).toBe(true);
  });
});
