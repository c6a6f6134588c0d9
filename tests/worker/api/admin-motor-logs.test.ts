// GET /api/admin/motor-logs?page=N: every device's logs, newest first, 20 a page, paged on the
// server. Its own file, so it knows every log there is.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { adminMotorLogsResponseSchema } from "../../../common/api-responses/admin.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { ADMIN_LOGS_PAGE_SIZE } from "../../../common/constants.ts";
import { getDb } from "../../../worker/db/client.ts";
import { motorLogs } from "../../../worker/db/schema.ts";
import { adminToken } from "../helpers/accounts.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { getJson, getOk } from "../helpers/http.ts";

freshStorageForThisFile();

async function page(query: string, token: string) {
  return getOk(`/api/admin/motor-logs${query}`, token, adminMotorLogsResponseSchema);
}

describe("GET /api/admin/motor-logs", () => {
  it("answers an empty first page when there are no logs", async () => {
    expect(await page("", await adminToken())).toEqual({
      success: true,
      logs: [],
      page: 1,
      pageSize: 20,
      total: 0,
      totalPages: 1,
    });
  });

  it("pages 45 logs of two devices 20 at a time, newest first, never more", async () => {
    expect(ADMIN_LOGS_PAGE_SIZE).toBe(20);
    const token = await adminToken();
    const start = Date.now() - 45_000;
    const rows = Array.from({ length: 45 }, (_, index) => ({
      deviceId: index % 2 ? "SNC-AAAAAAAA" : "SNC-BBBBBBBB",
      mobileNo: index % 2 ? "9800000001" : "9800000002",
      action: (["on", "off", "other"] as const)[index % 3]!,
      message: `log ${index}`,
      createdAt: start + index * 1000,
      hubRef: `test:${index}`,
    }));
    // D1 binds at most 100 values per statement: insert in rows of ten.
    const db = getDb(env.DB);
    for (let index = 0; index < rows.length; index += 10)
      await db.insert(motorLogs).values(rows.slice(index, index + 10));
    const first = await page("?page=1", token);
    expect(first).toMatchObject({ page: 1, pageSize: 20, total: 45, totalPages: 3 });
    expect(first.logs).toHaveLength(20);
    expect(first.logs[0]).toMatchObject({
      mobileNo: "9800000002",
      action: "other",
      message: "log 44",
      createdAt: new Date(start + 44_000).toISOString(),
    });
    const second = await page("?page=2", token);
    const third = await page("?page=3", token);
    expect(third.logs).toHaveLength(5);
    expect(third.logs.at(-1)?.message).toBe("log 0");
    const ids = [...first.logs, ...second.logs, ...third.logs].map((log) => log.id);
    expect(new Set(ids).size).toBe(45);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // A page past the end shows the last page.
    expect((await page("?page=99", token)).page).toBe(3);
  });

  it("answers 400 for a page that is not a whole number from 1", async () => {
    const token = await adminToken();
    for (const bad of ["0", "-1", "abc", "1.5"]) {
      const response = await getJson(`/api/admin/motor-logs?page=${bad}`, token);
      expect(response.status, bad).toBe(400);
      expect((await readJson(response, apiErrorSchema)).success).toBe(false);
    }
  });
});
