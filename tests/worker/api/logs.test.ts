// GET /api/logs/motor/{mobileNo} and GET /api/logs/power/{mobileNo}: the box's log and samples, from its hub.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { motorLogsResponseSchema, powerHistoryResponseSchema } from "../../../common/api-responses/logs.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { POWER_HISTORY_RETENTION_MS } from "../../../durable-objects/device-hub/power-samples-table.ts";
import { acceptedLanguage } from "../../../worker/api/language.ts";
import { adminToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { api, getJson, postJson, refusal } from "../helpers/http.ts";
import { fireTimer, hubStub, logThroughHub } from "../helpers/hub-state.ts";

describe("GET /api/logs/motor/{mobileNo}", () => {
  it("answers an array of the device's logs, newest first, page by page", async () => {
    const { user, device, token } = await farmerWithDevice();
    for (let index = 0; index < 5; index++) {
      const action = index % 2 === 0 ? "on" : "off";
      await logThroughHub(device.deviceId, action, { kind: "legacy", text: `log ${index}` }, Date.now() + index);
    }
    const first = await getJson(`/api/logs/motor/${user.mobileNo}?limit=3`, token);
    expect(first.status).toBe(200);
    const page = await readJson(first, motorLogsResponseSchema);
    expect(page.map((log) => log.logMessage)).toEqual(["log 4", "log 3", "log 2"]);
    expect(page[0]).toEqual({
      id: expect.any(Number),
      action: "on",
      logMessage: "log 4",
      timestamp: expect.stringMatching(/Z$/),
      kind: "legacy",
      params: { text: "log 4" },
    });
    const next = await getJson(`/api/logs/motor/${user.mobileNo}?limit=3&before=${page[2]!.id}`, token);
    expect((await readJson(next, motorLogsResponseSchema)).map((log) => log.logMessage)).toEqual(["log 1", "log 0"]);
  });

  it("keeps the order of events that come in the same moment (a phase lost and back, again and again)", async () => {
    const { user, token, box } = await farmerWithBox();
    for (let round = 0; round < 5; round++) {
      box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing" });
      box.send({ type: "event", event: "phaseOk", relay: "off" });
    }
    const messages = async () =>
      (await readJson(await getJson(`/api/logs/motor/${user.mobileNo}`, token), motorLogsResponseSchema)).map(
        (log) => log.logMessage,
      );
    await expect.poll(async () => (await messages()).length).toBe(10);
    const logs = await messages();
    expect(logs.filter((_, index) => index % 2 === 0).every((message) => message === "Phase is OK now.")).toBe(true);
    expect(
      logs.filter((_, index) => index % 2 === 1).every((message) => message.startsWith("Phase fault detected")),
    ).toBe(true);
  });

  it("is the owner's or an admin's only, and checks its query", async () => {
    const a = await farmerWithDevice();
    const b = await farmerWithDevice();
    expect((await getJson(`/api/logs/motor/${b.user.mobileNo}`, a.token)).status).toBe(403);
    expect((await getJson(`/api/logs/motor/${b.user.mobileNo}`, await adminToken())).status).toBe(200);
    const bad = await getJson(`/api/logs/motor/${a.user.mobileNo}?limit=5000`, a.token);
    expect(bad.status).toBe(400);
  });
});

describe("motor logs in the caller's language", () => {
  const logsIn = async (mobileNo: string, token: string, headers: Record<string, string>) =>
    readJson(
      await api(`/api/logs/motor/${mobileNo}`, { headers: { Authorization: `Bearer ${token}`, ...headers } }),
      motorLogsResponseSchema,
    );

  it("words logMessage in Hindi for Accept-Language: hi, in English otherwise, and the page's cookie comes first", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: true });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    box.send({ type: "event", event: "phaseFault", relay: "off", detail: "Phase Y missing", phase: "Y" });
    await expect.poll(async () => (await logsIn(user.mobileNo, token, {})).length).toBe(2);

    expect(await logsIn(user.mobileNo, token, { "Accept-Language": "hi" })).toMatchObject([
      { kind: "phaseFault", logMessage: "फेज़ फॉल्ट पाया गया (Y फेज़ में)। मोटर चलाना बंद है।" },
      { kind: "switched", logMessage: "मोटर चालू की गई (ऐप से)" },
    ]);
    expect(
      (await logsIn(user.mobileNo, token, { "Accept-Language": "hi-IN,hi;q=0.9,en-US;q=0.8" }))[1]!.logMessage,
    ).toBe("मोटर चालू की गई (ऐप से)");
    expect((await logsIn(user.mobileNo, token, { "Accept-Language": "en-IN,en;q=0.9,hi;q=0.8" }))[1]!.logMessage).toBe(
      "Motor turned ON from the app",
    );
    expect((await logsIn(user.mobileNo, token, {}))[1]!.logMessage).toBe("Motor turned ON from the app");
    expect(
      (await logsIn(user.mobileNo, token, { "Accept-Language": "hi", Cookie: "sinchai_lang=en" }))[1]!.logMessage,
    ).toBe("Motor turned ON from the app");
    expect(
      (await logsIn(user.mobileNo, token, { "Accept-Language": "en", Cookie: "sinchai_lang=hi" }))[1]!.logMessage,
    ).toBe("मोटर चालू की गई (ऐप से)");
    box.close();
  });

  it("words refusals in the caller's language too, with their code", async () => {
    const { token } = await farmerWithDevice();
    const refused = await api("/api/devices/motor", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Language": "hi" },
      body: JSON.stringify({ action: "on" }),
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual(refusal("डिवाइस ऑफ़लाइन है। उसकी बिजली और नेटवर्क जाँचें, फिर कोशिश करें।", "offline"));
  });

  it("words the API's own refusals in the caller's language: validation, access, not found", async () => {
    const { token } = await farmerWithDevice();
    const hindi = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Cookie: "sinchai_lang=hi" };
    const badPlan = await api("/api/recharge/request", {
      method: "POST",
      headers: hindi,
      body: JSON.stringify({ plan: "forever", paymentMethod: "upi" }),
    });
    expect(badPlan.status).toBe(400);
    expect(await badPlan.json()).toMatchObject(refusal("प्लान सही नहीं है।", "invalidInput", { field: "plan" }));
    const english = await api("/api/recharge/request", {
      method: "POST",
      headers: { ...hindi, Cookie: "sinchai_lang=en" },
      body: JSON.stringify({ plan: "forever", paymentMethod: "upi" }),
    });
    expect((await readJson(english, apiErrorSchema)).message).toBe(
      "plan must be one of 1month, 3month, 6month, 1year.",
    );
    const someoneElse = await api("/api/devices/motor/status/9000000099", { headers: hindi });
    expect(someoneElse.status).toBe(403);
    expect(await someoneElse.json()).toMatchObject({
      message: "आप केवल अपना डिवाइस देख और चला सकते हैं।",
      code: "notYourDevice",
    });
    const nowhere = await api("/api/no-such-route", { headers: hindi });
    expect(await nowhere.json()).toEqual(refusal("यह पता मौजूद नहीं है।", "notFound"));
  });

  it.each([
    ["hi", "hi"],
    ["hi-IN", "hi"],
    ["en-GB,en;q=0.9", "en"],
    ["en;q=0.5,hi;q=0.5", "hi"],
    ["en;q=0.8,hi;q=0.2", "en"],
    ["hi;q=0,en", "en"],
    ["fr-FR,fr;q=0.9", null],
    ["*", null],
    ["", null],
  ])("Accept-Language %j → %s", (header, language) => {
    expect(acceptedLanguage(header)).toBe(language);
  });
});

