// The hub's Web Push alerts (durable-objects/device-hub/alerts.ts) against a push service played
// in Node (tests/push-outbound.ts): a slow push service holds up nothing, each browser gets only
// the kinds it chose, an address the push service gave up is forgotten, an alert the hub could
// raise twice (an alarm delivered twice) goes out once, each alert names its pump and has a
// topic of its pump and kind, the pump's operators get it too, and nobody else does.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { OFFLINE_ALERT_GRACE_MS } from "../../common/constants.ts";
import { en } from "../../common/i18n/en.ts";
import { hi } from "../../common/i18n/hi.ts";
import { authenticateToken } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, pushSubscriptions, sessions } from "../../worker/db/schema.ts";
import { pushPayload } from "../../worker/push/push-alerts.ts";
import { loginToken } from "../worker/helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../worker/helpers/boxes.ts";
import { deleteJson, postJson } from "../worker/helpers/http.ts";
import { fireTimer, hubStub } from "../worker/helpers/hub-state.ts";
import { sharePump } from "../worker/helpers/sharing.ts";
import { browserWatching, connectDevice } from "../worker/helpers/sockets.ts";
import { browserKeys, pushesTo, received, requestsElsewhere, stored, subscribe } from "../worker/push-support.ts";

describe("DeviceHub alerts with the app closed", () => {
  it("a push service that never answers holds up neither the broadcast nor a motor command", async () => {
    const farmer = await farmerWithDevice();
    const stuck = await subscribe(farmer.token, "hang");
    const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1 });
    const browser = await browserWatching(farmer.user.mobileNo, { token: farmer.token });

    let started = Date.now();
    box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    await browser.next("phaseFaultDetected");
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect.poll(() => pushesTo(stuck.id)).toBe(1); // the push is out, and hangs
    box.send({ type: "event", event: "phaseOk", relay: "off" });
    await browser.next("phaseOk");

    started = Date.now();
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_500);
    box.close();
    browser.close();
  });

  it("each browser gets only the kinds it chose; an address the push service gave up (410) is forgotten", async () => {
    const farmer = await farmerWithDevice();
    const phase = await subscribe(farmer.token, "ok", ["phase"]);
    const power = await subscribe(farmer.token, "ok", ["power"]);
    const gone = await subscribe(farmer.token, "gone", ["phase"]);
    const box = await connectDevice(farmer.device);

    box.send({ type: "event", event: "phaseFault", relay: "off" });
    await expect.poll(() => pushesTo(phase.id)).toBe(1);
    await expect.poll(async () => (await stored(gone.endpoint)) === undefined).toBe(true);
    expect(await pushesTo(power.id)).toBe(0);
    expect(await stored(phase.endpoint)).toMatchObject({ kinds: ["phase"] });
    box.close();
  });

  it("a box gone while the motor runs alerts once its grace is over, however often its timer runs; back, it says so", async () => {
    const farmer = await farmerWithDevice();
    const { deviceId } = farmer.device;
    const phone = await subscribe(farmer.token, "ok", ["offlineWhileOn"]);
    const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1 });
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    const closedAt = Date.now();
    box.close();
    // A short reconnect is no news: the alert waits OFFLINE_ALERT_GRACE_MS for the box.
    await expect
      .poll(() => timerDue(deviceId, "offline-alert"))
      .toBeGreaterThanOrEqual(closedAt + OFFLINE_ALERT_GRACE_MS);
    expect(await pushesTo(phone.id)).toBe(0);
    await fireTimer(deviceId, "offline-alert");
    await expect.poll(() => pushesTo(phone.id)).toBe(1);
    // An alarm delivered twice, the liveness timer: still one alert.
    await runDurableObjectAlarm(hubStub(deviceId));
    await fireTimer(deviceId, "liveness");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await pushesTo(phone.id)).toBe(1);

    // Back: "back online" to the same phones, under the offline alert's tag (it replaces it), once.
    const again = await connectDevice(farmer.device, { relay: "on" });
    await expect.poll(() => pushesTo(phone.id)).toBe(2);
    const { topics } = await received(phone.id);
    expect(topics[1]).toBe(topics[0]);
    again.close();
    const third = await connectDevice(farmer.device, { relay: "on" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await pushesTo(phone.id)).toBe(2);
    third.close();
  });

  it("a box back within the grace alerts nobody, then or later", async () => {
    const farmer = await farmerWithDevice();
    const { deviceId } = farmer.device;
    const phone = await subscribe(farmer.token, "ok", ["offlineWhileOn"]);
    const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1 });
    expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
    box.close();
    await expect.poll(() => timerDue(deviceId, "offline-alert")).not.toBeNull();
    const again = await connectDevice(farmer.device, { relay: "on" });
    await expect.poll(() => timerDue(deviceId, "offline-alert")).toBeNull();
    // The alarm the cancelled timer had set may still be delivered: it finds nothing to say.
    await runDurableObjectAlarm(hubStub(deviceId));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await pushesTo(phone.id)).toBe(0);
    again.close();
  });
});

