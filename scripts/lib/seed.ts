// Demo data for local mode only: an admin, a farmer with a provisioned 5 HP 3-phase pump.
// Never run against production (`npm run admin:create` makes real admins there).
import { hashPassword } from "../../common/credentials.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import { executeLocalSql, sqlText } from "./local-d1.ts";
import { provisionLocalDevice, type LocalDeviceCredentials } from "./local-devices.ts";

export const DEMO_ADMIN = { mobileNo: "9000000001", password: "sinchai-admin-demo" };
export const DEMO_USER = { mobileNo: "9876543210", password: "sinchai-demo" };
export const DEMO_DEVICE = { deviceId: "SNC-DEMAPUMP", kind: "3phase", horsePower: 5 } as const;

export async function seedLocalDemo(persistTo: string): Promise<LocalDeviceCredentials> {
  const now = Date.now();
  // The farmer's protection thresholds start at the demo motor's real running current.
  const demoCurrent = Math.round(ratedCurrent(DEMO_DEVICE.kind, DEMO_DEVICE.horsePower) * 10) / 10;
  await executeLocalSql(
    persistTo,
    `INSERT INTO users (mobile_no, password_hash, is_admin, created_at)
       VALUES (${sqlText(DEMO_ADMIN.mobileNo)}, ${sqlText(await hashPassword(DEMO_ADMIN.password))}, 1, ${now})
       ON CONFLICT(mobile_no) DO NOTHING;
     INSERT INTO users (mobile_no, password_hash, is_admin, created_at, default_current)
       VALUES (${sqlText(DEMO_USER.mobileNo)}, ${sqlText(await hashPassword(DEMO_USER.password))}, 0, ${now}, ${demoCurrent})
       ON CONFLICT(mobile_no) DO NOTHING;`,
  );
  return provisionLocalDevice(persistTo, {
    mobileNo: DEMO_USER.mobileNo,
    kind: DEMO_DEVICE.kind,
    horsePower: DEMO_DEVICE.horsePower,
    deviceId: DEMO_DEVICE.deviceId,
  });
}
