// Nobody who lost access keeps a switch (docs/security.md, "Who may use a box, everywhere at
// once"): relinking a box and deleting its owner's account take its people with them, in one D1
// batch with a notice for the box's hub; a hub that does not confirm leaves its notice in D1,
// the answer says so, and the cron trigger (or POST /api/hub-notices) delivers it.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { HUB_NOTICE_UPSERT } from "../../../common/access-change-sql.ts";
import { readJson } from "../../../common/api-client.ts";
import { hubNoticeDeliveryResponseSchema } from "../../../common/api-responses/hub-notices.ts";
import { accessChangeResponseSchema } from "../../../common/api-responses/refusals.ts";
import { ACCESS_UNCONFIRMED_CLOSE, BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { getDb } from "../../../worker/db/client.ts";
import { deviceMembers, devices, hubNotices, users } from "../../../worker/db/schema.ts";
import { deleteAccount } from "../../../worker/services/account-deletion.ts";
import { deliverHubNotices } from "../../../worker/services/hub-notices.ts";
import { removePumpMember } from "../../../worker/services/pump-members.ts";
import { relinkPump } from "../../../worker/services/pump-relink.ts";
import worker from "../../worker-test-entry.ts";
import { adminToken, createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, deleteJson, postJson, putJson, refusalCode } from "../helpers/http.ts";
import { hubStub } from "../helpers/hub-state.ts";
import { addMember, pumpsOf } from "../helpers/sharing.ts";
import { browserWatching } from "../helpers/sockets.ts";

const db = () => getDb(env.DB);
const noticesOf = (deviceId: string) => db().select().from(hubNotices).where(eq(hubNotices.deviceId, deviceId));
const peopleOf = (deviceId: string) => db().select().from(deviceMembers).where(eq(deviceMembers.deviceId, deviceId));

/**
 * The Worker's bindings with every hub unreachable for the moment (as while its object restarts,
 * or when it could not read D1 and refuses to confirm): each call to it fails and is counted.
 */
function hubsNotConfirming(): { env: Env; calls: string[] } {
  const calls: string[] = [];
  const failing = (name: string) => async () => {
    calls.push(name);
    throw new Error("Durable Object reset");
  };
  const stub = { refreshAccess: failing("refreshAccess"), closeViewerSockets: failing("closeViewerSockets") };
  return {
    calls,
    env: {
      ...env,
      DEVICE_HUB: { idFromName: (name: string) => env.DEVICE_HUB.idFromName(name), get: () => stub },
    } as unknown as Env,
  };
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** A farmer's box (online, answering) with an operator who has it open, and a number invited but not answering. */
async function sharedBox() {
  const owner = await farmerWithBox({ autoAck: true });
  const ram = await createUser();
  await addMember(owner.device.deviceId, owner.token, ram, "operator", "Ram");
  const invited = await postJson(
    `/api/pumps/${owner.device.deviceId}/members`,
    { mobileNo: uniqueMobileNo(), role: "viewer", label: "Sita" },
    owner.token,
  );
  expect(invited.status).toBe(201);
  const ramToken = await loginToken(ram);
  const ramPage = await browserWatching({ deviceId: owner.device.deviceId }, { token: ramToken });
  return { ...owner, ram, ramToken, ramPage };
}

/** Ram can neither see nor switch the box, over HTTP or by his own claim to the hub. */
async function ramHasNothing(deviceId: string, ram: { id: number }, ramToken: string) {
  for (const action of ["on", "off"]) {
    const tap = await postJson(`/api/pumps/${deviceId}/motor`, { action }, ramToken);
    expect([tap.status, await refusalCode(tap)]).toEqual([404, "pumpNotFound"]);
  }
  expect((await pumpsOf(ramToken)).pumps).toEqual([]);
  expect(await hubStub(deviceId).commandMotor({ userId: ram.id, role: "operator", label: "Ram" }, "on")).toEqual({
    ok: false,
    code: "notAllowed",
  });
}

describe("a box relinked by an admin", () => {
  it("loses its old owner's people and invitations in the same change; their pages close and the hub confirms", async () => {
    const { user, device, token, box, ram, ramToken, ramPage } = await sharedBox();
    const ownerPage = await browserWatching({ deviceId: device.deviceId }, { token });
    const next = await createUser();
    const relinked = await putJson(
      `/api/admin/devices/${device.deviceId}/owner`,
      { mobileNo: next.mobileNo },
      await adminToken(),
    );
    expect(await readJson(relinked, accessChangeResponseSchema)).toEqual({
      success: true,
      message: `Device assigned to ${next.mobileNo}.`,
      hubConfirmed: true,
    });
    expect((await ramPage.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
    expect((await ownerPage.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
    expect(await peopleOf(device.deviceId)).toEqual([]);
    expect(await noticesOf(device.deviceId)).toEqual([]);
    const [row] = await db().select().from(devices).where(eq(devices.id, device.deviceId));
    expect([row!.ownerUserId, row!.linkedAt]).toEqual([next.id, expect.any(Number)]);
    await ramHasNothing(device.deviceId, ram, ramToken);
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, token)).status).toBe(404);
    await box.expectNone("switch");
    expect(user.id).not.toBe(next.id);
    box.close();
  });
});

describe("an owner's account deleted", () => {
  it("leaves none of their people able to see or switch the box, nor watch it", async () => {
    const { user, device, box, ram, ramToken, ramPage } = await sharedBox();
    const deleted = await deleteJson("/api/admin/delete-user", { mobileNo: user.mobileNo }, await adminToken());
    expect(await readJson(deleted, accessChangeResponseSchema)).toEqual({
      success: true,
      message: "User deleted successfully!",
      hubConfirmed: true,
    });
    expect((await ramPage.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
    await ramHasNothing(device.deviceId, ram, ramToken);
    const again = await api(`/api/realtime?deviceId=${device.deviceId}`, {
      headers: { Authorization: `Bearer ${ramToken}`, Upgrade: "websocket" },
    });
    expect(again.status).toBe(404);
    expect(await peopleOf(device.deviceId)).toEqual([]);
    expect(await noticesOf(device.deviceId)).toEqual([]);
    const [row] = await db().select().from(devices).where(eq(devices.id, device.deviceId));
    expect([row!.ownerUserId, row!.linkedAt]).toEqual([null, null]);
    await box.expectNone("switch");
    box.close();
  });
});

/** The notice that waited was delivered: Ram's page closes (the pump is no longer his), the notice is gone, he has nothing of it. */
async function theNoticeWasDelivered({ device, box, ram, ramToken, ramPage }: Awaited<ReturnType<typeof sharedBox>>) {
  expect((await ramPage.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
  expect(await noticesOf(device.deviceId)).toEqual([]);
  await ramHasNothing(device.deviceId, ram, ramToken);
  box.close();
}

/** The cron delivers the notice that waited. */
async function cronDeliversTheNotice(shared: Awaited<ReturnType<typeof sharedBox>>) {
  await runCron();
  await theNoticeWasDelivered(shared);
}

describe("a hub that does not confirm", () => {
  it("a removal is saved and its answer says it is not confirmed; the notice stays until the cron delivers it", async () => {
    const shared = await sharedBox();
    const { device, ram, ramPage } = shared;
    const unreachable = hubsNotConfirming();
    expect(await removePumpMember(unreachable.env, device.deviceId, ram.mobileNo)).toEqual({
      ok: true,
      hubConfirmed: false,
    });
    // Asked twice, then left to the cron: D1 has the change, the hub has not heard of it.
    expect(unreachable.calls).toEqual(["refreshAccess", "refreshAccess"]);
    expect((await peopleOf(device.deviceId)).map((row) => row.mobileNo)).not.toContain(ram.mobileNo);
    expect(await noticesOf(device.deviceId)).toEqual([
      { deviceId: device.deviceId, askedAt: expect.any(Number), version: expect.any(Number) },
    ]);
    expect(ramPage.closed).toBeNull();

    await cronDeliversTheNotice(shared);
  });

  it("a hub that cannot read D1 answers so: the notice stays, its farmers' pages close to try again, and the next cron after D1 recovers delivers it", async () => {
    const { device, box, ram, ramToken, ramPage } = await sharedBox();
    expect(await removePumpMember(hubsNotConfirming().env, device.deviceId, ram.mobileNo)).toEqual({
      ok: true,
      hubConfirmed: false,
    });
    // Now the hub itself is reached, and cannot read who may use the box: the members' table is away.
    await env.DB.exec("ALTER TABLE device_members RENAME TO device_members_away");
    try {
      await runCron();
      expect((await ramPage.waitForClose()).code).toBe(ACCESS_UNCONFIRMED_CLOSE);
      expect(await noticesOf(device.deviceId)).toHaveLength(1);
    } finally {
      await env.DB.exec("ALTER TABLE device_members_away RENAME TO device_members");
    }
    await runCron();
    expect(await noticesOf(device.deviceId)).toEqual([]);
    await ramHasNothing(device.deviceId, ram, ramToken);
    box.close();
  });

  it("an account deletion is saved whole; its boxes' notices stay until the cron delivers them", async () => {
    const shared = await sharedBox();
    const { user, device, ramPage } = shared;
    const unreachable = hubsNotConfirming();
    expect(await deleteAccount(unreachable.env, user.mobileNo)).toEqual({ outcome: "deleted", hubConfirmed: false });
    expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await peopleOf(device.deviceId)).toEqual([]);
    expect(await noticesOf(device.deviceId)).toHaveLength(1);
    expect(ramPage.closed).toBeNull();

    await cronDeliversTheNotice(shared);
  });

  it("a relink's notice is delivered by POST /api/hub-notices, which anyone may call and which takes nothing", async () => {
    const shared = await sharedBox();
    const { device, ramPage } = shared;
    expect(await relinkPump(hubsNotConfirming().env, device.deviceId, null)).toMatchObject({
      found: true,
      hubConfirmed: false,
    });
    expect(ramPage.closed).toBeNull();
    const delivery = await api("/api/hub-notices", { method: "POST" });
    expect(delivery.status).toBe(200);
    expect(await readJson(delivery, hubNoticeDeliveryResponseSchema)).toMatchObject({ success: true, pending: 0 });
    await theNoticeWasDelivered(shared);
  });
});

describe("hub notices", () => {
  it("a delivery deletes only the notice it delivered, never a newer one that arrived meanwhile", async () => {
    const { device } = await farmerWithDevice();
    const leaveNotice = async () => {
      const { results } = await env.DB.prepare(
        `INSERT INTO hub_notices (device_id, asked_at) VALUES (?1, ?2) ${HUB_NOTICE_UPSERT}`,
      )
        .bind(device.deviceId, Date.now())
        .all<{ deviceId: string; version: number }>();
      return results[0]!;
    };
    const first = await leaveNotice();
    const second = await leaveNotice();
    expect(second.version).toBe(first.version + 1);
    expect(await deliverHubNotices(env, [first])).toEqual({ delivered: [first], pending: [] });
    expect(await noticesOf(device.deviceId)).toEqual([
      { deviceId: device.deviceId, askedAt: expect.any(Number), version: second.version },
    ]);
    await deliverHubNotices(env, [second]);
    expect(await noticesOf(device.deviceId)).toEqual([]);
  });

  it("POST /api/hub-notices is throttled per client address", async () => {
    const from = (address: string) =>
      api("/api/hub-notices", { method: "POST", headers: { "CF-Connecting-IP": address } });
    for (let call = 0; call < 30; call++) expect((await from("203.0.113.77")).status).toBe(200);
    const refused = await from("203.0.113.77");
    expect([refused.status, await refusalCode(refused)]).toEqual([429, "throttled"]);
    expect((await from("203.0.113.78")).status).toBe(200);
  });
});

describe("the last admin", () => {
  it("is not deleted, and nothing of their boxes or their people changes", async () => {
    const last = await createUser({ isAdmin: true });
    const { device, token } = await farmerWithDevice();
    await addMember(device.deviceId, token, await createUser(), "operator", "Ram");
    // The box passes to the admin behind the API's back, people and all: what a refusal must leave as it is.
    await db().update(devices).set({ ownerUserId: last.id }).where(eq(devices.id, device.deviceId));
    await db().update(users).set({ isAdmin: false }).where(eq(users.isAdmin, true));
    await db().update(users).set({ isAdmin: true }).where(eq(users.id, last.id));
    const people = await peopleOf(device.deviceId);

    expect(await deleteAccount(env, last.mobileNo)).toEqual({ outcome: "lastAdmin" });
    const [row] = await db().select().from(devices).where(eq(devices.id, device.deviceId));
    expect(row!.ownerUserId).toBe(last.id);
    expect(await peopleOf(device.deviceId)).toEqual(people);
    expect(await noticesOf(device.deviceId)).toEqual([]);
  });
});
