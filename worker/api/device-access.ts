import type { Context } from "hono";
import { mobileNoSchema } from "../../common/api-schemas.ts";
import { type Db, getDb } from "../db/client.ts";
import { findDeviceByOwner, findDeviceByOwnerMobileNo } from "../db/devices.ts";
import type { DeviceRow } from "../db/schema.ts";
import { findUserByMobileNo } from "../db/users.ts";
import { apiError } from "../http/http-error.ts";
import type { OwnedDevice } from "../services/motor-config.ts";
import { auditTarget } from "./admin-audit-middleware.ts";
import type { ApiEnv } from "./context.ts";
import { parseInput } from "./input.ts";

/**
 * The device behind a `{mobileNo}` in the path, if the caller may use it: a farmer only
 * their own, an admin (signed in to the admin area) any.
 */
export async function deviceForMobileNo(
  c: Context<ApiEnv>,
  rawMobileNo: string | undefined,
): Promise<{ device: DeviceRow; ownerUserId: number; mobileNo: string }> {
  const mobileNo = parseInput(mobileNoSchema, rawMobileNo);
  auditTarget(c, mobileNo); // an admin's power, health or firmware request is on the trail
  const user = c.var.user;
  if (user.audience !== "admin" && user.mobileNo !== mobileNo) {
    throw apiError(403, "notYourDevice");
  }
  const found = await findDeviceByOwnerMobileNo(getDb(c.env.DB), mobileNo);
  if (!found) throw apiError(404, "noDeviceForNumber");
  return { ...found, mobileNo };
}

/**
 * The account registered under `mobileNo` and its first box, the one SPEC §7's settings routes
 * act on: 404 `userNotFound` without the account, 404 `noDeviceForNumber` without a box.
 */
export async function firstBoxOfNumber(db: Db, mobileNo: string): Promise<OwnedDevice> {
  const owner = await findUserByMobileNo(db, mobileNo);
  if (!owner) throw apiError(404, "userNotFound");
  const device = await findDeviceByOwner(db, owner.id);
  if (!device) throw apiError(404, "noDeviceForNumber");
  return { ...device, ownerUserId: owner.id };
}
