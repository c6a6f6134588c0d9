// Commands on the page's open socket: a `switchMotor` request is answered on that socket alone
// by a `commandResult` with its id, and only once the box has answered; who asks is the
// socket's viewer, checked against the hub's own copy of owner and members exactly as an HTTP
// tap is (the same hub method). Frames that are not requests are ignored; a malformed request
// is refused by code; a socket that floods requests is closed.
import { describe, expect, it } from "vitest";
import { DEVICE_CLOSE } from "../../../common/hub-contract.ts";
import { BROWSER_REQUEST_BURST, type BrowserRequest, type RealtimeMessage } from "../../../common/realtime-protocol.ts";
import { createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox } from "../helpers/boxes.ts";
import { putJson } from "../helpers/http.ts";
import { addMember } from "../helpers/sharing.ts";
import { type BrowserPeer, browserWatching, connectDevice } from "../helpers/sockets.ts";

type CommandResult = Extract<RealtimeMessage, { type: "commandResult" }>;

let requests = 0;

/** Sends a request on `browser`'s socket and waits for its answer. */
async function ask(browser: BrowserPeer, request: Omit<BrowserRequest, "requestId">): Promise<CommandResult> {
  requests += 1;
  const requestId = `r${requests}`;
  browser.sendRaw(JSON.stringify({ ...request, requestId }));
  const answer = await browser.next("commandResult");
  expect(answer.requestId).toBe(requestId);
  return answer;
}

describe("a switch on the open socket", () => {
  it("answers the asking socket once the box confirmed, after the state that it changed", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const tab = await browserWatching(user.mobileNo, { token });
    const otherTab = await browserWatching(user.mobileNo, { token });

    const answer = await ask(tab, { type: "switchMotor", action: "on" });
    expect(answer.result).toEqual({ ok: true, status: "on" });
    // The box was asked once, and the page already holds the state the answer speaks of.
    expect(box.received.filter((message) => message.type === "switch")).toEqual([
      expect.objectContaining({ type: "switch", relay: "on" }),
    ]);
    const arrived = (type: string) => tab.raw.findIndex((frame) => frame.includes(`"type":"${type}"`));
    expect(arrived("motorStatusUpdate")).toBeGreaterThan(-1);
    expect(arrived("motorStatusUpdate")).toBeLessThan(arrived("commandResult"));
    expect((await tab.next("motorLogUpdate")).log).toMatchObject({
      kind: "switched",
      action: "on",
      logMessage: "Motor turned ON from the app",
    });

    // Everyone watching sees the change; only the tab that asked gets the answer.
    expect(await otherTab.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "on" });
    await otherTab.expectNone("commandResult");
    for (const peer of [tab, otherTab, box]) peer.close();
  });

  it("is refused by the same rules as a tap over HTTP: the cooldown, then an offline box", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const tab = await browserWatching(user.mobileNo, { token });
    expect((await ask(tab, { type: "switchMotor", action: "on" })).result).toEqual({ ok: true, status: "on" });
    // OFF is never held back; ON again is, until the cooldown has passed.
    expect((await ask(tab, { type: "switchMotor", action: "off" })).result).toEqual({ ok: true, status: "off" });
    const early = (await ask(tab, { type: "switchMotor", action: "on" })).result;
    expect(early).toMatchObject({ ok: false, code: "cooldown", retryAfterMs: expect.any(Number) });

    box.close();
    await tab.next("deviceStatusUpdate");
    expect((await ask(tab, { type: "switchMotor", action: "off" })).result).toMatchObject({
      ok: false,
      code: "offline",
    });
    tab.close();
  });

  it("says the link was lost when the box drops before answering, and the pump is then unknown", async () => {
    const { user, token, box } = await farmerWithBox();
    const tab = await browserWatching(user.mobileNo, { token });
    tab.sendRaw(JSON.stringify({ type: "switchMotor", requestId: "lost", action: "on" }));
    await box.next("switch");
    box.close();
    expect(await tab.next("commandResult")).toEqual({
      type: "commandResult",
      requestId: "lost",
      result: { ok: false, code: "linkLost" },
    });
    expect(await tab.next("motorStatusUpdate")).toEqual({ type: "motorStatusUpdate", status: "unknown" });
    tab.close();
  });
});

