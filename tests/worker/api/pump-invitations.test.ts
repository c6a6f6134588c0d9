// Invitations (docs/decisions/018-shared-pumps.md, docs/security.md "Invitations"): an owner's
// invitation says nothing about whether the number has an account, owners are throttled, and
// an invited person is nothing to the box (no list entry, no call, no socket, nothing at the
// hub, nothing the owner typed) until they accept it themselves.
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { pumpListResponseSchema, pumpMemberResponseSchema } from "../../../common/api-responses/pumps.ts";
import { accessChangeResponseSchema, apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, getJson, postJson, putJson, refusal, refusalCode } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { invite, membersOf, pumpsOf } from "../helpers/sharing.ts";

const answer = (deviceId: string, reply: "accept" | "decline", token: string) =>
  postJson(`/api/pumps/${deviceId}/invitation`, { answer: reply }, token);

describe("an owner's invitation", () => {
  it("is answered the same whether or not the number has an account", async () => {
    const { device, token } = await farmerWithDevice();
    const registered = await createUser();
    const unknown = uniqueMobileNo();
    const answers = [];
    for (const mobileNo of [registered.mobileNo, unknown]) {
      const response = await invite(device.deviceId, { mobileNo, role: "operator", label: "Ram" }, token);
      const body = await readJson(response, pumpMemberResponseSchema);
      // The number and the moment differ by construction; nothing else may.
      answers.push({ status: response.status, ...body, member: { ...body.member, mobileNo: "·", createdAt: "·" } });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ status: 201, member: { acceptedAt: null } });
    // The owner's list says the same of both: invited, not accepted.
    const { members } = await membersOf(device.deviceId, token);
    const shapes = members.map(({ mobileNo: _mobileNo, createdAt: _createdAt, ...rest }) => rest);
    expect(shapes).toEqual([
      { role: "operator", label: "Ram", acceptedAt: null },
      { role: "operator", label: "Ram", acceptedAt: null },
    ]);
  });

  it("is throttled per owner: the eleventh within the hour is refused with 429, another owner is not", async () => {
    const { device, token } = await farmerWithDevice();
    // Every attempt counts, refused ones too: five fill the box, five more are refused as too many.
    const statuses = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const response = await invite(device.deviceId, { mobileNo: uniqueMobileNo(), role: "viewer", label: "x" }, token);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409, 409, 409]);
    const eleventh = await invite(device.deviceId, { mobileNo: uniqueMobileNo(), role: "viewer", label: "x" }, token);
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await readJson(eleventh, apiErrorSchema)).toEqual(
      refusal("Too many attempts. Please wait a little and try again.", "throttled", {
        retryAfterSeconds: expect.any(Number),
      }),
    );
    const other = await farmerWithDevice();
    const theirs = await invite(
      other.device.deviceId,
      { mobileNo: uniqueMobileNo(), role: "viewer", label: "x" },
      other.token,
    );
    expect(theirs.status).toBe(201);
  });
});

describe("an invited person who has not accepted", () => {
  it("sees only the invitation (whose, as what, none of the owner's words) and cannot see, switch or watch the pump", async () => {
    const { user: owner, device, token, box } = await farmerWithBox({ autoAck: true });
    expect((await putJson(`/api/pumps/${device.deviceId}/name`, { name: "FREE GIFT call 99999" }, token)).status).toBe(
      200,
    );
    const invitee = await createUser();
    expect(
      (await invite(device.deviceId, { mobileNo: invitee.mobileNo, role: "operator", label: "WIN A PRIZE" }, token))
        .status,
    ).toBe(201);
    const inviteeToken = await loginToken(invitee);

    const listed = await getJson("/api/pumps", inviteeToken);
    const text = await listed.clone().text();
    const { pumps, invitations } = await readJson(listed, pumpListResponseSchema);
    expect(pumps).toEqual([]);
    expect(invitations).toEqual([
      { deviceId: device.deviceId, role: "operator", ownerMobileNo: owner.mobileNo, invitedAt: expect.any(String) },
    ]);
    expect(text).not.toContain("FREE GIFT");
    expect(text).not.toContain("WIN A PRIZE");

    for (const [path, init] of [
      [`/api/pumps/${device.deviceId}/status`, {}],
      [`/api/pumps/${device.deviceId}/logs`, {}],
      [`/api/pumps/${device.deviceId}/motor`, { method: "POST", body: JSON.stringify({ action: "on" }) }],
    ] as const) {
      const response = await api(path, {
        ...init,
        headers: { Authorization: `Bearer ${inviteeToken}`, "Content-Type": "application/json" },
      });
      expect([path, response.status, await refusalCode(response)]).toEqual([path, 404, "pumpNotFound"]);
    }
    const socket = await api(`/api/realtime?deviceId=${device.deviceId}`, {
      headers: { Authorization: `Bearer ${inviteeToken}`, Upgrade: "websocket" },
    });
    expect(socket.status).toBe(404);
    // The hub's own copy has no such person either, whatever role a caller claims for them.
    expect(
      await hubStub(device.deviceId).commandMotor({ userId: invitee.id, role: "operator", label: null }, "on"),
    ).toEqual({ ok: false, code: "notAllowed" });
    await box.expectNone("switch");
    box.close();
  });

  it("accepting makes them a member at once; declining deletes the invitation; nobody answers for another number", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const [ram, sita, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    await invite(device.deviceId, { mobileNo: ram.mobileNo, role: "operator", label: "Ram" }, token);
    await invite(device.deviceId, { mobileNo: sita.mobileNo, role: "viewer", label: "Sita" }, token);
    const [ramToken, sitaToken, strangerToken] = await Promise.all([
      loginToken(ram),
      loginToken(sita),
      loginToken(stranger),
    ]);

    // Someone else cannot answer Ram's invitation, nor the owner for him.
    for (const other of [strangerToken, token]) {
      const refused = await answer(device.deviceId, "accept", other);
      expect([refused.status, await refusalCode(refused)]).toEqual([404, "invitationNotFound"]);
    }

    const accepted = await answer(device.deviceId, "accept", ramToken);
    expect(await readJson(accepted, accessChangeResponseSchema)).toEqual({
      success: true,
      message: "Invitation accepted. The pump is now in your list.",
      hubConfirmed: true,
    });
    const { pumps } = await pumpsOf(ramToken);
    expect(pumps.map((pump) => [pump.deviceId, pump.role, pump.name])).toEqual([[device.deviceId, "operator", null]]);
    const on = await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, ramToken);
    expect(on.status).toBe(200);
    const again = await answer(device.deviceId, "accept", ramToken);
    expect([again.status, await refusalCode(again)]).toEqual([404, "invitationNotFound"]);

    const declined = await answer(device.deviceId, "decline", sitaToken);
    expect(await readJson(declined, accessChangeResponseSchema)).toMatchObject({ message: "Invitation declined." });
    const late = await answer(device.deviceId, "accept", sitaToken);
    expect([late.status, await refusalCode(late)]).toEqual([404, "invitationNotFound"]);
    const { members } = await membersOf(device.deviceId, token);
    expect(members.map((member) => [member.mobileNo, member.acceptedAt !== null])).toEqual([[ram.mobileNo, true]]);
    box.close();
  });
});
