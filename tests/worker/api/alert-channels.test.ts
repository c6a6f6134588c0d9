// GET and PUT /api/alerts/channels: how each alert reaches a farmer besides the app. The
// defaults for a farmer who never chose (a call for the critical kinds, an SMS for the others),
// SMS and calls refused for a number that is not verified, and bad input refused with nothing saved.
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { alertChannelsResponseSchema, alertChannelsSavedResponseSchema } from "../../../common/api-responses/alerts.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { getJson, putJson } from "../helpers/http.ts";
import { verifyNumber } from "../telephony-support.ts";

const DEFAULTS = {
  dryRun: "call",
  phaseFault: "call",
  voltageTrip: "call",
  offlineWhileOn: "call",
  powerBack: "sms",
  scheduleMissed: "sms",
  // Theft: a call, and the SMS with it (common/alert-channels.ts, CALL_AND_SMS_KINDS).
  tamper: "call",
  cableCut: "call",
};

async function channelsOf(token: string) {
  return readJson(await getJson("/api/alerts/channels", token), alertChannelsResponseSchema);
}

describe("/api/alerts/channels", () => {
  it("shows a new farmer the defaults, in Hindi, with the caps and whether the number is verified", async () => {
    const farmer = await farmerWithDevice("3phase", { verified: false });
    expect(await channelsOf(farmer.token)).toEqual({
      success: true,
      channels: DEFAULTS,
      language: "hi",
      numberVerified: false,
      today: { sms: 0, call: 0 },
      caps: { sms: 10, call: 5 },
    });
  });

  it("refuses SMS or a call for a number that is not verified, and saves nothing; the app alone is taken", async () => {
    const farmer = await farmerWithDevice("3phase", { verified: false });
    const refused = await putJson(
      "/api/alerts/channels",
      { channels: { dryRun: "app", powerBack: "sms" }, language: "en" },
      farmer.token,
    );
    expect(refused.status).toBe(409);
    expect(await readJson(refused, apiErrorSchema)).toMatchObject({ code: "alertsNeedVerifiedNumber" });
    expect((await channelsOf(farmer.token)).channels).toEqual(DEFAULTS);
    const saved = await putJson("/api/alerts/channels", { channels: { dryRun: "app" }, language: "en" }, farmer.token);
    expect(saved.status).toBe(200);
    expect((await readJson(saved, alertChannelsSavedResponseSchema)).channels).toEqual({ ...DEFAULTS, dryRun: "app" });
  });

  it("saves a verified farmer's choices and language; kinds left out keep theirs", async () => {
    const farmer = await farmerWithDevice();
    await verifyNumber(farmer.user);
    const first = await putJson(
      "/api/alerts/channels",
      { channels: { dryRun: "sms", powerBack: "call" }, language: "en" },
      farmer.token,
    );
    expect(await readJson(first, alertChannelsSavedResponseSchema)).toMatchObject({
      message: "Alert settings saved.",
      numberVerified: true,
      language: "en",
    });
    await putJson("/api/alerts/channels", { channels: { scheduleMissed: "app" }, language: "hi" }, farmer.token);
    expect(await channelsOf(farmer.token)).toMatchObject({
      channels: { ...DEFAULTS, dryRun: "sms", powerBack: "call", scheduleMissed: "app" },
      language: "hi",
    });
  });

  it("refuses another channel, another kind or language, or extra fields with 400, saving nothing", async () => {
    const farmer = await farmerWithDevice();
    await verifyNumber(farmer.user);
    for (const body of [
      { channels: { dryRun: "email" }, language: "hi" },
      { channels: { overCurrent: "sms" }, language: "hi" },
      { channels: { dryRun: "sms" }, language: "fr" },
      { channels: { dryRun: "sms" } },
      { channels: { dryRun: "sms" }, language: "hi", userId: 1 },
      "not json",
    ]) {
      const response = await putJson("/api/alerts/channels", body, farmer.token);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await channelsOf(farmer.token)).channels).toEqual(DEFAULTS);
  });
});
