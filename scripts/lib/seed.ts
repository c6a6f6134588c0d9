// Demo data for local mode only: an admin, a farmer with a provisioned 5 HP 3-phase pump.
// Never run against production (`npm run admin:create` makes real admins there).
//
// Seeded once: every later `npm start` keeps the demo accounts, whatever a person changed in
// them (settings, password) and the demo box's key, so a box or simulator already holding the
// key keeps connecting. `resetLocalDemo` (`npm start -- --reset-demo`) starts the demo over.
import { rm } from "node:fs/promises";
import { generateDeviceKey, hashDeviceKey, hashPassword } from "../../common/credentials.ts";
import { executeLocalSql, sqlText } from "./local-d1.ts";
import {
  type LocalDeviceCredentials,
  localDeviceFile,
  provisionLocalDevice,
  readLocalDeviceCredentials,
  writeLocalDeviceCredentials,
} from "./local-devices.ts";

export const DEMO_ADMIN = { mobileNo: "9000000001", password: "sinchai-admin-demo" };
export const DEMO_USER = { mobileNo: "9876543210", password: "sinchai-demo" };
export const DEMO_DEVICE = { deviceId: "SNC-DEMAPUMP", kind: "3phase", horsePower: 5 } as const;

const DEMO_NUMBERS = `${sqlText(DEMO_ADMIN.mobileNo)}, ${sqlText(DEMO_USER.mobileNo)}`;

async function savedDemoCredentials(persistTo: string): Promise<LocalDeviceCredentials | null> {
  try {
    return await readLocalDeviceCredentials(localDeviceFile(persistTo, DEMO_DEVICE.deviceId));
  } catch {
    return null;
  }
}

/**
 * Makes sure the demo accounts and box exist, creating only what is missing. Returns the demo
 * box's credentials: the saved key while D1 still accepts it, else a new one (settings kept).
 */
export async function seedLocalDemo(persistTo: string): Promise<LocalDeviceCredentials> {
  const [state] = await executeLocalSql<{ accounts: number; key_hash: string | null }>(
    persistTo,
    `SELECT (SELECT COUNT(*) FROM users WHERE mobile_no IN (${DEMO_NUMBERS})) AS accounts,
            (SELECT key_hash FROM devices WHERE id = ${sqlText(DEMO_DEVICE.deviceId)}) AS key_hash;`,
  );
  const saved = await savedDemoCredentials(persistTo);
  const keyStillWorks = saved !== null && state?.key_hash === (await hashDeviceKey(saved.key));
  if (state?.accounts === 2 && keyStillWorks) return saved;

  if (state?.accounts !== 2) {
    const now = Date.now();
    // The box's protection settings start at the demo motor's real running current when it is
    // provisioned below (provisionLocalDevice).
    await executeLocalSql(
      persistTo,
      // The demo numbers count as verified: the local provider is the only phone they reach.
      `INSERT INTO users (mobile_no, password_hash, is_admin, created_at, number_verified_at)
         VALUES (${sqlText(DEMO_ADMIN.mobileNo)}, ${sqlText(await hashPassword(DEMO_ADMIN.password))}, 1, ${now}, ${now})
         ON CONFLICT(mobile_no) DO NOTHING;
       INSERT INTO users (mobile_no, password_hash, is_admin, created_at, number_verified_at)
         VALUES (${sqlText(DEMO_USER.mobileNo)}, ${sqlText(await hashPassword(DEMO_USER.password))}, 0, ${now}, ${now})
         ON CONFLICT(mobile_no) DO NOTHING;`,
    );
  }
  if (!state?.key_hash) {
    // First start: the box is installed for the farmer (key, owner, running current).
    return provisionLocalDevice(persistTo, {
      mobileNo: DEMO_USER.mobileNo,
      kind: DEMO_DEVICE.kind,
      horsePower: DEMO_DEVICE.horsePower,
      deviceId: DEMO_DEVICE.deviceId,
    });
  }
  if (keyStillWorks) return saved;
  // The box exists but its saved key is gone or was rotated elsewhere: a new key, nothing else.
  const credentials: LocalDeviceCredentials = {
    deviceId: DEMO_DEVICE.deviceId,
    key: generateDeviceKey(),
    kind: DEMO_DEVICE.kind,
    horsePower: DEMO_DEVICE.horsePower,
    ownerMobileNo: DEMO_USER.mobileNo,
  };
  await executeLocalSql(
    persistTo,
    `UPDATE devices SET key_hash = ${sqlText(await hashDeviceKey(credentials.key))} WHERE id = ${sqlText(DEMO_DEVICE.deviceId)};`,
  );
  await writeLocalDeviceCredentials(persistTo, credentials);
  return credentials;
}

/**
 * `npm start -- --reset-demo`: the demo accounts, the demo box and everything D1 holds about
 * them (sessions, logs, settings history, recharges, plan) are deleted and seeded again, with
 * new account ids and a new key. Other accounts are untouched. The hub keeps what it learns
 * from the box itself (relay, presence); schedules it holds belonged to the old account id and
 * never run for the new one. `--fresh` forgets everything instead.
 */
export async function resetLocalDemo(persistTo: string): Promise<LocalDeviceCredentials> {
  const demoUsers = `(SELECT id FROM users WHERE mobile_no IN (${DEMO_NUMBERS}))`;
  const demoDevice = sqlText(DEMO_DEVICE.deviceId);
  await executeLocalSql(
    persistTo,
    `DELETE FROM motor_logs WHERE device_id = ${demoDevice} OR user_id IN ${demoUsers};
     DELETE FROM plan_periods WHERE device_id = ${demoDevice};
     DELETE FROM recharge_requests WHERE device_id = ${demoDevice} OR user_id IN ${demoUsers};
     DELETE FROM realtime_watches WHERE device_id = ${demoDevice} OR user_id IN ${demoUsers};
     DELETE FROM devices WHERE id = ${demoDevice};
     DELETE FROM users WHERE mobile_no IN (${DEMO_NUMBERS});`,
  );
  await rm(localDeviceFile(persistTo, DEMO_DEVICE.deviceId), { force: true });
  return seedLocalDemo(persistTo);
}
