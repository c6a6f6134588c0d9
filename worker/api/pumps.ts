// Every box a person may see, by device id (docs/decisions/018-shared-pumps.md): their own
// boxes and those shared with them. Each call reads the session and what the caller is to the
// box in one D1 query (`requirePump`, ./require-auth.ts), and the hub checks commands again.
// SPEC §7's routes keyed by number (./devices.ts, ./logs.ts, ./schedules.ts) act on the
// account's first box. A person an owner invited is nothing to the box until they accept
// (POST /:deviceId/invitation, the one route here that does not go through requirePump).
import { Hono } from "hono";
import { motorCommandResponseSchema, motorStatusResponseSchema } from "../../common/api-responses/devices.ts";
import {
  pumpListResponseSchema,
  pumpMemberChangeResponseSchema,
  pumpMemberResponseSchema,
  pumpMembersResponseSchema,
  pumpNameResponseSchema,
  pumpPhoneStartResponseSchema,
  pumpSmsPinResponseSchema,
} from "../../common/api-responses/pumps.ts";
import { accessChangeResponseSchema, messageResponseSchema } from "../../common/api-responses/refusals.ts";
import { scheduleListResponseSchema, scheduleResponseSchema } from "../../common/api-responses/schedules.ts";
import { mobileNoSchema, motorCommandRequestSchema, motorConfigRequestSchema } from "../../common/api-schemas.ts";
import { translateApi } from "../../common/i18n/api.ts";
import {
  deviceIdSchema,
  invitationAnswerRequestSchema,
  memberChangeRequestSchema,
  memberInviteRequestSchema,
  pumpNameRequestSchema,
  pumpOtaRequestSchema,
  pumpPhoneStartRequestSchema,
  pumpSmsPinRequestSchema,
} from "../../common/pump-schemas.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { apiError } from "../http/http-error.ts";
import { deviceHub } from "../hubs/device-hubs.ts";
import { hubFailureError } from "../hubs/hub-failures.ts";
import { askBoxAgain } from "../services/ask-box-again.ts";
import { switchPump } from "../services/motor-commands.ts";
import { setStartByMissedCall } from "../services/phone-start.ts";
import { personOf } from "../services/pump-access.ts";
import { pumpSummaries, pumpsAndInvitations } from "../services/pump-list.ts";
import {
  answerInvitation,
  changePumpMember,
  invitePumpMember,
  listPumpMembers,
  removePumpMember,
} from "../services/pump-members.ts";
import { renamePump } from "../services/pump-names.ts";
import { refusalError } from "../services/refusal.ts";
import { deletePumpSchedule, savePumpSchedule } from "../services/schedules.ts";
import { setSmsPin } from "../services/sms-pin.ts";
import type { ApiEnv } from "./context.ts";
import { freshReadingAnswer, motorConfigAnswer, motorStatusOf } from "./devices.ts";
import { parseInput, readJsonBody } from "./input.ts";
import { apiLanguage } from "./language.ts";
import { motorLogsAnswer, sinceFor } from "./logs.ts";
import { offerNewestFirmware } from "./ota.ts";
import { requireAuth, requirePump } from "./require-auth.ts";
import { respond } from "./respond.ts";
import { pumpUsageAnswer } from "./usage.ts";

