// /motor-schedule: the farmer's schedules, carried out by the device's DeviceHub at their time
// in India time whether or not this page is open. The spec's form (h:mm a time that cannot be
// cleared, ON/OFF, daily/once, defaults 10:00 AM / ON / daily) plus "ON for N minutes", and
// the list to see, edit and delete them.
import { useState } from "react";
import { useRevalidator } from "react-router";
import { z } from "../../common/zod-mini.ts";
import {
  SCHEDULE_DURATION_CHOICES,
  scheduleViewSchema,
  type ScheduleRepeat,
  type ScheduleView,
} from "../../common/schedule-view.ts";
import { clockParts, formatClock, minuteOfDayFromParts } from "../../common/schedule-time.ts";
import { getDb } from "../../worker/db/client.ts";
import { findDeviceByOwner } from "../../worker/db/devices.ts";
import { deviceHub } from "../../worker/device-hubs.ts";
import { callApi } from "../api-client.ts";
import { ConfirmDialog } from "../components/dialog.tsx";
import { ClockIcon } from "../components/icons.tsx";
import { formatDateTime } from "../format.ts";
import { useLanguage, useT, type MessageKey } from "../i18n/i18n.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/motor-schedule";

export const meta: Route.MetaFunction = () => [{ title: "Motor Schedule · Sinchai" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const env = envOf(context);
  const device = await findDeviceByOwner(getDb(env.DB), user.id);
  return {
    hasDevice: device !== undefined,
    schedules: device ? await deviceHub(env, device.id).listSchedules(user.id) : [],
  };
}

const HOURS = Array.from({ length: 12 }, (_, index) => index + 1);
const MINUTES = Array.from({ length: 60 }, (_, index) => index);
/** SPEC §9 schedule defaults. */
const DEFAULT_FORM: Form = { hour: "10", minute: "0", meridiem: "AM", action: "ON", repeat: "daily", duration: "" };

type Form = {
  /** "" once the time has been cleared after a save (SPEC §8): the farmer must set it again. */
  hour: string;
  minute: string;
  meridiem: "AM" | "PM";
  action: "ON" | "OFF";
  repeat: ScheduleRepeat;
  /** Minutes as text; "" means it stays ON. */
  duration: string;
};

const savedSchema = z.object({ success: z.literal(true), schedule: scheduleViewSchema });
const deletedSchema = z.object({ success: z.literal(true) });

type Notice = { key: MessageKey; values?: Record<string, string>; tone: "success" | "error" };

/** What the form says when the server refused (SPEC §8: generic failure, or network/server error). */
function failureNotice(status: number, message: string | null): Notice {
  if (status === 0 || status >= 500) return { key: "schedule.networkError", tone: "error" };
  if (status === 404 && message?.startsWith("No device")) return { key: "motor.noDevice", tone: "error" };
  if (status === 409 && message?.startsWith("Another schedule")) {
    return { key: "schedule.conflict", values: { time: /for (.+)\.$/.exec(message)?.[1] ?? "" }, tone: "error" };
  }
  if (status === 409) return { key: "schedule.limit", tone: "error" };
  return { key: "schedule.failed", tone: "error" };
}

const OUTCOME_KEYS: Record<string, MessageKey> = {
  offline: "schedule.reason.offline",
  late: "schedule.reason.late",
  phaseFault: "schedule.reason.phaseFault",
  noSupply: "schedule.reason.noSupply",
  timeout: "schedule.reason.timeout",
};

export default function MotorSchedule({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const revalidator = useRevalidator();
  const { hasDevice, schedules } = loaderData;
  const [form, setForm] = useState<Form>(DEFAULT_FORM);
  const [editing, setEditing] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [deleting, setDeleting] = useState<ScheduleView | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const change = (changes: Partial<Form>) => setForm((current) => ({ ...current, ...changes }));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (form.hour === "" || form.minute === "") {
      setNotice({ key: "schedule.setTime", tone: "error" });
      return;
    }
    setSaving(true);
    setNotice(null);
    const body = {
      time: formatClock(minuteOfDayFromParts(Number(form.hour), Number(form.minute), form.meridiem)),
      action: form.action,
      repeat: form.repeat,
      durationMinutes: form.action === "ON" && form.duration !== "" ? Number(form.duration) : null,
    };
    const result = await callApi(editing === null ? "/api/schedule" : `/api/schedule/${editing}`, savedSchema, {
      method: editing === null ? "POST" : "PUT",
      body,
    });
    setSaving(false);
    if (result.ok) {
      setNotice({ key: editing === null ? "schedule.saved" : "schedule.updated", tone: "success" });
      // SPEC §8: after a save the time is cleared; the rest keeps the farmer's choices.
      change({ hour: "", minute: "" });
      setEditing(null);
      void revalidator.revalidate();
    } else if (result.status !== 401) {
      setNotice(failureNotice(result.status, result.message));
    }
  }

  function edit(schedule: ScheduleView) {
    const parts = clockParts(schedule.minuteOfDay);
    setForm({
      hour: String(parts.hour),
      minute: String(parts.minute),
      meridiem: parts.meridiem,
      action: schedule.action,
      repeat: schedule.repeat,
      duration: schedule.durationMinutes === null ? "" : String(schedule.durationMinutes),
    });
    setEditing(schedule.id);
    setNotice(null);
    document.getElementById("schedule-form")?.scrollIntoView({ behavior: "smooth" });
  }

  async function confirmDelete() {
    if (!deleting) return;
    setDeleteBusy(true);
    const result = await callApi(`/api/schedule/${deleting.id}`, deletedSchema, { method: "DELETE" });
    setDeleteBusy(false);
    setDeleting(null);
    if (result.ok) {
      setNotice({ key: "schedule.deleted", tone: "success" });
      if (editing === deleting.id) {
        setEditing(null);
        setForm(DEFAULT_FORM);
      }
      void revalidator.revalidate();
    } else if (result.status !== 401) {
      setNotice(failureNotice(result.status, result.message));
    }
  }

  const durations: readonly number[] =
    form.duration === "" || SCHEDULE_DURATION_CHOICES.includes(Number(form.duration) as (typeof SCHEDULE_DURATION_CHOICES)[number])
      ? SCHEDULE_DURATION_CHOICES
      : [...SCHEDULE_DURATION_CHOICES, Number(form.duration)].sort((a, b) => a - b);

  return (
    <main className="page narrow-wide">
      <h1>{t("motor.title")}</h1>
      <section className="card" aria-labelledby="schedule-form-title" id="schedule-form">
        <h2 id="schedule-form-title">{editing === null ? t("schedule.title") : t("schedule.editTitle")}</h2>
        <p className="muted">{t("schedule.hint")}</p>
        {!hasDevice && <p className="message info">{t("motor.noDevice")}</p>}
        <form className="stack" onSubmit={save} noValidate>
          <fieldset className="time-fieldset">
            <legend>{t("schedule.time")}</legend>
            <div className="time-selects">
              <select aria-label={t("schedule.hour")} value={form.hour} onChange={(event) => change({ hour: event.target.value })} data-testid="schedule-hour">
                <option value="" disabled>
                  --
                </option>
                {HOURS.map((hour) => (
                  <option key={hour} value={String(hour)}>
                    {hour}
                  </option>
                ))}
              </select>
              <span aria-hidden="true">:</span>
              <select aria-label={t("schedule.minute")} value={form.minute} onChange={(event) => change({ minute: event.target.value })} data-testid="schedule-minute">
                <option value="" disabled>
                  --
                </option>
                {MINUTES.map((minute) => (
                  <option key={minute} value={String(minute)}>
                    {String(minute).padStart(2, "0")}
                  </option>
                ))}
              </select>
              <select
                aria-label={t("schedule.meridiem")}
                value={form.meridiem}
                onChange={(event) => change({ meridiem: event.target.value === "PM" ? "PM" : "AM" })}
                data-testid="schedule-meridiem"
              >
                <option value="AM">AM</option>
                <option value="PM">PM</option>
              </select>
            </div>
          </fieldset>
          <label className="field">
            <span>{t("schedule.action")}</span>
            <select value={form.action} onChange={(event) => change({ action: event.target.value === "OFF" ? "OFF" : "ON" })}>
              <option value="ON">{t("schedule.action.on")}</option>
              <option value="OFF">{t("schedule.action.off")}</option>
            </select>
          </label>
          {form.action === "ON" && (
            <label className="field">
              <span>{t("schedule.duration")}</span>
              <select value={form.duration} onChange={(event) => change({ duration: event.target.value })}>
                <option value="">{t("schedule.duration.none")}</option>
                {durations.map((minutes) => (
                  <option key={minutes} value={String(minutes)}>
                    {t("schedule.duration.minutes", { minutes })}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="field">
            <span>{t("schedule.repeat")}</span>
            <select value={form.repeat} onChange={(event) => change({ repeat: event.target.value === "once" ? "once" : "daily" })}>
              <option value="daily">{t("schedule.repeat.daily")}</option>
              <option value="once">{t("schedule.repeat.once")}</option>
            </select>
          </label>
          {notice && (
            <p className={`message ${notice.tone}`} role={notice.tone === "error" ? "alert" : "status"} data-testid="schedule-notice">
              {t(notice.key, notice.values)}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={saving || !hasDevice}>
              {saving ? t("schedule.saving") : editing === null ? t("schedule.save") : t("schedule.update")}
            </button>
            {editing !== null && (
              <button
                type="button"
                className="button"
                onClick={() => {
                  setEditing(null);
                  setForm(DEFAULT_FORM);
                }}
              >
                {t("dialog.cancel")}
              </button>
            )}
          </div>
        </form>
      </section>

      <section aria-labelledby="schedule-list-title">
        <h2 id="schedule-list-title">{t("schedule.listTitle")}</h2>
        {schedules.length === 0 ? (
          <p className="card muted" data-testid="schedules-empty">
            {t("schedule.none")}
          </p>
        ) : (
          <ul className="schedule-list" data-testid="schedule-list">
            {schedules.map((schedule) => (
              <li key={schedule.id} className="card schedule-item" data-testid="schedule-item">
                <div className="schedule-head">
                  <ClockIcon />
                  <strong className="schedule-time">{schedule.time}</strong>
                  <span className={`badge ${schedule.action === "ON" ? "ok" : "bad"}`}>
                    {schedule.action === "ON" ? t("motor.on") : t("motor.off")}
                  </span>
                  <span className="muted">{schedule.repeat === "daily" ? t("schedule.repeat.daily") : t("schedule.repeat.once")}</span>
                </div>
                {schedule.durationMinutes !== null && (
                  <p className="schedule-line">{t("schedule.forMinutes", { minutes: schedule.durationMinutes })}</p>
                )}
                <p className="schedule-line muted">
                  {schedule.nextRunAt
                    ? t("schedule.next", { time: formatDateTime(schedule.nextRunAt, language) })
                    : t("schedule.finished")}
                </p>
                {schedule.lastRun && (
                  <p
                    className={`schedule-line last-run ${schedule.lastRun.outcome}`}
                    data-testid="schedule-last-run"
                    data-outcome={schedule.lastRun.outcome}
                  >
                    {t(`schedule.outcome.${schedule.lastRun.outcome}`, { time: formatDateTime(schedule.lastRun.at, language) })}
                    {schedule.lastRun.outcome !== "done" && (
                      <>
                        {" "}
                        {OUTCOME_KEYS[schedule.lastRun.code ?? ""]
                          ? t(OUTCOME_KEYS[schedule.lastRun.code ?? ""]!)
                          : language === "en"
                            ? (schedule.lastRun.message ?? "")
                            : t("schedule.reason.other")}
                      </>
                    )}
                  </p>
                )}
                <div className="form-actions">
                  <button type="button" className="button small" onClick={() => edit(schedule)}>
                    {t("schedule.edit")}
                  </button>
                  <button type="button" className="button small danger" onClick={() => setDeleting(schedule)}>
                    {t("schedule.delete")}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={t("schedule.delete")}
        message={deleting ? t("schedule.deleteConfirm", { time: deleting.time }) : ""}
        confirmLabel={t("dialog.confirm")}
        cancelLabel={t("dialog.cancel")}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
        busy={deleteBusy}
      />
    </main>
  );
}
