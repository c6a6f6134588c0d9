// A farmer asking to renew the device's plan, shared by the JSON API (SPEC §7 POST
// /api/recharge/request) and the My Plan page's form. The server prices every request.
// Refusals are the API's codes (HttpError): notYourRecharge, noDevice, pendingRecharge (one
// request per device waits for a decision at a time).
import { type PaymentMethod, PLANS, type Plan } from "../../common/plans.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById, findDeviceByOwner } from "../db/devices.ts";
import { insertRechargeRequest } from "../db/recharges.ts";
import type { RechargeRequestRow } from "../db/schema.ts";
import { apiError } from "../http/http-error.ts";
import { noDeviceError } from "../hubs/hub-failures.ts";
import { upiPaymentLink } from "./upi.ts";

export async function requestOwnRecharge(
  env: Env,
  user: { id: number; mobileNo: string },
  input: { plan: Plan; paymentMethod: PaymentMethod; mobileNo?: string | undefined; deviceId?: string | undefined },
): Promise<{ request: RechargeRequestRow; upiLink: string | null }> {
  if (input.mobileNo && input.mobileNo !== user.mobileNo) throw apiError(403, "notYourRecharge");
  const db = getDb(env.DB);
  // The box the farmer's page shows, if one of their own; SPEC §7's call renews their first box.
  const device =
    input.deviceId === undefined ? await findDeviceByOwner(db, user.id) : await findDeviceById(db, input.deviceId);
  if (!device || device.ownerUserId !== user.id) throw noDeviceError();
  const request = await insertRechargeRequest(db, {
    userId: user.id,
    deviceId: device.id,
    mobileNo: user.mobileNo,
    plan: input.plan,
    amount: PLANS[input.plan].amount, // never the client's
    paymentMethod: input.paymentMethod,
    requestedAt: Date.now(),
  });
  if (!request) throw apiError(409, "pendingRecharge");
  return { request, upiLink: rechargeUpiLink(env, request) };
}

/** Where a UPI request is paid: a link while it waits for payment, else none. */
export function rechargeUpiLink(env: Env, request: RechargeRequestRow): string | null {
  if (request.paymentMethod !== "upi" || request.status !== "pending" || !request.deviceId) return null;
  return upiPaymentLink(env, {
    amount: request.amount,
    plan: request.plan,
    requestId: request.id,
    deviceId: request.deviceId,
  });
}
