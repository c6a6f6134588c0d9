// The schedule API: the spec's POST /api/schedule {time, action, repeat}, plus list, update
// and delete, each for the signed-in farmer's own device only.
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { scheduleListResponseSchema, scheduleResponseSchema } from "../../../common/api-responses/schedules.ts";
import { MAX_SCHEDULES_PER_DEVICE, type ScheduleView } from "../../../common/schedule-schemas.ts";
import {
  DAY_MS,
  daysMaskOf,
  formatClock,
  istMinuteKey,
  istWeekday,
  nextOccurrence,
  nextOccurrenceOn,
  parseClock,
  weekdaysOf,
  windowLengthMinutes,
} from "../../../common/schedule-time.ts";
import { adminToken, createUser, loginToken } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { api, deleteJson, expectRefusedSaying, getOk, postJson, putJson, refusal } from "../helpers/http.ts";

const create = (token: string, body: unknown) => postJson("/api/schedule", body, token);
const remove = (token: string, id: number) => deleteJson(`/api/schedule/${id}`, undefined, token);

async function list(token: string): Promise<ScheduleView[]> {
  return (await getOk("/api/schedule", token, scheduleListResponseSchema)).schedules;
}

async function created(token: string, body: unknown): Promise<ScheduleView> {
  const response = await create(token, body);
  expect(response.status).toBe(201);
  return (await readJson(response, scheduleResponseSchema)).schedule;
}

describe("IST clock helpers", () => {
  it("reads h:mm a and 24-hour times, and nothing else", () => {
    expect(parseClock("10:00 AM")).toBe(600);
    expect(parseClock("12:00 AM")).toBe(0);
    expect(parseClock("12:30 pm")).toBe(750);
    expect(parseClock("1:05PM")).toBe(785);
    expect(parseClock("22:30")).toBe(1350);
    expect(parseClock("0:00")).toBe(0);
    for (const bad of ["", "10", "13:00 PM", "0:30 AM", "24:00", "10:60", "10:00 XM", "ten o'clock"]) {
      expect(parseClock(bad), bad).toBeNull();
    }
    expect(formatClock(600)).toBe("10:00 AM");
    expect(formatClock(0)).toBe("12:00 AM");
    expect(formatClock(785)).toBe("1:05 PM");
  });

  it("finds the next 10:00 in India (UTC+05:30, no daylight saving), strictly after the given instant", () => {
    // 2026-03-29 04:30 UTC = 10:00 IST, the day Europe moves its clocks: IST does not.
    const tenIst = Date.UTC(2026, 2, 29, 4, 30);
    expect(nextOccurrence(600, tenIst - 1)).toBe(tenIst);
    expect(nextOccurrence(600, tenIst)).toBe(tenIst + DAY_MS);
    expect(nextOccurrence(600, tenIst + 60_000)).toBe(tenIst + DAY_MS);
    // Just after midnight IST (18:31 UTC the day before) the next 10:00 is the same IST day.
    expect(nextOccurrence(600, Date.UTC(2026, 2, 28, 18, 31))).toBe(tenIst);
    expect(istMinuteKey(tenIst)).toBe("2026-03-29T10:00");
  });

  it("finds the next time on a chosen IST weekday, crossing the week", () => {
    // Sunday 22 November 2026, 07:00 IST.
    const sundayMorning = Date.UTC(2026, 10, 22, 1, 30);
    const sixAm = (day: number) => Date.UTC(2026, 10, day, 0, 30);
    expect(istWeekday(sundayMorning)).toBe(0);
    expect(nextOccurrenceOn(360, sundayMorning, daysMaskOf(["mon", "thu"]))).toBe(sixAm(23));
    expect(nextOccurrenceOn(360, sixAm(23), daysMaskOf(["mon", "thu"]))).toBe(sixAm(26));
    expect(nextOccurrenceOn(360, sixAm(26), daysMaskOf(["mon", "thu"]))).toBe(sixAm(30));
    expect(nextOccurrenceOn(360, sundayMorning, daysMaskOf(["sun"]))).toBe(sixAm(29));
    expect(nextOccurrenceOn(360, sundayMorning, null)).toBe(sixAm(23));
    expect(weekdaysOf(daysMaskOf(["thu", "mon"]))).toEqual(["mon", "thu"]);
    expect(windowLengthMinutes(22 * 60, 6 * 60)).toBe(480);
    expect(windowLengthMinutes(6 * 60, 22 * 60)).toBe(960);
  });
});

