// The pump's settings page (/pump-settings) as a browser without JavaScript posts to it, and as
// an attacker would: the owner's alone (an operator, a viewer and a stranger get neither its
// data nor a saved change, whatever they post); every change is held for a confirm step that
// lists each setting old → new, weakening ones marked, and is saved only when the step's own
// form posts back exactly what was shown; a voltage limit outside the box's kind's range is
// refused with that range (docs/decisions/025-weaker-protection-asks-first.md). Starting by
// missed call (the start number, docs/decisions/028-switching-by-phone.md) is turned on only
// through the same kind of confirm step, turned off at once, and is the owner's alone too.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { choosePump, pumpContext } from "../../app/pump-choice.server.ts";
import { action, loader } from "../../app/routes/pump-settings.tsx";
import { userContext } from "../../app/user-context.ts";
import type { DeviceKind } from "../../common/device-enums.ts";
import { startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { deviceMembers, devices, motorConfigHistory } from "../../worker/db/schema.ts";
import { accountWithoutPassword, boxOf, formPost, ORIGIN, signedInContext } from "./route-support.ts";

async function createFarmer() {
  const user = await accountWithoutPassword();
  const { token } = await startSession(env, user.id, "user");
  return { user, token };
}

/** A farmer signed in, owning a box that never connected (route tests make their own rows). */
async function farmerWithDevice(kind: DeviceKind = "3phase") {
  const farmer = await createFarmer();
  return { ...farmer, device: { deviceId: await boxOf(farmer.user.id, kind) } };
}

/** A farmer the owner shared the box with as `role`, who accepted. */
async function memberOf(deviceId: string, role: "operator" | "viewer") {
  const member = await createFarmer();
  await getDb(env.DB).insert(deviceMembers).values({
    deviceId,
    mobileNo: member.user.mobileNo,
    role,
    label: role,
    createdAt: Date.now(),
    acceptedAt: Date.now(),
  });
  return member;
}

/** The router context the user shell gives the page: the platform, the signed-in farmer, the pump chosen. */
async function contextOf(token: string, request: Request) {
  const context = await signedInContext(token, "user");
  context.set(pumpContext, await choosePump(request, context, context.get(userContext)));
  return context;
}

/** What the page gets back: `config` for the settings form, `phoneStart` for the start number's, `smsPin` for the PIN's. */
type Posted = { status: number; config?: unknown; phoneStart?: unknown; smsPin?: unknown };

async function post(token: string, fields: Record<string, string>, origin = ORIGIN): Promise<Posted> {
  const request = formPost("/pump-settings", fields, origin);
  const result = (await action({
    request,
    params: {},
    context: await contextOf(token, request),
  } as unknown as Parameters<typeof action>[0])) as unknown as
    | { data: Omit<Posted, "status">; init: { status?: number } | null }
    | Omit<Posted, "status">;
  return "data" in result && "init" in result
    ? { status: result.init?.status ?? 200, ...result.data }
    : { status: 200, ...result };
}

async function load(token: string, deviceId: string) {
  const request = new Request(`${ORIGIN}/pump-settings?pump=${deviceId}`);
  return loader({
    request,
    params: {},
    context: await contextOf(token, request),
  } as unknown as Parameters<typeof loader>[0]);
}

const rowOf = (deviceId: string) => getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) });

/** Every field of the form, as a 3-phase box's form posts them. */
function formOf(deviceId: string, changes: Record<string, string> = {}) {
  return {
    intent: "config",
    pump: deviceId,
    defaultCurrent: "1",
    dryRunThreshold: "30",
    overCurrentThreshold: "30",
    underVoltage: "340",
    overVoltage: "460",
    voltageUnbalance: "6",
    ...changes,
  };
}