describe("who may switch on a socket", () => {
  it("an operator switches and the log names them; a viewer and an admin are refused and the box hears nothing", async () => {
    const { user: owner, device, token, box } = await farmerWithBox({ autoAck: true });
    const [ram, sita] = [await createUser(), await createUser()];
    await addMember(device.deviceId, token, ram, "operator", "Ram");
    await addMember(device.deviceId, token, sita, "viewer", "Sita");
    const target = { deviceId: device.deviceId };
    const ramTab = await browserWatching(target, { token: await loginToken(ram) });
    const sitaTab = await browserWatching(target, { token: await loginToken(sita) });
    const admin = await createUser({ isAdmin: true });
    const adminConsole = await browserWatching(owner.mobileNo, { token: await loginToken(admin, "admin") });

    expect((await ask(ramTab, { type: "switchMotor", action: "on" })).result).toEqual({ ok: true, status: "on" });
    expect((await ramTab.next("motorLogUpdate")).log.logMessage).toBe("Motor turned ON by Ram from the app");
    await box.next("switch");

    for (const refused of [sitaTab, adminConsole]) {
      expect((await ask(refused, { type: "switchMotor", action: "off" })).result).toEqual({
        ok: false,
        code: "notAllowed",
      });
    }
    await box.expectNone("switch");
    for (const peer of [ramTab, sitaTab, adminConsole, box]) peer.close();
  });

  it("a lower role holds from the next request on the same socket", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const ram = await createUser();
    await addMember(device.deviceId, token, ram, "operator", "Ram");
    const ramTab = await browserWatching({ deviceId: device.deviceId }, { token: await loginToken(ram) });
    const change = await putJson(`/api/pumps/${device.deviceId}/members/${ram.mobileNo}`, { role: "viewer" }, token);
    expect(change.status).toBe(200);
    expect((await ask(ramTab, { type: "switchMotor", action: "on" })).result).toEqual({
      ok: false,
      code: "notAllowed",
    });
    await box.expectNone("switch");
    ramTab.close();
    box.close();
  });
});

describe("frames that are not good requests", () => {
  it("a request it cannot read is refused by code; a frame without a request id gets nothing", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const tab = await browserWatching(user.mobileNo, { token });
    tab.sendRaw(JSON.stringify({ type: "switchMotor", requestId: "bad-action", action: "maybe" }));
    expect(await tab.next("commandResult")).toEqual({
      type: "commandResult",
      requestId: "bad-action",
      result: { ok: false, code: "invalidRequest" },
    });
    tab.sendRaw(JSON.stringify({ type: "deleteEverything", requestId: "unknown-type" }));
    expect((await tab.next("commandResult")).result).toEqual({ ok: false, code: "invalidRequest" });
    // Nothing to answer to: ignored, as any frame of a page that only listens.
    tab.sendRaw(JSON.stringify({ type: "switchMotor", action: "on" }));
    tab.sendRaw(JSON.stringify({ type: "switchMotor", requestId: "x".repeat(65), action: "on" }));
    tab.sendRaw("not json");
    await tab.expectNone("commandResult");
    await box.expectNone("switch");
    expect(tab.closed).toBeNull();
    tab.close();
    box.close();
  });

  it(`more than ${BROWSER_REQUEST_BURST} requests at once close the socket with 1008`, async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    const tab = await browserWatching(user.mobileNo, { token });
    for (let index = 0; index <= BROWSER_REQUEST_BURST; index++) {
      tab.sendRaw(JSON.stringify({ type: "noSuchRequest", requestId: `flood-${index}` }));
    }
    expect((await tab.waitForClose()).code).toBe(DEVICE_CLOSE.tooManyFrames);
    const answered = tab.received.filter((message) => message.type === "commandResult");
    expect(answered).toHaveLength(BROWSER_REQUEST_BURST);
    box.close();
  });

  it("a box that comes back later is switched by nobody: requests are answered, never queued", async () => {
    const { user, token, device, box } = await farmerWithBox({ autoAck: true });
    const tab = await browserWatching(user.mobileNo, { token });
    box.close();
    await tab.next("deviceStatusUpdate");
    expect((await ask(tab, { type: "switchMotor", action: "on" })).result).toMatchObject({ code: "offline" });
    const back = await connectDevice(device);
    await back.expectNone("switch");
    tab.close();
    back.close();
  });
});