describe("POST /api/schedule", () => {
  it("saves the spec's {time, action, repeat} for the next time that clock time comes round", async () => {
    const { token } = await farmerWithDevice();
    const before = Date.now();
    const response = await create(token, { time: "10:00 AM", action: "ON", repeat: "daily" });
    expect(response.status).toBe(201);
    const body = await readJson(response, scheduleResponseSchema);
    expect(body).toMatchObject({ success: true, message: "Schedule saved." });
    expect(body.schedule).toMatchObject({
      time: "10:00 AM",
      minuteOfDay: 600,
      action: "ON",
      repeat: "daily",
      durationMinutes: null,
      lastRun: null,
    });
    const next = Date.parse(body.schedule.nextRunAt!);
    expect(istMinuteKey(next)).toMatch(/T10:00$/);
    expect(next).toBeGreaterThan(before);
    expect(next).toBeLessThanOrEqual(before + DAY_MS);
  });

  it("takes 24-hour times, lower-case actions and ON for N minutes", async () => {
    const { token } = await farmerWithDevice();
    const schedule = await created(token, { time: "22:30", action: "on", repeat: "once", durationMinutes: 45 });
    expect(schedule).toMatchObject({ time: "10:30 PM", action: "ON", repeat: "once", durationMinutes: 45 });
  });

  it("sets a one-time schedule whose time has passed today for tomorrow", async () => {
    const { token } = await farmerWithDevice();
    const now = Date.now();
    // The IST minute that has just begun: already past.
    const minute = Math.floor(((now + 5.5 * 3_600_000) % DAY_MS) / 60_000);
    const schedule = await created(token, { time: formatClock(minute), action: "OFF", repeat: "once" });
    const next = Date.parse(schedule.nextRunAt!);
    expect(next).toBeGreaterThan(now + DAY_MS - 2 * 60_000);
  });

  it.each([
    [{ time: "25:00", action: "ON", repeat: "daily" }, 'time must be a time such as "10:00 AM" (h:mm a) or "22:30".'],
    [{ time: "", action: "ON", repeat: "daily" }, 'time must be a time such as "10:00 AM" (h:mm a) or "22:30".'],
    [{ action: "ON", repeat: "daily" }, 'time must be a time such as "10:00 AM" (h:mm a) or "22:30".'],
    [{ time: 600, action: "ON", repeat: "daily" }, 'time must be a time such as "10:00 AM" (h:mm a) or "22:30".'],
    [{ time: "10:00 AM", action: "START", repeat: "daily" }, 'action must be "ON" or "OFF".'],
    [{ time: "10:00 AM", action: "ON", repeat: "weekly" }, "days must name the days of a weekly schedule."],
    [{ time: "10:00 AM", action: "ON", repeat: "daily", days: ["mon"] }, "days are only for weekly schedules."],
    [{ time: "10:00 AM", action: "ON", repeat: "weekly", days: [] }, "days must name at least one day."],
    [
      { time: "10:00 AM", action: "ON", repeat: "weekly", days: ["mon", "mon"] },
      "days must name each day at most once.",
    ],
    [
      { time: "10:00 AM", action: "ON", repeat: "weekly", days: ["monday"] },
      "days must name days among sun, mon, tue, wed, thu, fri, sat.",
    ],
    [{ time: "10:00 AM", action: "ON" }, 'repeat must be "daily", "weekly" or "once".'],
    [{ type: "sometimes", time: "10:00 AM", action: "ON", repeat: "daily" }, 'type must be "clock" or "window".'],
    [
      { type: "window", from: "10:00 PM", to: "6:00 AM", runMinutes: 120, repeat: "daily" },
      "autoStart must be true: a power-window run starts the motor by itself.",
    ],
    [
      { type: "window", from: "10:00 PM", to: "6:00 AM", runMinutes: 120, repeat: "daily", autoStart: "yes" },
      "autoStart must be true: a power-window run starts the motor by itself.",
    ],
    [
      { type: "window", from: "5:00 AM", to: "6:00 AM", runMinutes: 120, repeat: "daily", autoStart: true },
      "runMinutes must fit in the window (60 minutes).",
    ],
    [
      { type: "window", from: "22:00", to: "10:00 PM", runMinutes: 60, repeat: "daily", autoStart: true },
      "to must differ from the window's start.",
    ],
    [
      { type: "window", from: "22:00", to: "6:00 AM", repeat: "daily", autoStart: true },
      "runMinutes must be a whole number of minutes from 1 to 720.",
    ],
    [
      { time: "10:00 AM", action: "OFF", repeat: "daily", durationMinutes: 30 },
      "durationMinutes is only for ON schedules.",
    ],
    [
      { time: "10:00 AM", action: "ON", repeat: "daily", durationMinutes: 0 },
      "durationMinutes must be a whole number of minutes from 1 to 720.",
    ],
    [
      { time: "10:00 AM", action: "ON", repeat: "daily", durationMinutes: 2.5 },
      "durationMinutes must be a whole number of minutes from 1 to 720.",
    ],
    [
      { time: "10:00 AM", action: "ON", repeat: "daily", durationMinutes: 721 },
      "durationMinutes must be a whole number of minutes from 1 to 720.",
    ],
  ])("refuses %j with 400", async (body, message) => {
    const { token } = await farmerWithDevice();
    const response = await create(token, body);
    await expectRefusedSaying(response, 400, message);
  });

  it("refuses malformed JSON with 400, not 500", async () => {
    const { token } = await farmerWithDevice();
    const response = await create(token, "{not json");
    await expectRefusedSaying(response, 400, "Request body must be valid JSON.");
  });

  it("allows several schedules but not two at the same minute, and not more than the limit", async () => {
    const { token } = await farmerWithDevice();
    await created(token, { time: "6:00 AM", action: "ON", repeat: "daily", durationMinutes: 30 });
    await created(token, { time: "6:00 PM", action: "ON", repeat: "daily" });
    const clash = await create(token, { time: "18:00", action: "OFF", repeat: "once" });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toEqual(
      refusal("Another schedule is already set for 6:00 PM.", "conflict", { minuteOfDay: 18 * 60, time: "6:00 PM" }),
    );
    const inHindi = await api("/api/schedule", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Accept-Language": "hi" },
      body: JSON.stringify({ time: "18:00", action: "OFF", repeat: "once" }),
    });
    expect(await inHindi.json()).toMatchObject({ message: "6:00 PM पर पहले से एक शेड्यूल है।", code: "conflict" });
    for (let index = 2; index < MAX_SCHEDULES_PER_DEVICE; index++) {
      await created(token, { time: formatClock(index), action: "OFF", repeat: "daily" });
    }
    const tooMany = await create(token, { time: "11:00 PM", action: "OFF", repeat: "daily" });
    expect(tooMany.status).toBe(409);
    expect(await tooMany.json()).toEqual(
      refusal(`A device can have at most ${MAX_SCHEDULES_PER_DEVICE} schedules.`, "limit", {
        max: MAX_SCHEDULES_PER_DEVICE,
      }),
    );
    expect(await list(token)).toHaveLength(MAX_SCHEDULES_PER_DEVICE);
  });

  it("runs a weekly schedule on its days only; one minute clashes only on a shared day", async () => {
    const { token } = await farmerWithDevice();
    const weekly = await created(token, { time: "6:00 AM", action: "ON", repeat: "weekly", days: ["thu", "mon"] });
    expect(weekly).toMatchObject({ kind: "clock", repeat: "weekly", days: ["mon", "thu"], window: null });
    expect(["mon", "thu"]).toContain(weekdaysOf(1 << istWeekday(Date.parse(weekly.nextRunAt!)))[0]);
    await created(token, { time: "6:00 AM", action: "OFF", repeat: "weekly", days: ["tue"] });
    const clash = await create(token, { time: "6:00 AM", action: "OFF", repeat: "daily" });
    expect(clash.status).toBe(409);
  });

  it("saves a power window, refuses one that shares a minute with another, and lets a clock schedule sit inside it", async () => {
    const { token } = await farmerWithDevice();
    const window = await created(token, {
      type: "window",
      from: "10:00 PM",
      to: "6:00 AM",
      runMinutes: 120,
      repeat: "weekly",
      days: ["sat"],
      resume: true,
      autoStart: true,
    });
    expect(window).toMatchObject({
      kind: "window",
      time: "10:00 PM",
      action: "ON",
      repeat: "weekly",
      days: ["sat"],
      durationMinutes: 120,
      window: { endTime: "6:00 AM", endMinuteOfDay: 360, randomDelay: true, resume: true },
      activeRun: null,
    });
    expect(istWeekday(Date.parse(window.nextRunAt!))).toBe(6);
    // Saturday night's window runs into Sunday morning: a Sunday 5 AM window shares its minutes.
    const overlapping = await create(token, {
      type: "window",
      from: "5:00 AM",
      to: "7:00 AM",
      runMinutes: 60,
      repeat: "weekly",
      days: ["sun"],
      autoStart: true,
    });
    expect(overlapping.status).toBe(409);
    expect(await overlapping.json()).toMatchObject({ code: "conflict", params: { minuteOfDay: 22 * 60 } });
    await created(token, {
      type: "window",
      from: "6:00 AM",
      to: "7:00 AM",
      runMinutes: 60,
      repeat: "weekly",
      days: ["sun"],
      autoStart: true,
    });
    await created(token, { time: "10:00 PM", action: "OFF", repeat: "daily" });
  });

  it("needs a signed-in farmer with a device", async () => {
    const missing = await postJson("/api/schedule", { time: "10:00 AM", action: "ON", repeat: "daily" });
    expect(missing.status).toBe(401);
    const withoutDevice = await loginToken(await createUser());
    const noDevice = await create(withoutDevice, { time: "10:00 AM", action: "ON", repeat: "daily" });
    expect(noDevice.status).toBe(404);
    expect(await noDevice.json()).toMatchObject(refusal("No device is linked to this account yet.", "noDevice"));
    const admin = await create(await adminToken(), { time: "10:00 AM", action: "ON", repeat: "daily" });
    expect(admin.status).toBe(403);
  });
});

