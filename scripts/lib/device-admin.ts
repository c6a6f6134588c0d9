// Provisioning for operators, straight against D1 (local or remote): the same rules as the
// admin API (worker/api/admin/devices.ts), for when there is no admin session at hand.
// Provisioning and relinking run the admin API's own statements (common/first-box-sql.ts,
// common/access-change-sql.ts).
import { ApiClient } from "../../common/api-client.ts";
import { hubNoticeDeliveryResponseSchema } from "../../common/api-responses/hub-notices.ts";
import { generateClaimCode, hashClaimCode } from "../../common/claim-codes.ts";
import { DEVICE_ID_PATTERN, generateDeviceId, generateDeviceKey, hashDeviceKey } from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-protocol.ts";
import { type D1Target, executeSql } from "./local-d1.ts";
import { operatorSql } from "./operator-sql.ts";

export type DeviceListing = { id: string; kind: string; owner: string | null; online: number; firmware: string | null };

export async function provisionDevice(
  target: D1Target,
  options: { kind: DeviceKind; ownerMobileNo?: string; region?: string },
): Promise<{ deviceId: string; key: string }> {
  // An account may own several boxes, as the admin API allows; its first takes any kept settings.
  const ownerUserId = options.ownerMobileNo ? await accountId(target, options.ownerMobileNo) : null;
  const deviceId = generateDeviceId();
  const key = generateDeviceKey();
  const keyHash = await hashDeviceKey(key);
  await executeSql(
    target,
    operatorSql({
      op: "provisionDevice",
      deviceId,
      ownerUserId,
      kind: options.kind,
      keyHash,
      now: Date.now(),
      region: options.region ?? null,
    }),
  );
  return { deviceId, key };
}

/**
 * A new claim code for the box's sticker (docs/decisions/033-installers.md), replacing any
 * before it; D1 keeps its hash. Answers the code, to print now: it is not kept anywhere else.
 */
export async function labelDevice(target: D1Target, deviceId: string): Promise<string> {
  if (!DEVICE_ID_PATTERN.test(deviceId)) throw new Error(`Not a device id: ${deviceId}`);
  const code = generateClaimCode();
  const sql = operatorSql({
    op: "labelDevice",
    deviceId,
    codeHash: await hashClaimCode(deviceId, code),
    now: Date.now(),
  });
  const rows = await executeSql<{ device_id: string }>(target, sql);
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
  return code;
}

export async function rotateDeviceKey(target: D1Target, deviceId: string): Promise<string> {
  const key = generateDeviceKey();
  const sql = operatorSql({ op: "rotateDeviceKey", deviceId, keyHash: await hashDeviceKey(key) });
  const rows = await executeSql<{ id: string }>(target, sql);
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
  return key;
}

/** Whether the box's hub has the change, and if not, why and what will tell it. */
export type HubTold = { told: true } | { told: false; why: string };

/**
 * Links the box to the account of `ownerMobileNo` (null: to nobody) with the Worker's own
 * statements (common/access-change-sql.ts): owner and `linked_at`, the old owner's people and
 * invitations gone, and a notice for the box's hub, all in one run. A script cannot reach a hub,
 * so it then asks the Worker at `workerUrl` to deliver the pending notices (POST
 * /api/hub-notices) and reads D1 again to see whether this box's notice was taken; if not, the
 * Worker's cron trigger delivers it within a minute.
 */
export async function assignDevice(
  target: D1Target,
  deviceId: string,
  ownerMobileNo: string | null,
  workerUrl: string | null,
): Promise<HubTold> {
  // Before the owner lookup: a mistyped id should not cost a round trip to a remote D1 first.
  if (!DEVICE_ID_PATTERN.test(deviceId)) throw new Error(`Not a device id: ${deviceId}`);
  const ownerUserId = ownerMobileNo ? await accountId(target, ownerMobileNo) : null;
  const rows = await executeSql<{ id: string }>(
    target,
    operatorSql({ op: "relinkDevice", deviceId, ownerUserId, now: Date.now() }),
  );
  if (rows.length === 0) throw new Error(`No device ${deviceId}.`);
  if (!workerUrl) return { told: false, why: "no Worker address was given (--url)" };
  try {
    await new ApiClient(workerUrl, { transport: withTimeout }).post(
      "/api/hub-notices",
      hubNoticeDeliveryResponseSchema,
    );
  } catch (error) {
    return { told: false, why: `${workerUrl} did not deliver it (${error instanceof Error ? error.message : error})` };
  }
  const pending = await executeSql(target, operatorSql({ op: "findHubNotice", deviceId }));
  return pending.length === 0 ? { told: true } : { told: false, why: "its hub did not confirm it" };
}

/** A Worker that does not answer within this long is left to its cron trigger. */
const WORKER_TIMEOUT_MS = 15_000;

function withTimeout(url: string, request: RequestInit): Promise<Response> {
  return fetch(url, { ...request, signal: AbortSignal.timeout(WORKER_TIMEOUT_MS) });
}

async function accountId(target: D1Target, mobileNo: string): Promise<number> {
  const [row] = await executeSql<{ id: number }>(target, operatorSql({ op: "findOwner", mobileNo }));
  if (!row) throw new Error(`No account is registered with ${mobileNo}.`);
  return row.id;
}

export function listDevices(target: D1Target): Promise<DeviceListing[]> {
  return executeSql<DeviceListing>(target, operatorSql({ op: "listDevices" }));
}
