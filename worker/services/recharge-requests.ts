// A farmer asking to renew the device's plan, shared by the JSON API (SPEC §7 POST
// /api/recharge/request) and the My Plan page's form, and what the farmer's and the admin's
// pages show of plans and requests. The server prices every request. Refusals are values with
// the API's codes (./refusal.ts): notYourRecharge, noDevice, pendingRecharge (one request per
// device waits for a decision at a time).
import { type PaymentMethod, PLANS, type Plan } from "../../common/plans.ts";
import { getDb } from "../db/client.ts";
import { findDeviceById, findDeviceByOwner } from "../db/devices.ts";
import { listPlanPeriods, planCard } from "../db/plans.ts";
import { readsThatMayLag } from "../db/reads-that-may-lag.ts";
import {
  insertRechargeRequest,
  listRechargeRequests,
  listRechargeRequestsOfUser,
  toRechargeView,
} from "../db/recharges.ts";
import type { RechargeRequestRow } from "../db/schema.ts";
import { type Refusal, refuse } from "./refusal.ts";
import { upiPaymentLink } from "./upi.ts";

export type RechargeView = ReturnType<typeof toRechargeView>;

export async function requestOwnRecharge(
  env: Env,
  user: { id: number; mobileNo: string },
  input: { plan: Plan; paymentMethod: PaymentMethod; mobileNo?: string | undefined; deviceId?: string | undefined },
): Promise<{ ok: true; request: RechargeRequestRow; upiLink: string | null } | Refusal> {
  if (input.mobileNo && input.mobileNo !== user.mobileNo) return refuse(403, "notYourRecharge");
  const db = getDb(env.DB);
  // The box the farmer's page shows, if one of their own; SPEC §7's call renews their first box.
  const device =
    input.deviceId === undefined ? await findDeviceByOwner(db, user.id) : await findDeviceById(db, input.deviceId);
  if (!device || device.ownerUserId !== user.id) return refuse(404, "noDevice");
  const request = await insertRechargeRequest(db, {
    userId: user.id,
    deviceId: device.id,
    mobileNo: user.mobileNo,
    plan: input.plan,
    amount: PLANS[input.plan].amount, // never the client's
    paymentMethod: input.paymentMethod,
    requestedAt: Date.now(),
  });
  if (!request) return refuse(409, "pendingRecharge");
  return { ok: true, request, upiLink: rechargeUpiLink(env, request) };
}

/**
 * The My Plan page: the farmer's own requests, newest first (the rows, and as shown), and the
 * plan of `ownDeviceId`, their own box the page shows (none for a pump shared with them).
 */
export async function ownRechargesOf(env: Env, userId: number, ownDeviceId: string | null) {
  // The farmer's own requests from the primary (they see one the moment they sent it); the
  // plan, which only an admin or a payment changes, may be a few seconds behind.
  const requests = await listRechargeRequestsOfUser(getDb(env.DB), userId);
  return {
    requests,
    views: requests.map(toRechargeView),
    plan: ownDeviceId ? planCard(await listPlanPeriods(getDb(readsThatMayLag(env)), ownDeviceId), Date.now()) : null,
  };
}

/** Every request, as the admin's recharges page lists them. */
export async function rechargeQueue(env: Env): Promise<RechargeView[]> {
  return (await listRechargeRequests(getDb(readsThatMayLag(env)))).map(toRechargeView);
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
