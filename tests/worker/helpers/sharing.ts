// A box shared through the API, as an owner and the people they invite would do it.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { pumpListResponseSchema, pumpMembersResponseSchema } from "../../../common/api-responses/pumps.ts";
import { startSession } from "../../../worker/auth/sessions.ts";
import { createUser, type TestUser } from "./accounts.ts";
import { deleteJson, getOk, postJson } from "./http.ts";

/** GET /api/pumps as the holder of `token`: the pumps they use and the invitations waiting for them. */
export function pumpsOf(token: string) {
  return getOk("/api/pumps", token, pumpListResponseSchema);
}

/** GET /api/pumps/{deviceId}/members as the holder of `token`: the box's people and invitees. */
export function membersOf(deviceId: string, token: string) {
  return getOk(`/api/pumps/${deviceId}/members`, token, pumpMembersResponseSchema);
}

/** `user` accepts the owner's invitation to `deviceId` through the API, with a session of their own. */
export async function acceptInvitation(deviceId: string, user: TestUser): Promise<void> {
  const { token } = await startSession(env, user.id, "user");
  const response = await postJson(`/api/pumps/${deviceId}/invitation`, { answer: "accept" }, token);
  expect(response.status).toBe(200);
}

/** POST /api/pumps/{deviceId}/members with `body` as the holder of `token`: an owner's invitation, or a try at one. */
export function invite(deviceId: string, body: object, token: string): Promise<Response> {
  return postJson(`/api/pumps/${deviceId}/members`, body, token);
}

/** The owner invites `user` to `deviceId` as `role`, and `user` accepts: one of the box's people. */
export async function addMember(
  deviceId: string,
  ownerToken: string,
  user: TestUser,
  role: "operator" | "viewer",
  label: string,
): Promise<void> {
  const response = await invite(deviceId, { mobileNo: user.mobileNo, role, label }, ownerToken);
  expect(response.status).toBe(201);
  await acceptInvitation(deviceId, user);
}

/**
 * The owner of `deviceId` lets three new farmers use it: an operator, a viewer, and one they
 * remove again at once (an ex-member); and invites a fourth who has not answered (an invitee).
 * Through the API, as an owner and the people would.
 */
export async function sharePump(deviceId: string, ownerToken: string) {
  const [operator, viewer, exMember, invitee] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  await addMember(deviceId, ownerToken, operator, "operator", "Ram");
  await addMember(deviceId, ownerToken, viewer, "viewer", "Sita");
  await addMember(deviceId, ownerToken, exMember, "operator", "Mohan");
  expect((await deleteJson(`/api/pumps/${deviceId}/members/${exMember.mobileNo}`, undefined, ownerToken)).status).toBe(
    200,
  );
  const invited = await invite(deviceId, { mobileNo: invitee.mobileNo, role: "operator", label: "Gopal" }, ownerToken);
  expect(invited.status).toBe(201);
  return { operator, viewer, exMember, invitee };
}
