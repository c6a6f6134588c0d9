// The dashboard's motor settings form (`intent=config`), as a browser without JavaScript posts it:
// a voltage limit outside the box's kind's range is refused with that range, and a change that
// weakens protection is held for a confirm step listing old → new, saved only when the confirm
// step's own form posts it again (docs/decisions/025-weaker-protection-asks-first.md).
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { action } from "../../app/routes/motor-control.tsx";
import { userContext } from "../../app/user-context.ts";
import { generateDeviceId } from "../../common/credentials.ts";
import type { DeviceKind } from "../../common/device-enums.ts";
import { authenticateToken, startSession } from "../../worker/auth/sessions.ts";
import { getDb } from "../../worker/db/client.ts";
import { devices, motorConfigHistory, users } from "../../worker/db/schema.ts";
import { cloudflareContext } from "../../worker/http/router-context.ts";

const ORIGIN = "http://sinchai.test";

/** A farmer signed in, owning a box that never connected (route tests make their own rows). */
async function farmerWithDevice(kind: DeviceKind = "3phase") {
  const mobileNo = `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
  const db = getDb(env.DB);
  const [user] = await db.insert(users).values({ mobileNo, passwordHash: "unused", createdAt: Date.now() }).returning();
  const deviceId = generateDeviceId();
  await db
    .insert(devices)
    .values({ id: deviceId, ownerUserId: user!.id, kind, keyHash: "unused", createdAt: Date.now() });
  const { token } = await startSession(env, user!.id, "user");
  return { user: user!, device: { deviceId }, token };
}

async function post(token: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const request = new Request(`${ORIGIN}/motor-control`, { method: "POST", body: form, headers: { Origin: ORIGIN } });
  const context = new RouterContextProvider();
  context.set(cloudflareContext, {
    env,
    ctx: { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext,
  });
  context.set(userContext, (await authenticateToken(env, token, "user"))!);
  const result = (await action({ request, params: {}, context } as unknown as Parameters<typeof action>[0])) as {
    data: { config: unknown };
    init: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, config: result.data.config };
}

const rowOf = (deviceId: string) => getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) });

describe("the dashboard's settings form", () => {
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
    expect(await post(token, fields)).toEqual({
      status: 400,
      config: {
        ok: false,
        code: "voltageLimitOutOfRange",
        field: "overVoltage",
        values: { ...fields, intent: undefined, pump: undefined, voltageUnbalance: "" },
      },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ overVoltage: null });
  });

  it("holds a change that weakens protection for a confirm step, then saves it when confirmed", async () => {
    const { user, device, token } = await farmerWithDevice();
    const fields = {
      intent: "config",
      pump: device.deviceId,
      defaultCurrent: "9",
      dryRunThreshold: "90",
      overCurrentThreshold: "30",
      underVoltage: "340",
      overVoltage: "495",
      voltageUnbalance: "6",
    };
    const held = await post(token, fields);
    expect(held).toEqual({
      status: 409,
      config: {
        ok: false,
        code: "weakerProtection",
        weakened: [
          { setting: "dryRunThreshold", from: 30, to: 90 },
          { setting: "overVoltage", from: 460, to: 495 },
        ],
        values: {
          defaultCurrent: "9",
          dryRunThreshold: "90",
          overCurrentThreshold: "30",
          underVoltage: "340",
          overVoltage: "495",
          voltageUnbalance: "6",
        },
      },
    });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 1, dryRunThreshold: 30, overVoltage: null });

    // The confirm step's form: the same values, and the confirmation.
    const values = (held.config as { values: Record<string, string> }).values;
    const saved = await post(token, {
      intent: "config",
      pump: device.deviceId,
      ...values,
      confirmWeakerProtection: "true",
    });
    expect(saved).toEqual({ status: 200, config: { ok: true, deliveredToDevice: false } });
    expect(await rowOf(device.deviceId)).toMatchObject({ defaultCurrent: 9, dryRunThreshold: 90, overVoltage: 495 });
    const [entry] = await getDb(env.DB).select().from(motorConfigHistory).where(eq(motorConfigHistory.userId, user.id));
    expect(entry!.changeNote).toBe(
      "Changed by the owner in the app; weaker protection confirmed: dry run threshold 30 → 90 %, over voltage 460 → 495 V",
    );
  });

  it("saves a change that weakens nothing at once, as before", async () => {
    const { device, token } = await farmerWithDevice();
    const saved = await post(token, {
      intent: "config",
      pump: device.deviceId,
      defaultCurrent: "12",
      dryRunThreshold: "25",
      overCurrentThreshold: "40",
      underVoltage: "",
      overVoltage: "",
      voltageUnbalance: "",
    });
    expect(saved).toEqual({ status: 200, config: { ok: true, deliveredToDevice: false } });
  });
});