describe("the pump's settings page", () => {
  it("holds every change for a confirm step listing old → new, weakening ones marked, and saves only what was confirmed", async () => {
    const { user, device, token } = await farmerWithDevice();
    const fields = formOf(device.deviceId, { defaultCurrent: "9", dryRunThreshold: "90", overVoltage: "495" });
    const held = await post(token, fields);
    const { intent: _intent, pump: _pump, ...values } = fields;
    expect(held).toEqual({
      status: 200,
      config: {
        ok: false,
        code: "review",
        changes: [
          { setting: "defaultCurrent", from: 1, to: 9, weakens: false },
          { setting: "dryRunThreshold", from: 30, to: 90, weakens: true },
          { setting: "overVoltage", from: 460, to: 495, weakens: true },
        ],
        values,
        reviewed: "defaultCurrent:1>9,dryRunThreshold:30>90,overVoltage:460>495",
        changedMeanwhile: false,
      },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 1, dryRunThreshold: 30, overVoltage: null });

    // A confirmation of something else than what the step showed saves nothing: the step again.
    const forged = await post(token, { ...fields, confirmed: "defaultCurrent:1>9" });
    expect(forged.config).toMatchObject({ code: "review", changedMeanwhile: true });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 1 });

    // The confirm step's form: the same values, and what was confirmed.
    const saved = await post(token, { ...fields, confirmed: (held.config as { reviewed: string }).reviewed });
    expect(saved).toEqual({ status: 200, config: { ok: true, deliveredToDevice: false } });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 9, dryRunThreshold: 90, overVoltage: 495 });
    const [entry] = await getDb(env.DB).select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id));
    expect(entry!.changeNote).toBe(
      "Changed by the owner in the app; weaker protection confirmed: dry run threshold 30 → 90 %, over voltage 460 → 495 V",
    );
  });

  it("shows the step again when the settings moved after the owner saw it (another tab, an admin)", async () => {
    const { device, token } = await farmerWithDevice();
    const fields = formOf(device.deviceId, { dryRunThreshold: "25" });
    const held = await post(token, fields);
    const reviewed = (held.config as { reviewed: string }).reviewed;
    await getDb(env.DB).update(devices).set({ dryRunThreshold: 20 }).where(eq(devices.id, device.deviceId));
    const again = await post(token, { ...fields, confirmed: reviewed });
    expect(again.config).toMatchObject({
      code: "review",
      changes: [{ setting: "dryRunThreshold", from: 20, to: 25, weakens: false }],
      changedMeanwhile: true,
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ dryRunThreshold: 20 });
  });

  it("saves nothing and asks nothing when nothing changes", async () => {
    const { device, token } = await farmerWithDevice();
    expect(await post(token, formOf(device.deviceId))).toEqual({
      status: 200,
      config: { ok: false, code: "unchanged" },
    });
    // An emptied voltage limit is its kind's default, already in force.
    expect(await post(token, formOf(device.deviceId, { underVoltage: "", voltageUnbalance: "" }))).toEqual({
      status: 200,
      config: { ok: false, code: "unchanged" },
    });
  });

  it("refuses 520 V over-voltage on a 1-phase box, naming the field, and keeps what was typed", async () => {
    const { device, token } = await farmerWithDevice("1phase");
    const fields = {
      intent: "config",
      pump: device.deviceId,
      defaultCurrent: "6",
      dryRunThreshold: "30",
      overCurrentThreshold: "30",
      underVoltage: "190",
      overVoltage: "520",
    };
    const { intent: _intent, pump: _pump, ...typed } = fields;
    for (const confirmed of ["", "overVoltage:250>520"]) {
      expect(await post(token, { ...fields, confirmed })).toEqual({
        status: 400,
        config: {
          ok: false,
          code: "voltageLimitOutOfRange",
          field: "overVoltage",
          values: { ...typed, voltageUnbalance: "" },
        },
      });
    }
    expect(await rowOf(device.deviceId)).toMatchObject({ overVoltage: null });
  });

  it("is the owner's alone: an operator, a viewer and a stranger get no settings and save nothing, confirmed or not", async () => {
    const { device, token } = await farmerWithDevice();
    expect(await load(token, device.deviceId)).toMatchObject({ view: "settings", deviceId: device.deviceId });
    const fields = formOf(device.deviceId, { overCurrentThreshold: "400" });
    const reviewed = ((await post(token, fields)).config as { reviewed: string }).reviewed;
    for (const role of ["operator", "viewer"] as const) {
      const member = await memberOf(device.deviceId, role);
      // The page: the notice, nothing of the box (no settings, no IMEI, no firmware).
      expect(await load(member.token, device.deviceId)).toEqual({ view: "ownerOnly" });
      expect(await post(member.token, fields)).toEqual({ status: 403, config: { ok: false, code: "notAllowed" } });
      expect(await post(member.token, { ...fields, confirmed: reviewed })).toEqual({
        status: 403,
        config: { ok: false, code: "notAllowed" },
      });
    }
    const stranger = await createFarmer();
    expect(await load(stranger.token, device.deviceId)).toEqual({ view: "noDevice" });
    expect(await post(stranger.token, { ...fields, confirmed: reviewed })).toEqual({
      status: 403,
      config: { ok: false, code: "noDevice" },
    });
    // From another site, even the owner's own session saves nothing.
    expect(await post(token, { ...fields, confirmed: reviewed }, "https://evil.example")).toEqual({
      status: 403,
      config: { ok: false, code: "crossSite" },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ overCurrentThreshold: 30 });
  });

  it("turns starting by missed call on only through its confirm step, and off at once", async () => {
    const { device, token } = await farmerWithDevice();
    expect(await load(token, device.deviceId)).toMatchObject({ view: "settings", startByMissedCall: false });
    const turnOn = { intent: "phoneStart", pump: device.deviceId, enabled: "true" };
    // Asked first: nothing saved until the step's own form posts it again, confirmed.
    expect(await post(token, turnOn)).toEqual({ status: 200, phoneStart: { ok: false, code: "review" } });
    expect(await rowOf(device.deviceId)).toMatchObject({ startByMissedCall: false });
    expect(await post(token, { ...turnOn, confirmed: "on" })).toEqual({
      status: 200,
      phoneStart: { ok: true, enabled: true },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ startByMissedCall: true });
    expect(await load(token, device.deviceId)).toMatchObject({ startByMissedCall: true });
    // Off needs no step: it only takes a way of starting the motor away.
    expect(await post(token, { intent: "phoneStart", pump: device.deviceId, enabled: "false" })).toEqual({
      status: 200,
      phoneStart: { ok: true, enabled: false },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ startByMissedCall: false });
    // Neither true nor false: refused, nothing saved.
    for (const enabled of ["", "on", "1"]) {
      expect(await post(token, { ...turnOn, enabled, confirmed: "on" })).toEqual({
        status: 400,
        phoneStart: { ok: false, code: "invalid" },
      });
    }
    expect(await rowOf(device.deviceId)).toMatchObject({ startByMissedCall: false });
  });

  it("lets nobody but the owner turn starting by missed call on, confirmed or not, nor from another site", async () => {
    const { device, token } = await farmerWithDevice();
    const confirmedOn = { intent: "phoneStart", pump: device.deviceId, enabled: "true", confirmed: "on" };
    for (const role of ["operator", "viewer"] as const) {
      const member = await memberOf(device.deviceId, role);
      expect(await post(member.token, confirmedOn)).toEqual({
        status: 403,
        phoneStart: { ok: false, code: "notAllowed" },
      });
    }
    const stranger = await createFarmer();
    expect(await post(stranger.token, confirmedOn)).toEqual({
      status: 403,
      phoneStart: { ok: false, code: "noDevice" },
    });
    expect(await post(token, confirmedOn, "https://evil.example")).toMatchObject({ status: 403 });
    expect(await rowOf(device.deviceId)).toMatchObject({ startByMissedCall: false });
  });

  it("sets the SMS PIN by its form, 4 digits only, removes it with an empty one, and is the owner's alone", async () => {
    const { device, token } = await farmerWithDevice();
    const form = (pin: string) => ({ intent: "smsPin", pump: device.deviceId, pin });
    for (const wrong of ["123", "12345", "abcd"]) {
      expect(await post(token, form(wrong))).toEqual({ status: 400, smsPin: { ok: false, code: "invalid" } });
    }
    expect((await rowOf(device.deviceId))?.smsPin).toBeNull();
    expect(await post(token, form("4321"))).toEqual({ status: 200, smsPin: { ok: true, pinSet: true } });
    expect((await rowOf(device.deviceId))?.smsPin).toMatch(/^[0-9a-f]{64}$/);
    const operator = await memberOf(device.deviceId, "operator");
    expect(await post(operator.token, form(""))).toEqual({ status: 403, smsPin: { ok: false, code: "notAllowed" } });
    expect(await post(token, form("4321"), "https://evil.example")).toMatchObject({ status: 403 });
    expect(await post(token, form(""))).toEqual({ status: 200, smsPin: { ok: true, pinSet: false } });
    expect((await rowOf(device.deviceId))?.smsPin).toBeNull();
  });
});