/** When the hub's timer `name` is due (ms), or null when it is not set. */
function timerDue(deviceId: string, name: string): Promise<number | null> {
  return runInDurableObject(hubStub(deviceId), (_hub: unknown, state) => {
    const rows = state.storage.sql.exec<{ dueAt: number }>("SELECT due_at AS dueAt FROM timers WHERE name = ?", name);
    return rows.toArray()[0]?.dueAt ?? null;
  });
}

describe("whose phones a pump's alert reaches, and what it says", () => {
  it("each alert names its pump: a second pump's alert of the same kind has its own topic and replaces nothing", async () => {
    const farmer = await farmerWithDevice();
    const second = await provisionDevice(farmer.user.id);
    await getDb(env.DB).update(devices).set({ name: "कुएँ वाला पंप" }).where(eq(devices.id, farmer.device.deviceId));
    const phone = await subscribe(farmer.token, "ok", ["phase"]);
    const well = await connectDevice(farmer.device);
    const river = await connectDevice(second);

    well.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    await expect.poll(() => pushesTo(phone.id)).toBe(1);
    river.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase B missing" });
    await expect.poll(() => pushesTo(phone.id)).toBe(2);
    const { topics } = await received(phone.id);
    expect(new Set(topics).size).toBe(2);
    expect(topics.every((topic) => topic !== null && /^[A-Za-z0-9_-]{1,32}$/.test(topic))).toBe(true);
    well.close();
    river.close();
  });

  it("the words name the pump in the reader's language, the tag is the pump's and the kind's, a tap opens that pump", () => {
    const named = { deviceId: "SNC-ABCDEFGH", name: "कुएँ वाला पंप" };
    const unnamed = { deviceId: "SNC-JKLMNPQR", name: null };
    const fault = { kind: "phase", state: "fault", detail: null } as const;
    const now = Date.now();
    const hindi = pushPayload(fault, "hi", now, named);
    expect(hindi.title).toContain("कुएँ वाला पंप");
    expect(hindi.title).toContain(hi["push.phaseFault.title"]);
    expect(hindi.url).toBe("/motor-control?pump=SNC-ABCDEFGH");
    expect(hindi.deviceId).toBe("SNC-ABCDEFGH");
    const english = pushPayload(fault, "en", now, unnamed);
    // An unnamed pump is called by its box's whole id, as its SMS, calls and pages call it.
    expect(english.title).toContain(en["pumps.unnamed"].replace("{id}", "SNC-JKLMNPQR"));
    expect(english.title).toContain(en["push.phaseFault.title"]);
    expect(english.tag).not.toBe(hindi.tag);
    expect(english.tag).toContain("SNC-JKLMNPQR");
    expect(pushPayload({ kind: "phase", state: "ok", detail: null }, "hi", now, named).tag).toBe(hindi.tag);
    const sixAmRun = { kind: "schedule", outcome: "done", action: "on", minuteOfDay: 360, reason: null } as const;
    const schedule = pushPayload(sixAmRun, "en", now, named);
    expect(schedule.url).toBe("/motor-schedule?pump=SNC-ABCDEFGH");
    expect(schedule.tag).not.toBe(hindi.tag);
    expect(schedule.body).toContain("6:00 AM");
    // In Hindi the schedule's time says the part of the day, as the pages do.
    const hindiSchedule = pushPayload(sixAmRun, "hi", now, named);
    expect(hindiSchedule.body).toContain("सुबह 6:00");
    expect(hindiSchedule.body).not.toMatch(/[AP]M/i);
  });

  it("the owner's and the operators' phones get the pump's alerts; a viewer's, an ex-member's, an invited operator's who has not accepted and a stranger's do not", async () => {
    const farmer = await farmerWithDevice();
    const { operator, viewer, exMember, invitee } = await sharePump(farmer.device.deviceId, farmer.token);
    const stranger = await farmerWithDevice();
    const [operatorToken, viewerToken, exToken, inviteeToken] = await Promise.all([
      loginToken(operator),
      loginToken(viewer),
      loginToken(exMember),
      loginToken(invitee),
    ]);
    const phones = {
      owner: await subscribe(farmer.token, "ok", ["phase"]),
      operator: await subscribe(operatorToken, "ok", ["phase"]),
      viewer: await subscribe(viewerToken, "ok", ["phase"]),
      exMember: await subscribe(exToken, "ok", ["phase"]),
      invitee: await subscribe(inviteeToken, "ok", ["phase"]),
      stranger: await subscribe(stranger.token, "ok", ["phase"]),
    };
    const box = await connectDevice(farmer.device);
    box.send({ type: "event", event: "phaseFault", relay: "off" });
    await expect.poll(() => pushesTo(phones.operator.id)).toBe(1);
    await expect.poll(() => pushesTo(phones.owner.id)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await pushesTo(phones.viewer.id)).toBe(0);
    expect(await pushesTo(phones.exMember.id)).toBe(0);
    // An invitation gives nothing until it is accepted, alerts included.
    expect(await pushesTo(phones.invitee.id)).toBe(0);
    expect(await pushesTo(phones.stranger.id)).toBe(0);

    // The owner removes the operator: the next alert does not reach them.
    expect(
      (await deleteJson(`/api/pumps/${farmer.device.deviceId}/members/${operator.mobileNo}`, undefined, farmer.token))
        .status,
    ).toBe(200);
    box.send({ type: "event", event: "phaseOk", relay: "off" });
    await expect.poll(() => pushesTo(phones.owner.id)).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await pushesTo(phones.operator.id)).toBe(1);
    box.close();
  });

  it("nothing goes to a session that ended without its row being deleted, nor to an address outside the push services", async () => {
    const farmer = await farmerWithDevice();
    const revoked = await loginToken(farmer.user);
    const revokedPhone = await subscribe(revoked, "ok", ["phase"]);
    const session = (await authenticateToken(env, revoked, "user"))!.sessionId;
    const db = getDb(env.DB);
    // As a session-ending path that forgot the subscriptions would leave it.
    await db.update(sessions).set({ revokedAt: Date.now() }).where(eq(sessions.id, session));
    await db.insert(pushSubscriptions).values({
      userId: farmer.user.id,
      sessionId: (await authenticateToken(env, farmer.token, "user"))!.sessionId,
      endpoint: `https://127.0.0.1:9/${session}`,
      ...(await browserKeys()),
      kinds: ["phase"],
      language: "hi",
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    const live = await subscribe(farmer.token, "ok", ["phase"]);
    const box = await connectDevice(farmer.device);
    box.send({ type: "event", event: "phaseFault", relay: "off" });
    await expect.poll(() => pushesTo(live.id)).toBe(1);
    await expect.poll(async () => (await stored(`https://127.0.0.1:9/${session}`)) === undefined).toBe(true);
    expect(await requestsElsewhere(session)).toEqual([]);
    expect(await pushesTo(revokedPhone.id)).toBe(0);
    box.close();
  });
});