describe("GET /api/logs/power/{mobileNo}", () => {
  it("answers sampled readings of the running motor: at most one a minute", async () => {
    const { user, token, box } = await farmerWithBox({ autoAck: { runningCurrent: 9 } });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200); // box reports 9 A
    box.send({ type: "power", current: 9.2, wattage: 5290 }); // within the minute: not sampled
    const response = await getJson(`/api/logs/power/${user.mobileNo}`, token);
    expect(response.status).toBe(200);
    await expect
      .poll(async () => readJson(await getJson(`/api/logs/power/${user.mobileNo}`, token), powerHistoryResponseSchema))
      .toEqual([{ id: expect.any(Number), current: 9, wattage: 5175, timestamp: expect.stringMatching(/Z$/) }]);
    box.close();
  });

  it("forgets samples older than the retention period", async () => {
    const { user, device, token, box } = await farmerWithBox({ autoAck: { runningCurrent: 9 } });
    expect((await postJson("/api/devices/motor", { action: "on" }, token)).status).toBe(200);
    await runInDurableObject(hubStub(device.deviceId), (_hub, state) => {
      state.storage.sql.exec(
        "INSERT INTO power_samples (at, current, wattage) VALUES (?, 1, 1)",
        Date.now() - POWER_HISTORY_RETENTION_MS - 60_000,
      );
    });
    expect(
      (await readJson(await getJson(`/api/logs/power/${user.mobileNo}`, token), powerHistoryResponseSchema)).length,
    ).toBe(2);
    await fireTimer(device.deviceId, "prune-power");
    expect(
      (await readJson(await getJson(`/api/logs/power/${user.mobileNo}`, token), powerHistoryResponseSchema)).length,
    ).toBe(1);
    box.close();
  });
});
