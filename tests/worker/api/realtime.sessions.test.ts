// A session's end reaches its sockets: logout, expiry, a deleted account, a lost admin role
// and a pump relinked to another farmer close the browser sockets concerned, each with the close
// code that lets the page say why; and nothing more of that pump reaches them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BROWSER_CLOSE } from "../../../common/hub-contract.ts";
import { startSession } from "../../../worker/auth/sessions.ts";
import { SESSION_TTL_MS } from "../../../worker/auth/tokens.ts";
import { hubSocketRequest } from "../../../worker/hubs/device-hubs.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, deleteJson, postJson, putJson } from "../helpers/http.ts";
import { fireTimer, hubStub } from "../helpers/hub-state.ts";
import { BrowserPeer, browserWatching, connectDevice } from "../helpers/sockets.ts";

/** Nothing of the pump reaches a socket after its close: frames received after `mark` none. */
async function receivesNothingMore(browser: BrowserPeer, mark: number, meanwhile: () => Promise<unknown>) {
  await meanwhile();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(browser.received.slice(mark)).toEqual([]);
}

describe("logout", () => {
  it("closes the sockets of that session only, with 4401", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const otherToken = await loginToken(user); // the same farmer on a second phone
    const tab = await browserWatching(user.mobileNo, { token });
    const otherPhone = await browserWatching(user.mobileNo, { token: otherToken });

    expect((await postJson("/api/auth/logout", {}, token)).status).toBe(200);
    expect((await tab.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
    const mark = tab.received.length;
    await receivesNothingMore(tab, mark, async () => {
      expect((await postJson("/api/devices/motor", { action: "on" }, otherToken)).status).toBe(200);
      await otherPhone.next("motorStatusUpdate");
    });
    expect(otherPhone.closed).toBeNull();
    box.close();
    otherPhone.close();
  });

  it("of an admin closes the admin's consoles", async () => {
    const { user } = await farmerWithDevice();
    const adminBearer = await adminToken();
    const console = await browserWatching(user.mobileNo, { token: adminBearer });
    expect((await postJson("/api/admin/logout", {}, adminBearer)).status).toBe(200);
    expect((await console.waitForClose()).code).toBe(BROWSER_CLOSE.signedOut);
  });
});

describe("a session that runs out", () => {
  it("closes its socket at the moment it expires, with 4402", async () => {
    const { user, device } = await farmerWithDevice();
    const box = await connectDevice(device);
    // A session that started almost a full lifetime ago: it ends 2 s from now, time enough for
    // its socket to connect on a busy machine (a second was not: the upgrade then met an
    // expired session). The wait runs to its actual end, however long connecting took.
    const endsAt = Date.now() + 2_000;
    const { token } = await startSession(env, user.id, "user", endsAt - SESSION_TTL_MS.user);
    const browser = await browserWatching(user.mobileNo, { token });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now()) + 100));
    await fireTimer(device.deviceId, "session-expiry");
    expect((await browser.waitForClose()).code).toBe(BROWSER_CLOSE.sessionExpired);
    box.close();
  });
});

describe("an account that loses access", () => {
  it("deleted: its farmer socket closes with 4403, the admin's own console stays", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const farmerSocket = await browserWatching(user.mobileNo, { token });
    const adminBearer = await adminToken();
    const console = await browserWatching(user.mobileNo, { token: adminBearer });
    expect((await deleteJson("/api/admin/delete-user", { mobileNo: user.mobileNo }, adminBearer)).status).toBe(200);
    expect((await farmerSocket.waitForClose()).code).toBe(BROWSER_CLOSE.accessRemoved);
    expect(console.closed).toBeNull();
    box.close();
    console.close();
  });

  it("deleted while it was an admin: its consoles close too", async () => {
    const { user } = await farmerWithDevice();
    const doomed = await createUser({ isAdmin: true });
    const doomedConsole = await browserWatching(user.mobileNo, { token: await loginToken(doomed, "admin") });
    const adminBearer = await adminToken();
    expect((await deleteJson("/api/admin/delete-user", { mobileNo: doomed.mobileNo }, adminBearer)).status).toBe(200);
    expect((await doomedConsole.waitForClose()).code).toBe(BROWSER_CLOSE.accessRemoved);
  });

  it("demoted: its admin consoles close with 4403; its own farmer socket stays", async () => {
    const { user, token, box } = await farmerWithBox();
    const promote = await adminToken();
    expect((await putJson("/api/admin/update-user-role", { userId: user.id, isAdmin: true }, promote)).status).toBe(
      200,
    );
    const ownConsole = await browserWatching(user.mobileNo, { token: await loginToken(user, "admin") });
    const farmerSocket = await browserWatching(user.mobileNo, { token });
    expect((await putJson("/api/admin/update-user-role", { userId: user.id, isAdmin: false }, promote)).status).toBe(
      200,
    );
    expect((await ownConsole.waitForClose()).code).toBe(BROWSER_CLOSE.accessRemoved);
    expect(farmerSocket.closed).toBeNull();
    box.close();
    farmerSocket.close();
  });
});

describe("a pump relinked to another farmer", () => {
  it("disappears from the old owner's socket (4404) and nothing of the new owner reaches it", async () => {
    const previous = await farmerWithDevice();
    const box = (await connectDevice(previous.device)).autoAck();
    const oldPage = await browserWatching(previous.user.mobileNo, { token: previous.token });
    const adminBearer = await adminToken();
    const console = await browserWatching(previous.user.mobileNo, { token: adminBearer });
    const next = await createUser();
    const nextToken = await loginToken(next);

    expect(
      (await putJson(`/api/admin/devices/${previous.device.deviceId}/owner`, { mobileNo: null }, adminBearer)).status,
    ).toBe(200);
    expect((await oldPage.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
    const mark = oldPage.received.length;
    expect(
      (await putJson(`/api/admin/devices/${previous.device.deviceId}/owner`, { mobileNo: next.mobileNo }, adminBearer))
        .status,
    ).toBe(200);
    await receivesNothingMore(oldPage, mark, async () => {
      const newPage = await browserWatching(next.mobileNo, { token: nextToken });
      expect((await postJson("/api/devices/motor", { action: "on" }, nextToken)).status).toBe(200);
      await newPage.next("motorStatusUpdate");
      newPage.close();
    });
    // The old owner cannot open a new one either; admins keep watching.
    const again = await api(`/api/realtime?mobileNo=${previous.user.mobileNo}`, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${previous.token}` },
    });
    expect(again.status).toBe(404);
    expect(console.closed).toBeNull();
    box.close();
    console.close();
  });

  it("is refused by the hub to a farmer who no longer owns it, even if the Worker let the upgrade through", async () => {
    const { device } = await farmerWithDevice();
    const stranger = await createUser();
    const session = await startSession(env, stranger.id, "user");
    const response = await hubStub(device.deviceId).fetch(
      hubSocketRequest({
        role: "browser",
        viewerId: stranger.id,
        viewerRole: "user",
        sessionId: "a-session",
        sessionExpiresAt: session.expiresAt,
      }),
    );
    expect(response.status).toBe(101);
    response.webSocket!.accept();
    const peer = new BrowserPeer(response.webSocket!);
    expect((await peer.waitForClose()).code).toBe(BROWSER_CLOSE.deviceUnlinked);
    expect(peer.received).toEqual([]);
  });
});
