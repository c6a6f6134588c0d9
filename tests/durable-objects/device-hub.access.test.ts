// A hub told that who may use its pump changed, when D1 cannot tell it who that is now
// (durable-objects/device-hub/owner.ts, `confirmedAccess`): the notice is not taken (the hub
// answers `accessUnconfirmed`, so the Worker asks again), and until D1 answers the hub's old
// copy of owner and members vouches for nobody: no switch, no schedules, no socket. Admins,
// whose role the Worker verified, still watch. D1's failure here is real: the members' table is renamed away for
// the moment, so every read of it fails as it would in an outage.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { ACCESS_UNCONFIRMED_CLOSE } from "../../common/hub-contract.ts";
import { createUser, loginToken } from "../worker/helpers/accounts.ts";
import { farmerWithBox } from "../worker/helpers/boxes.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import { sharePump } from "../worker/helpers/sharing.ts";
import { browserWatching, connectBrowser } from "../worker/helpers/sockets.ts";

let membersHidden = false;

async function hideMembersFromD1() {
  await env.DB.exec("ALTER TABLE device_members RENAME TO device_members_away");
  membersHidden = true;
}

async function bringMembersBack() {
  if (!membersHidden) return;
  await env.DB.exec("ALTER TABLE device_members_away RENAME TO device_members");
  membersHidden = false;
}

afterEach(bringMembersBack);

describe("a change of access the hub cannot read", () => {
  it("is refused, so the caller asks again; meanwhile nobody the old copy knew may switch or watch", async () => {
    const { device, token, user, box } = await farmerWithBox({ autoAck: true });
    const { operator } = await sharePump(device.deviceId, token);
    const operatorToken = await loginToken(operator);
    const operatorTab = await browserWatching({ deviceId: device.deviceId }, { token: operatorToken });
    const ownerTab = await browserWatching(user.mobileNo, { token });
    const hub = hubStub(device.deviceId);

    await hideMembersFromD1();
    expect(await hub.refreshAccess()).toEqual({ ok: false, code: "accessUnconfirmed" });
    // Every farmer's socket closes with "try again later": the page reconnects by itself.
    expect((await operatorTab.waitForClose()).code).toBe(ACCESS_UNCONFIRMED_CLOSE);
    expect((await ownerTab.waitForClose()).code).toBe(ACCESS_UNCONFIRMED_CLOSE);
    // The old copy still names them, and vouches for neither.
    const operatorAsks = await hub.commandMotor({ userId: operator.id, role: "operator", label: "Ram" }, "on");
    expect(operatorAsks).toMatchObject({ ok: false, code: "notAllowed" });
    const ownerAsks = await hub.commandMotor({ userId: user.id, role: "owner", label: null }, "on");
    expect(ownerAsks).toMatchObject({ ok: false, code: "notAllowed" });
    expect(await hub.listSchedules({ userId: user.id, role: "owner", label: null })).toEqual([]);
    // A socket opened meanwhile is told to try again, not that the pump is gone.
    const retry = await connectBrowser(user.mobileNo, { token });
    expect((await retry.waitForClose()).code).toBe(ACCESS_UNCONFIRMED_CLOSE);
    expect(box.received.filter((message) => message.type === "switch")).toEqual([]);

    // D1 answers again: the next request reads it and the hub vouches for them once more.
    await bringMembersBack();
    expect(await hub.commandMotor({ userId: operator.id, role: "operator", label: "Ram" }, "on")).toMatchObject({
      ok: true,
      status: "on",
    });
    const back = await browserWatching(user.mobileNo, { token });
    expect(back.closed).toBeNull();
    back.close();
    box.close();
  });

  it("leaves an admin's console open: the admin's role is the Worker's to vouch for", async () => {
    const { user, device, box } = await farmerWithBox({ autoAck: true });
    const adminToken = await loginToken(await createUser({ isAdmin: true }), "admin");
    const console = await browserWatching(user.mobileNo, { token: adminToken });
    await hideMembersFromD1();
    expect(await hubStub(device.deviceId).refreshAccess()).toEqual({ ok: false, code: "accessUnconfirmed" });
    box.send({ type: "power", current: 0, wattage: 0 });
    await console.next("powerDataUpdate");
    expect(console.closed).toBeNull();
    const another = await browserWatching(user.mobileNo, { token: adminToken });
    expect(another.closed).toBeNull();
    for (const peer of [console, another, box]) peer.close();
  });

  it("answers ok when D1 could be read, as before", async () => {
    const { device, box } = await farmerWithBox();
    expect(await hubStub(device.deviceId).refreshAccess()).toEqual({ ok: true });
    box.close();
  });
});
