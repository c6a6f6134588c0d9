// GET /api/pumps/{deviceId}/usage (docs/decisions/019): whoever may see the pump reads its run
// hours, as JSON or as a CSV download; bad input is a 400 in the API's shape. The full table of
// who may call it is the authorisation matrix's; the counting itself is the hub suite's.
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";
import { pumpUsageResponseSchema } from "../../../common/api-responses/usage.ts";
import { istDay } from "../../../common/pump-usage.ts";
import { adminToken, loginToken } from "../helpers/accounts.ts";
import { farmerWithBox, farmerWithDevice } from "../helpers/boxes.ts";
import { getJson, getOk, postJson } from "../helpers/http.ts";
import { sharePump } from "../helpers/sharing.ts";

describe("a pump's run hours and energy", () => {
  it("answers the owner, a viewer and an admin with the days asked for; a stranger gets 404", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    const { viewer } = await sharePump(device.deviceId, token);
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, token)).status).toBe(200);
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "off" }, token)).status).toBe(200);
    const path = `/api/pumps/${device.deviceId}/usage`;

    const week = (await getOk(path, token, pumpUsageResponseSchema)).usage;
    expect(week.days).toHaveLength(7);
    expect(week.days.at(-1)).toMatchObject({ date: istDay(Date.now()), starts: 1 });
    expect(week.totals.starts).toBe(1);

    const month = await getOk(`${path}?days=30`, await loginToken(viewer), pumpUsageResponseSchema);
    expect(month.usage.days).toHaveLength(30);
    expect(month.usage.totals.starts).toBe(1);
    const admin = await getOk(`${path}?days=90`, await adminToken(), pumpUsageResponseSchema);
    expect(admin.usage.days).toHaveLength(90);

    const stranger = await farmerWithDevice();
    const refused = await getJson(path, stranger.token);
    expect(refused.status).toBe(404);
    expect((await readJson(refused, apiErrorSchema)).code).toBe("pumpNotFound");
    box.close();
  });

  it("refuses a bad number of days with a 400 in the API's shape", async () => {
    const { device, token } = await farmerWithDevice();
    for (const days of ["0", "91", "7.5", "week", ""]) {
      const response = await getJson(`/api/pumps/${device.deviceId}/usage?days=${days}`, token);
      expect(response.status, days).toBe(400);
      expect(await readJson(response, apiErrorSchema)).toMatchObject({ success: false, code: "invalidInput" });
    }
    const badFormat = await getJson(`/api/pumps/${device.deviceId}/usage?format=xml`, token);
    expect(badFormat.status).toBe(400);
  });

  it("downloads a CSV: a header row, one row a day oldest first, named after the box and its dates", async () => {
    const { device, token, box } = await farmerWithBox({ autoAck: true });
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "on" }, token)).status).toBe(200);
    expect((await postJson(`/api/pumps/${device.deviceId}/motor`, { action: "off" }, token)).status).toBe(200);
    const response = await getJson(`/api/pumps/${device.deviceId}/usage?days=7&format=csv`, token);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const { usage } = await getOk(`/api/pumps/${device.deviceId}/usage`, token, pumpUsageResponseSchema);
    const first = usage.days[0]!.date;
    const today = istDay(Date.now());
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="sinchai-usage-${device.deviceId}-${first}-to-${today}.csv"`,
    );
    const lines = (await response.text()).split("\r\n");
    expect(lines[0]).toBe("date,running_minutes,starts,kwh_estimate");
    expect(lines).toHaveLength(7 + 2); // the header, seven days, and the line end after the last
    expect(lines.at(-1)).toBe("");
    expect(lines[1]).toBe(`${first},0,0,0`);
    const [date, minutes, starts, kwh] = lines[7]!.split(",");
    expect(date).toBe(today);
    expect(starts).toBe("1");
    expect(Number(minutes)).toBeGreaterThanOrEqual(0);
    expect(Number(kwh)).toBeGreaterThanOrEqual(0);
    box.close();
  });
});
