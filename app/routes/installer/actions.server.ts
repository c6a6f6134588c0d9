// The installer's page's intents, on the server: claim a box and confirm it with the farmer's
// code, the three commissioning steps and the dry-run check, and the hand-over; the same services as /api/installer/*.
// A refusal comes back as the page's words; a claim, a link or a hand-over goes to its address.
import { data, redirect } from "react-router";
import { commissioningRequestSchema, DRY_RUN_CHECK_SECONDS } from "../../../common/commissioning.ts";
import { claimConfirmSchema, claimRequestSchema } from "../../../common/installer-schemas.ts";
import { deviceIdSchema } from "../../../common/pump-schemas.ts";
import {
  checkSupply,
  claimBox,
  commissionBox,
  confirmBoxClaim,
  dryRunCheckBox,
  handOverBox,
  testRunBox,
} from "../../../worker/services/installer-visits.ts";
import type { AuthenticatedUser } from "../../../worker/services/page-session.ts";
import type { Refusal } from "../../../worker/services/refusal.ts";
import { field } from "../../form-field.ts";
import type { MessageKey } from "../../i18n/i18n.ts";
import type { Commissioning } from "./commissioning-state.ts";

const REFUSALS: Partial<Record<string, MessageKey>> = {
  boxNotInStock: "installer.error.boxNotInStock",
  wrongClaimCode: "installer.error.wrongClaimCode",
  claimCodeUsed: "installer.error.claimCodeUsed",
  noPendingClaim: "installer.error.noPendingClaim",
  handedOver: "installer.error.handedOver",
  pumpNotFound: "installer.error.boxNotInStock",
  notAnInstaller: "installer.notInstaller",
  throttled: "installer.error.throttled",
  wrongCode: "code.wrong",
  noCode: "code.dead",
  offline: "commission.error.offline",
  timeout: "commission.error.noAnswer",
  linkLost: "commission.error.noAnswer",
  testRunBusy: "commission.error.busy",
  motorRunning: "commission.error.motorRunning",
  testRunRefused: "commission.error.refused",
  noTestRun: "commission.error.noTestRun",
  notCommissioned: "commission.error.notCommissioned",
  dryRunSettingsNotOnBox: "commission.error.settingsNotOnBox",
  dryRunCheckRefused: "commission.error.dryRunRefused",
};

/** How long the page's test run lasts: enough for the surge to pass and the current to settle. */
const TEST_RUN_SECONDS = 10;

type PageError = { key: MessageKey; values?: Record<string, string | number> };

/** A refused post: its words, and the box it was about (the commissioning steps stay open on it). */
export const refused = (error: PageError, status: number, deviceId?: string) =>
  data<{ error: PageError; deviceId?: string }>({ error, deviceId }, { status });

const refusedBy = (refusal: Refusal, deviceId?: string) =>
  refused(
    { key: REFUSALS[refusal.code] ?? "installer.error.failed", values: refusal.params },
    refusal.status,
    deviceId,
  );

/** Step 1 of a claim: the farmer is sent a code, and the page asks for it (`?box=&farmer=`). */
export async function claim(
  env: Env,
  request: Request,
  user: AuthenticatedUser,
  form: FormData,
  waitUntil: (promise: Promise<unknown>) => void,
) {
  const input = claimRequestSchema.safeParse({
    deviceId: field(form, "deviceId").trim().toUpperCase(),
    claimCode: field(form, "claimCode"),
    farmerMobileNo: field(form, "farmerMobileNo"),
  });
  if (!input.success) return refused({ key: "installer.error.invalid" }, 400);
  const sent = await claimBox(env, request, user, { ...input.data, waitUntil });
  if (!sent.ok) return refusedBy(sent);
  const next = new URLSearchParams({ box: input.data.deviceId, farmer: input.data.farmerMobileNo });
  return redirect(`/installer?${next}`);
}