export const pumpRoutes = new Hono<ApiEnv>()
  .get("/", requireAuth("user"), async (c) => {
    const { pumps, invitations } = await pumpsAndInvitations(c.env, c.var.user);
    return respond(c, pumpListResponseSchema, {
      success: true,
      pumps: await pumpSummaries(c.env, pumps),
      invitations: invitations.map((invitation) => ({
        ...invitation,
        invitedAt: new Date(invitation.invitedAt).toISOString(),
      })),
    });
  })
  .post("/:deviceId/invitation", requireAuth("user"), async (c) => {
    // Not requirePump: until they accept, the invited person is nothing to the box.
    const deviceId = parseInput(deviceIdSchema, c.req.param("deviceId"));
    const { answer } = await readJsonBody(c, invitationAnswerRequestSchema);
    const answered = await answerInvitation(c.env, c.var.user, deviceId, answer);
    if (!answered.ok) throw refusalError(answered);
    const { hubConfirmed } = answered;
    const language = apiLanguage(c.req.raw);
    const message =
      answer === "decline"
        ? translateApi(language, "api.invitationDeclined")
        : translateApi(language, hubConfirmed ? "api.invitationAccepted" : "api.invitationAcceptedPending");
    return respond(c, accessChangeResponseSchema, { success: true, message, hubConfirmed });
  })
  .get("/:deviceId/status", requirePump("see", "user", "admin"), async (c) => {
    return respond(c, motorStatusResponseSchema, await motorStatusOf(c.env, c.var.pump.device));
  })
  .post("/:deviceId/motor", requirePump("switch", "user"), async (c) => {
    const { action } = await readJsonBody(c, motorCommandRequestSchema);
    // Session and box were read in one D1 query; the hub checks the role again with its own copy.
    const result = await switchPump(c.env, c.var.user, c.var.pump, action);
    if (!result.ok) throw hubFailureError(result);
    return respond(c, motorCommandResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.motorSwitched", { relay: result.status }),
      status: result.status,
    });
  })
  .post("/:deviceId/config", requirePump("configure", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    const request = await readJsonBody(c, motorConfigRequestSchema);
    const { ownerUserId } = device;
    // Settings history is kept on the owner's account: a spare box has none to change yet.
    if (ownerUserId === null) throw apiError(409, "pumpHasNoOwner");
    return motorConfigAnswer(c, { ...device, ownerUserId }, request);
  })
  .post("/:deviceId/power", requirePump("see", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    return freshReadingAnswer(c, device.id, "power");
  })
  .post("/:deviceId/health", requirePump("see", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    return freshReadingAnswer(c, device.id, "health");
  })
  // Anyone who may switch may ask the box to state its relay (a lost answer left it unknown).
  .post("/:deviceId/ask-again", requirePump("switch", "user"), async (c) => {
    const asked = await askBoxAgain(c.env, c.var.pump);
    if (!asked.ok) throw hubFailureError(asked);
    return respond(c, motorStatusResponseSchema, await motorStatusOf(c.env, c.var.pump.device));
  })
  .post("/:deviceId/ota", requirePump("firmware", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    const { deviceType } = await readJsonBody(c, pumpOtaRequestSchema);
    return offerNewestFirmware(c, device, deviceType);
  })
  .put("/:deviceId/name", requirePump("rename", "user"), async (c) => {
    const { device } = c.var.pump;
    const { name } = await readJsonBody(c, pumpNameRequestSchema);
    await renamePump(c.env, device.id, name);
    return respond(c, pumpNameResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.pumpNamed"),
      name,
    });
  })
  .put("/:deviceId/sms-pin", requirePump("phoneStart", "user"), async (c) => {
    const { device } = c.var.pump;
    const { pin } = await readJsonBody(c, pumpSmsPinRequestSchema);
    const pinSet = await setSmsPin(c.env, device.id, pin);
    return respond(c, pumpSmsPinResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.smsPinSaved", { pinSet: pinSet ? "on" : "off" }),
      pinSet,
    });
  })
  .put("/:deviceId/phone-start", requirePump("phoneStart", "user"), async (c) => {
    const { device } = c.var.pump;
    const { enabled } = await readJsonBody(c, pumpPhoneStartRequestSchema);
    const saved = await setStartByMissedCall(c.env, device.id, enabled);
    return respond(c, pumpPhoneStartResponseSchema, {
      success: true,
      message: translateApi(apiLanguage(c.req.raw), "api.phoneStartSaved", { enabled: saved ? "on" : "off" }),
      enabled: saved,
    });
  })
  .get("/:deviceId/logs", requirePump("see", "user", "admin"), async (c) => {
    const { device, role } = c.var.pump;
    return motorLogsAnswer(c, device.id, sinceFor(role === "admin", device));
  })
  .get("/:deviceId/usage", requirePump("see", "user", "admin"), async (c) => {
    const { device, role } = c.var.pump;
    return pumpUsageAnswer(c, device.id, sinceFor(role === "admin", device));
  })
  .get("/:deviceId/schedules", requirePump("see", "user"), async (c) => {
    const access = c.var.pump;
    const schedules = await deviceHub(c.env, access.device.id).listSchedules(personOf(c.var.user, access));
    return respond(c, scheduleListResponseSchema, { success: true, schedules });
  })
  .post("/:deviceId/schedules", requirePump("schedule", "user"), async (c) => {
    const access = c.var.pump;
    const input = await readJsonBody(c, scheduleRequestSchema);
    const target = { deviceId: access.device.id, person: personOf(c.var.user, access) };
    const schedule = await savePumpSchedule(c.env, target, null, input);
    const message = translateApi(apiLanguage(c.req.raw), "api.scheduleSaved");
    return respond(c, scheduleResponseSchema, { success: true, message, schedule }, 201);
  })
  .put("/:deviceId/schedules/:id", requirePump("schedule", "user"), async (c) => {
    const access = c.var.pump;
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    const input = await readJsonBody(c, scheduleRequestSchema);
    const target = { deviceId: access.device.id, person: personOf(c.var.user, access) };
    const schedule = await savePumpSchedule(c.env, target, id, input);
    const message = translateApi(apiLanguage(c.req.raw), "api.scheduleUpdated");
    return respond(c, scheduleResponseSchema, { success: true, message, schedule });
  })
  .delete("/:deviceId/schedules/:id", requirePump("schedule", "user"), async (c) => {
    const access = c.var.pump;
    const id = parseInput(scheduleIdSchema, c.req.param("id"));
    await deletePumpSchedule(c.env, { deviceId: access.device.id, person: personOf(c.var.user, access) }, id);
    const message = translateApi(apiLanguage(c.req.raw), "api.scheduleDeleted");
    return respond(c, messageResponseSchema, { success: true, message });
  })
  .get("/:deviceId/members", requirePump("manageMembers", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    return respond(c, pumpMembersResponseSchema, {
      success: true,
      members: await listPumpMembers(c.env, device.id),
    });
  })
  .post("/:deviceId/members", requirePump("invite", "user"), async (c) => {
    const { device } = c.var.pump;
    const invite = await readJsonBody(c, memberInviteRequestSchema);
    const invited = await invitePumpMember(
      c.env,
      { deviceId: device.id, ownerMobileNo: c.var.user.mobileNo, invitedByUserId: c.var.user.id },
      invite,
      (promise) => c.executionCtx.waitUntil(promise),
    );
    if (!invited.ok) throw refusalError(invited);
    const message = translateApi(apiLanguage(c.req.raw), "api.memberInvited");
    return respond(c, pumpMemberResponseSchema, { success: true, message, member: invited.member }, 201);
  })
  .put("/:deviceId/members/:mobileNo", requirePump("invite", "user"), async (c) => {
    const { device } = c.var.pump;
    const mobileNo = parseInput(mobileNoSchema, c.req.param("mobileNo"));
    const change = await readJsonBody(c, memberChangeRequestSchema);
    const changed = await changePumpMember(c.env, device.id, mobileNo, change);
    if (!changed.ok) throw refusalError(changed);
    const { member, hubConfirmed } = changed;
    const message = translateApi(
      apiLanguage(c.req.raw),
      hubConfirmed ? "api.memberChanged" : "api.memberChangedPending",
    );
    return respond(c, pumpMemberChangeResponseSchema, { success: true, message, member, hubConfirmed });
  })
  .delete("/:deviceId/members/:mobileNo", requirePump("manageMembers", "user", "admin"), async (c) => {
    const { device } = c.var.pump;
    const mobileNo = parseInput(mobileNoSchema, c.req.param("mobileNo"));
    const removed = await removePumpMember(c.env, device.id, mobileNo);
    if (!removed.ok) throw refusalError(removed);
    const { hubConfirmed } = removed;
    const message = translateApi(
      apiLanguage(c.req.raw),
      hubConfirmed ? "api.memberRemoved" : "api.memberRemovedPending",
    );
    return respond(c, accessChangeResponseSchema, { success: true, message, hubConfirmed });
  });
