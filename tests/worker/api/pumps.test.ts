// Many boxes per account and several people per box (docs/decisions/018-shared-pumps.md):
// the list, names, members by number, who did what, and what ending a membership ends.
// Who may call which route is the authorisation matrix's business.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { adminUserResponseSchema } from "../../../common/api-responses/admin.ts";
import { motorStatusResponseSchema } from "../../../common/api-responses/devices.ts";
import { motorLogsResponseSchema } from "../../../common/api-responses/logs.ts";
import { pumpMemberChangeResponseSchema, pumpMemberResponseSchema } from "../../../common/api-responses/pumps.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { scheduleListResponseSchema } from "../../../common/api-responses/schedules.ts";
import { BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { getDb } from "../../../worker/db/client.ts";
import { devices } from "../../../worker/db/schema.ts";
import { adminToken, codeSentTo, createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { api, deleteJson, getJson, getOk, postJson, putJson, refusalCode } from "../helpers/http.ts";
import { hubStub, motorLogRows } from "../helpers/hub-state.ts";
import { addMember, invite, membersOf, pumpsOf } from "../helpers/sharing.ts";
import { browserWatching, connectDevice } from "../helpers/sockets.ts";

describe("an account with two boxes", () => {
  it("lists both, first box first; the routes keyed by number act on the first, those by id on either", async () => {
    const { user, device: first, token } = await farmerWithDevice();
    const second = await provisionDevice(user.id);
    const { pumps } = await pumpsOf(token);
    expect(pumps.map((pump) => [pump.deviceId, pump.role, pump.ownerMobileNo])).toEqual([
      [first.deviceId, "owner", null],
      [second.deviceId, "owner", null],
    ]);
    // The second box is online; the first is not: the status by number is the first box's.
    const box = await connectDevice(second);
    const byNumber = await getOk(`/api/devices/motor/status/${user.mobileNo}`, token, motorStatusResponseSchema);
    expect(byNumber.deviceStatus).toBe("offline");
    const byId = await getOk(`/api/pumps/${second.deviceId}/status`, token, motorStatusResponseSchema);
    expect(byId.deviceStatus).toBe("online");
    box.close();
  });

  it("keeps its first box when an admin links an older spare box to it", async () => {
    const spare = await provisionDevice(null);
    const { user, device: first, token } = await farmerWithDevice();
    const linked = await putJson(
      `/api/admin/devices/${spare.deviceId}/owner`,
      { mobileNo: user.mobileNo },
      await adminToken(),
    );
    expect(linked.status).toBe(200);
    const { pumps } = await pumpsOf(token);
    expect(pumps.map((pump) => pump.deviceId)).toEqual([first.deviceId, spare.deviceId]);
  });

  it("names each box; an empty name clears it; a name on two lines is refused", async () => {
    const { user, device, token } = await farmerWithDevice();
    const second = await provisionDevice(user.id);
    expect((await putJson(`/api/pumps/${second.deviceId}/name`, { name: " कुएँ वाला पंप " }, token)).status).toBe(200);
    const named = await pumpsOf(token);
    expect(named.pumps.map((pump) => pump.name)).toEqual([null, "कुएँ वाला पंप"]);
    expect((await putJson(`/api/pumps/${second.deviceId}/name`, { name: "" }, token)).status).toBe(200);
    const refused = await putJson(`/api/pumps/${device.deviceId}/name`, { name: "a\nb" }, token);
    expect(refused.status).toBe(400);
    expect(await refusalCode(refused)).toBe("invalidInput");
    const cleared = await pumpsOf(token);
    expect(cleared.pumps.map((pump) => pump.name)).toEqual([null, null]);
  });
});

describe("people on a box", () => {
  it("a number invited before it registers finds the invitation waiting once verified, and the box as the role the owner gave once it accepts", async () => {
    const { user: owner, device, token } = await farmerWithDevice();
    const mobileNo = uniqueMobileNo();
    const invited = await invite(device.deviceId, { mobileNo, role: "viewer", label: "Sita" }, token);
    expect(invited.status).toBe(201);
    expect((await readJson(invited, pumpMemberResponseSchema)).member).toMatchObject({
      mobileNo,
      role: "viewer",
      label: "Sita",
      acceptedAt: null,
    });
    const password = "a-long-and-new-password-91";
    const since = Date.now();
    expect((await postJson("/api/auth/register", { mobileNo, password })).status).toBe(201);
    const sita = await loginToken({ id: 0, mobileNo, password });
    // Not before the number is verified with the code registration sent to it.
    expect((await pumpsOf(sita)).invitations).toEqual([]);
    const { code } = await codeSentTo(mobileNo, since);
    expect((await postJson("/api/auth/verify-number", { code }, sita)).status).toBe(200);
    const waiting = await pumpsOf(sita);
    expect(waiting.pumps).toEqual([]);
    expect(waiting.invitations).toEqual([
      { deviceId: device.deviceId, role: "viewer", ownerMobileNo: owner.mobileNo, invitedAt: expect.any(String) },
    ]);
    expect((await postJson(`/api/pumps/${device.deviceId}/invitation`, { answer: "accept" }, sita)).status).toBe(200);
    const { pumps, invitations } = await pumpsOf(sita);
    expect(invitations).toEqual([]);
    expect(pumps).toEqual([
      expect.objectContaining({ deviceId: device.deviceId, role: "viewer", ownerMobileNo: owner.mobileNo }),
    ]);
    const { members } = await membersOf(device.deviceId, token);
    expect(members.map((member) => [member.mobileNo, member.acceptedAt !== null])).toEqual([[mobileNo, true]]);
  });

  it("refuses the owner's own number, a number twice, and more than five numbers", async () => {
    const { user, device, token } = await farmerWithDevice();
    const own = await invite(device.deviceId, { mobileNo: user.mobileNo, role: "operator", label: "Me" }, token);
    expect([own.status, await refusalCode(own)]).toEqual([400, "ownNumber"]);
    const numbers = Array.from({ length: 5 }, () => uniqueMobileNo());
    for (const mobileNo of numbers) {
      expect((await invite(device.deviceId, { mobileNo, role: "viewer", label: "x" }, token)).status).toBe(201);
    }
    const twice = await invite(device.deviceId, { mobileNo: numbers[0], role: "operator", label: "y" }, token);
    expect([twice.status, await refusalCode(twice)]).toEqual([409, "alreadyMember"]);
    const sixth = await invite(device.deviceId, { mobileNo: uniqueMobileNo(), role: "viewer", label: "z" }, token);
    expect(sixth.status).toBe(409);
    expect(await readJson(sixth, apiErrorSchema)).toMatchObject({ code: "memberLimit", params: { max: 5 } });
  });

  it("an operator's tap switches the pump and the log says who, in both languages; a viewer's is refused", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const ram = await createUser();
    const sita = await createUser();
    await addMember(device.deviceId, token, ram, "operator", "राम");
    await addMember(device.deviceId, token, sita, "viewer", "Sita");
    const ramToken = await loginToken(ram);
    const on = await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, ramToken);
    expect(on.status).toBe(200);
    const refused = await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "off" }, await loginToken(sita));
    expect([refused.status, await refusalCode(refused)]).toEqual([403, "notAllowedForRole"]);

    const [row] = await motorLogRows(device.deviceId);
    expect(JSON.parse(row!.params)).toEqual({
      relay: "on",
      origin: { by: "app", userId: ram.id, role: "operator", label: "राम" },
      confirmed: "inTime",
    });
    expect(row!.message).toBe("Motor turned ON by राम from the app");
    const hindi = await api(`/api/pumps/${device.deviceId}/logs`, {
      headers: { Authorization: `Bearer ${token}`, "Accept-Language": "hi" },
    });
    const [entry] = await readJson(hindi, motorLogsResponseSchema);
    expect(entry!.logMessage).toContain("(राम ने ऐप से)");
    box.close();
  });

  it("the hub checks the role itself: a viewer sent as an operator, or a stranger as the owner, switches nothing", async () => {
    const { user: owner, device, token, box } = await farmerWithBox({ autoAck: true });
    const sita = await createUser();
    await addMember(device.deviceId, token, sita, "viewer", "Sita");
    const hub = hubStub(device.deviceId);
    expect(await hub.commandMotor({ userId: sita.id, role: "operator", label: "Sita" }, "on")).toEqual({
      ok: false,
      code: "notAllowed",
    });
    expect(await hub.commandMotor({ userId: owner.id + 100_000, role: "owner", label: null }, "on")).toEqual({
      ok: false,
      code: "notAllowed",
    });
    await box.expectNone("switch");
    box.close();
  });

  it("an operator's schedules are the box's: the owner sees them in the same list", async () => {
    const { device, token } = await farmerWithDevice();
    const ram = await createUser();
    await addMember(device.deviceId, token, ram, "operator", "Ram");
    const schedule = { time: "5:30 AM", action: "ON", repeat: "daily", durationMinutes: 30 };
    expect((await postJson(`/api/pumps/${device.deviceId}/schedules`, schedule, await loginToken(ram))).status).toBe(
      201,
    );
    const { schedules } = await getOk("/api/schedule", token, scheduleListResponseSchema);
    expect(schedules.map((row) => [row.time, row.durationMinutes])).toEqual([["5:30 AM", 30]]);
  });

  it("removing a member closes their live page at once and they see nothing of the box after", async () => {
    const { device, token } = await farmerWithDevice();
    const ram = await createUser();
    await addMember(device.deviceId, token, ram, "operator", "Ram");
    const ramToken = await loginToken(ram);
    const ramPage = await browserWatching({ deviceId: device.deviceId }, { token: ramToken });
    const ownerPage = await browserWatching({ deviceId: device.deviceId }, { token });
    expect((await deleteJson(`/api/pumps/${device.deviceId}/members/${ram.mobileNo}`, undefined, token)).status).toBe(
      200,
    );
    expect((await ramPage.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
    expect(ownerPage.closed).toBeNull();
    const after = await getJson(`/api/pumps/${device.deviceId}/status`, ramToken);
    expect([after.status, await refusalCode(after)]).toEqual([404, "pumpNotFound"]);
    const again = await api(`/api/realtime?deviceId=${device.deviceId}`, {
      headers: { Authorization: `Bearer ${ramToken}`, Upgrade: "websocket" },
    });
    expect(again.status).toBe(404);
    ownerPage.close();
  });

  it("a lower role holds from the next command; an admin may list and remove members, never invite", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const ram = await createUser();
    await addMember(device.deviceId, token, ram, "operator", "Ram");
    const lowered = await putJson(`/api/pumps/${device.deviceId}/members/${ram.mobileNo}`, { role: "viewer" }, token);
    expect(await readJson(lowered, pumpMemberChangeResponseSchema)).toMatchObject({
      member: { role: "viewer", label: "Ram" },
      hubConfirmed: true,
    });
    const tap = await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, await loginToken(ram));
    expect(tap.status).toBe(403);

    const admin = await adminToken();
    const listed = await membersOf(device.deviceId, admin);
    expect(listed.members.map((member) => member.mobileNo)).toEqual([ram.mobileNo]);
    // The admin's view of Ram's account names the box shared with him, as what, by whom.
    const { user } = await getOk(`/api/admin/user/${ram.id}`, admin, adminUserResponseSchema);
    expect(user.shared).toEqual([
      { id: device.deviceId, role: "viewer", label: "Ram", ownerMobileNo: expect.any(String), online: true },
    ]);
    const adminInvite = await invite(
      device.deviceId,
      { mobileNo: uniqueMobileNo(), role: "viewer", label: "x" },
      admin,
    );
    expect(adminInvite.status).toBe(403);
    expect((await deleteJson(`/api/pumps/${device.deviceId}/members/${ram.mobileNo}`, undefined, admin)).status).toBe(
      200,
    );
    const { pumps } = await pumpsOf(await loginToken(ram));
    expect(pumps).toEqual([]);
    box.close();
  });

  it("a box that changes hands, or a deleted account, takes the memberships with it", async () => {
    const { device, token } = await farmerWithDevice();
    const ram = await createUser();
    const sita = await createUser();
    const other = await farmerWithDevice();
    await addMember(device.deviceId, token, ram, "operator", "Ram");
    await addMember(other.device.deviceId, other.token, sita, "viewer", "Sita");
    const admin = await adminToken();

    await putJson(`/api/admin/devices/${device.deviceId}/owner`, { mobileNo: sita.mobileNo }, admin);
    const ramSees = await pumpsOf(await loginToken(ram));
    expect(ramSees.pumps).toEqual([]);

    const sitaToken = await loginToken(sita);
    const sitaPage = await browserWatching({ deviceId: other.device.deviceId }, { token: sitaToken });
    expect((await deleteJson("/api/admin/delete-user", { mobileNo: sita.mobileNo }, admin)).status).toBe(200);
    await sitaPage.waitForClose();
    const { members } = await membersOf(other.device.deviceId, other.token);
    expect(members).toEqual([]);
    const [unowned] = await getDb(env.DB).select().from(devices).where(eq(devices.id, device.deviceId));
    expect(unowned!.ownerUserId).toBeNull();
  });
});
