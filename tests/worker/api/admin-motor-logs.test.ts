// GET /api/admin/motor-logs?mobileNo= or ?deviceId=, &before= for the next page: the motor log of
// one farmer's boxes or of one box, read from those boxes' hubs, newest first, 20 a page.
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { adminMotorLogsResponseSchema } from "../../../common/api-responses/admin.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../../common/constants.ts";
import { adminToken, createUser, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { getJson, getOk, putJson } from "../helpers/http.ts";
import { hubStub, logThroughHub } from "../helpers/hub-state.ts";

freshStorageForThisFile();

async function page(query: string, token: string) {
  return getOk(`/api/admin/motor-logs${query}`, token, adminMotorLogsResponseSchema);
}

/** Writes `count` entries into the box's log through its hub, one a second from `start`, worded `<prefix> <n>`. */
async function writeLogs(deviceId: string, count: number, start: number, prefix: string, step = 1000) {
  for (let index = 0; index < count; index++) {
    await logThroughHub(
      deviceId,
      index % 2 ? "off" : "on",
      { kind: "legacy", text: `${prefix} ${index}` },
      start + index * step,
    );
  }
}

/** Every page of `query`, following `nextBefore` to the end. */
async function allPages(query: string, token: string) {
  const pages = [await page(query, token)];
  while (pages.at(-1)!.nextBefore !== null) {
    pages.push(await page(`${query}&before=${pages.at(-1)!.nextBefore}`, token));
    expect(pages.length).toBeLessThan(20);
  }
  return pages;
}

describe("GET /api/admin/motor-logs", () => {
  it("answers one box's log from its hub, newest first, naming the box", async () => {
    expect(ADMIN_LOGS_PAGE_SIZE).toBe(20);
    const token = await adminToken();
    const { user, device, token: farmerToken } = await farmerWithDevice();
    expect((await putJson(`/api/pumps/${device.deviceId}/name`, { name: "कुएँ वाला पंप" }, farmerToken)).status).toBe(200);
    const start = Date.now() - 60_000;
    await writeLogs(device.deviceId, 3, start, "box");
    const answer = await page(`?deviceId=${device.deviceId}`, token);
    expect(answer).toMatchObject({ success: true, pageSize: 20, nextBefore: null });
    expect(answer.logs.map((log) => log.message)).toEqual(["box 2", "box 1", "box 0"]);
    expect(answer.logs[0]).toMatchObject({
      deviceId: device.deviceId,
      boxName: "कुएँ वाला पंप",
      action: "on",
      kind: "legacy",
      createdAt: new Date(start + 2000).toISOString(),
    });
    // The same rows as the hub holds, by id.
    const { rows } = await hubStub(device.deviceId).motorLogPage({ limit: 100 });
    expect(answer.logs.map((log) => log.id)).toEqual(rows.map((row) => row.id));
    // A box's id as typed off the sticker: any case, spaces around it.
    const typed = await page(`?deviceId=${encodeURIComponent(` ${device.deviceId.toLowerCase()} `)}`, token);
    expect(typed.logs).toHaveLength(3);
    // The farmer's own number names it too (their only box).
    expect((await page(`?mobileNo=${user.mobileNo}`, token)).logs.map((log) => log.id)).toEqual(
      answer.logs.map((log) => log.id),
    );
  });

  it("merges a farmer's two boxes newest first and pages with before to the end, each entry once", async () => {
    const token = await adminToken();
    const farmer = await createUser();
    const first = await provisionDevice(farmer.id);
    const second = await provisionDevice(farmer.id);
    const someoneElse = await farmerWithDevice();
    const start = Date.now() - 10 * 60_000;
    // Interleaved in time: 25 on the first box at even seconds, 20 on the second at odd ones.
    await writeLogs(first.deviceId, 25, start, "first", 2000);
    await writeLogs(second.deviceId, 20, start + 1000, "second", 2000);
    await writeLogs(someoneElse.device.deviceId, 5, start, "other");

    const pages = await allPages(`?mobileNo=${farmer.mobileNo}`, token);
    expect(pages.map((answer) => answer.logs.length)).toEqual([20, 20, 5]);
    expect(pages.at(-1)!.nextBefore).toBeNull();
    const logs = pages.flatMap((answer) => answer.logs);
    const ids = logs.map((log) => log.id);
    expect(new Set(ids).size).toBe(45);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(logs.map((log) => log.deviceId))).toEqual(new Set([first.deviceId, second.deviceId]));
    // Newest first across the two boxes: the first box's last five come after the second box's end.
    expect(logs.slice(0, 8).map((log) => log.message)).toEqual([
      "first 24",
      "first 23",
      "first 22",
      "first 21",
      "first 20",
      "second 19",
      "first 19",
      "second 18",
    ]);
    expect(logs.at(-1)?.message).toBe("first 0");
    // Each page's `nextBefore` is its last entry's id.
    expect(pages[0]!.nextBefore).toBe(pages[0]!.logs.at(-1)!.id);

    // One of the boxes alone pages the same way.
    const secondOnly = (await allPages(`?deviceId=${second.deviceId}`, token)).flatMap((answer) => answer.logs);
    expect(secondOnly.map((log) => log.message)).toEqual(
      Array.from({ length: 20 }, (_, index) => `second ${19 - index}`),
    );
  });

  it("keeps every entry when two boxes' hubs gave the same id at a page's edge", async () => {
    const token = await adminToken();
    const farmer = await createUser();
    const first = await provisionDevice(farmer.id);
    const second = await provisionDevice(farmer.id);
    const start = Date.now() - 5 * 60_000;
    // The same instants on both boxes: each hub takes its id from the time, so the ids pair up.
    // One newer entry on the first box puts a pair at the 20th and 21st places.
    await writeLogs(first.deviceId, 15, start, "first");
    await writeLogs(second.deviceId, 15, start, "second");
    await logThroughHub(first.deviceId, "other", { kind: "legacy", text: "newest" }, start + 60_000);
    const pages = await allPages(`?mobileNo=${farmer.mobileNo}`, token);
    const keys = pages.flatMap((answer) => answer.logs.map((log) => `${log.deviceId}:${log.id}`));
    expect(new Set(keys).size).toBe(31);
    expect(keys).toHaveLength(31);
    expect(pages.map((answer) => answer.logs.length)).toEqual([21, 10]);
  });

  it("answers a farmer without a box with an empty page", async () => {
    const farmer = await createUser();
    expect(await page(`?mobileNo=${farmer.mobileNo}`, await adminToken())).toEqual({
      success: true,
      logs: [],
      pageSize: 20,
      nextBefore: null,
    });
  });

  it("answers 400 for neither filter, both, or a malformed one", async () => {
    const token = await adminToken();
    const { user, device } = await farmerWithDevice();
    for (const bad of [
      "",
      "?page=1",
      "?before=5",
      `?mobileNo=${user.mobileNo}&deviceId=${device.deviceId}`,
      "?mobileNo=12345",
      "?mobileNo=abcdefghij",
      "?deviceId=SNC-1",
      "?deviceId=box",
      `?deviceId=${device.deviceId}&before=0`,
      `?deviceId=${device.deviceId}&before=abc`,
      `?deviceId=${device.deviceId}&before=1.5`,
      "?mobileNo=&deviceId=",
    ]) {
      const response = await getJson(`/api/admin/motor-logs${bad}`, token);
      expect(response.status, bad).toBe(400);
      expect(await readJson(response, apiErrorSchema), bad).toMatchObject({ success: false, code: "invalidInput" });
    }
  });

  it("answers 404 for a number no account has and a box id no box has", async () => {
    const token = await adminToken();
    const noFarmer = await getJson(`/api/admin/motor-logs?mobileNo=${uniqueMobileNo()}`, token);
    expect(noFarmer.status).toBe(404);
    expect(await readJson(noFarmer, apiErrorSchema)).toMatchObject({ success: false, code: "userNotFound" });
    const noBox = await getJson("/api/admin/motor-logs?deviceId=SNC-ZZZZZZZZ", token);
    expect(noBox.status).toBe(404);
    expect(await readJson(noBox, apiErrorSchema)).toMatchObject({ success: false, code: "deviceNotFound" });
  });

  it("refuses a farmer, even about their own box, and a caller without a session", async () => {
    const { user, device, token } = await farmerWithDevice();
    for (const query of [`?mobileNo=${user.mobileNo}`, `?deviceId=${device.deviceId}`]) {
      const asFarmer = await getJson(`/api/admin/motor-logs${query}`, token);
      expect(asFarmer.status, query).toBe(403);
      expect((await readJson(asFarmer, apiErrorSchema)).success).toBe(false);
      expect((await getJson(`/api/admin/motor-logs${query}`)).status, query).toBe(401);
    }
  });
});