describe("GET, PUT and DELETE /api/schedule", () => {
  it("lists the farmer's schedules by time of day, updates and deletes them", async () => {
    const { token } = await farmerWithDevice();
    const evening = await created(token, { time: "6:30 PM", action: "OFF", repeat: "daily" });
    const morning = await created(token, { time: "5:45 AM", action: "ON", repeat: "once", durationMinutes: 60 });
    expect((await list(token)).map((schedule) => schedule.time)).toEqual(["5:45 AM", "6:30 PM"]);

    const response = await putJson(
      `/api/schedule/${evening.id}`,
      { time: "7:15 PM", action: "ON", repeat: "once", durationMinutes: 20 },
      token,
    );
    expect(response.status).toBe(200);
    const updated = (await readJson(response, scheduleResponseSchema)).schedule;
    expect(updated).toMatchObject({
      id: evening.id,
      time: "7:15 PM",
      action: "ON",
      repeat: "once",
      durationMinutes: 20,
    });
    expect(istMinuteKey(Date.parse(updated.nextRunAt!))).toMatch(/T19:15$/);
    // Moving a schedule onto its own minute is no clash; onto another's is.
    expect(
      (await putJson(`/api/schedule/${evening.id}`, { time: "7:15 PM", action: "OFF", repeat: "daily" }, token)).status,
    ).toBe(200);
    expect(
      (await putJson(`/api/schedule/${evening.id}`, { time: "5:45 AM", action: "OFF", repeat: "daily" }, token)).status,
    ).toBe(409);

    expect((await remove(token, morning.id)).status).toBe(200);
    expect((await list(token)).map((schedule) => schedule.id)).toEqual([evening.id]);
    expect((await remove(token, morning.id)).status).toBe(404);
  });

  it("answers bad ids with 400 and unknown ones with 404", async () => {
    const { token } = await farmerWithDevice();
    expect((await remove(token, 0)).status).toBe(400);
    const bad = await deleteJson("/api/schedule/abc", undefined, token);
    await expectRefusedSaying(bad, 400, "Not a schedule id.");
    const unknown = await putJson("/api/schedule/999", { time: "7:15 PM", action: "OFF", repeat: "daily" }, token);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject(refusal("Schedule not found.", "notFound"));
  });

  it("never shows or changes another farmer's schedules", async () => {
    const owner = await farmerWithDevice();
    const other = await farmerWithDevice();
    const mine = await created(owner.token, { time: "9:00 AM", action: "ON", repeat: "daily" });
    expect(await list(other.token)).toEqual([]);
    expect(
      (await putJson(`/api/schedule/${mine.id}`, { time: "9:30 AM", action: "OFF", repeat: "daily" }, other.token))
        .status,
    ).toBe(404);
    expect((await remove(other.token, mine.id)).status).toBe(404);
    expect((await list(owner.token)).map((schedule) => schedule.time)).toEqual(["9:00 AM"]);
  });
});