/** Step 2: the farmer's code links the box (`?linked=`). */
export async function confirm(env: Env, request: Request, user: AuthenticatedUser, form: FormData) {
  const input = claimConfirmSchema.safeParse({
    deviceId: field(form, "deviceId"),
    farmerMobileNo: field(form, "farmerMobileNo"),
    code: field(form, "code").replace(/\s/g, ""),
  });
  if (!input.success) return refused({ key: "code.invalid" }, 400);
  const linked = await confirmBoxClaim(env, request, user, input.data);
  if (!linked.ok) return refusedBy(linked, input.data.deviceId);
  return redirect(`/installer?linked=${input.data.deviceId}`);
}

/**
 * A commissioning step on the box the form names (a post without one is refused as invalid):
 * `run` asks the box, `next` is what the page shows of its answer; a refusal keeps the steps open
 * on the box.
 */
async function commissioningStep<T>(
  form: FormData,
  run: (deviceId: string) => Promise<{ ok: true; value: T } | Refusal>,
  next: (value: T, deviceId: string) => Commissioning,
) {
  const box = deviceIdSchema.safeParse(field(form, "deviceId"));
  if (!box.success) return refused({ key: "installer.error.invalid" }, 400);
  const done = await run(box.data);
  if (!done.ok) return refusedBy(done, box.data);
  return { commissioning: next(done.value, box.data) };
}

/** Commissioning, step 1: the supply on every phase, as the box reads it now. */
export function supply(env: Env, user: AuthenticatedUser, form: FormData) {
  return commissioningStep(
    form,
    (deviceId) => checkSupply(env, user, deviceId),
    (read, deviceId) => ({ step: "supply", deviceId, ...read }),
  );
}

/** Commissioning, step 2: the box's test run, and the settings suggested from it. */
export function testRun(env: Env, user: AuthenticatedUser, form: FormData) {
  return commissioningStep(
    form,
    (deviceId) => testRunBox(env, user, deviceId, TEST_RUN_SECONDS),
    (run, deviceId) => ({ step: "testRun", deviceId, ...run }),
  );
}

/** Commissioning, step 3: the settings accepted or edited, with the feeder. */
export async function commission(env: Env, user: AuthenticatedUser, form: FormData) {
  const box = deviceIdSchema.safeParse(field(form, "deviceId"));
  if (!box.success) return refused({ key: "installer.error.invalid" }, 400);
  const input = commissioningRequestSchema.safeParse({
    defaultCurrent: field(form, "defaultCurrent"),
    dryRunThreshold: field(form, "dryRunThreshold"),
    overCurrentThreshold: field(form, "overCurrentThreshold"),
    feeder: field(form, "feeder"),
  });
  if (!input.success) return refused({ key: "commission.error.invalid" }, 400, box.data);
  const done = await commissionBox(env, user, box.data, { ...input.data, feeder: input.data.feeder ?? null });
  if (!done.ok) return refusedBy(done, box.data);
  const commissioning: Commissioning = { step: "done", deviceId: box.data, set: done.value.report.set };
  return { commissioning };
}

/** Commissioning, if the installer chooses it: the dry-run check of the settings set. */
export function dryRunCheck(env: Env, user: AuthenticatedUser, form: FormData) {
  return commissioningStep(
    form,
    (deviceId) => dryRunCheckBox(env, user, deviceId, DRY_RUN_CHECK_SECONDS),
    ({ check: { tripped, current, tripBelow, ranSeconds } }, deviceId) => ({
      step: "dryRunCheck",
      deviceId,
      check: { tripped, current, tripBelow, ranSeconds },
    }),
  );
}

/** The hand-over: from now on the installer can do nothing with the box (`?handedOver=`). */
export async function handOver(env: Env, user: AuthenticatedUser, form: FormData) {
  const deviceId = deviceIdSchema.safeParse(field(form, "deviceId"));
  if (!deviceId.success) return refused({ key: "installer.error.invalid" }, 400);
  const done = await handOverBox(env, user, deviceId.data);
  if (!done.ok) return refusedBy(done);
  return redirect(`/installer?handedOver=${deviceId.data}`);
}
