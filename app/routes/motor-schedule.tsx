// /motor-schedule: the farmer's schedules, carried out by the device's DeviceHub at their time
// in India time whether or not this page is open. The spec's form (h:mm a time that cannot be
// cleared, ON/OFF, daily/once, defaults 10:00 AM / ON / daily) plus "ON for N minutes", and
// the list to see, edit and delete them. Every one of these is a plain form posted to this
// route's action (works without script); edit and delete are links that open the form or a
// confirmation, so they work without script too. With script, the same posts run in place
// and delete asks in a dialog.
import { useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation, useSubmit } from "react-router";
import { roleMay } from "../../common/pump-roles.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import { clockParts, formatClock } from "../../common/schedule-time.ts";
import { SCHEDULE_DURATION_CHOICES, type ScheduleRepeat, type ScheduleView } from "../../common/schedule-view.ts";
import type { AuthenticatedUser } from "../../worker/auth/sessions.ts";
import { HttpError } from "../../worker/http/http-error.ts";
import { deviceHub } from "../../worker/hubs/device-hubs.ts";
import { personOf } from "../../worker/services/pump-access.ts";
import { deletePumpSchedule, type ScheduleTarget, savePumpSchedule } from "../../worker/services/schedules.ts";
import { ConfirmDialog } from "../components/dialog.tsx";
import { Field } from "../components/field.tsx";
import { ClockIcon } from "../components/icons.tsx";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
import { dayPeriodName, formatDateTime, formatTimeOfDay } from "../format.ts";
import { type MessageKey, useLanguage, useT } from "../i18n/i18n.ts";
import { pumpContext, pumpInForm } from "../pump-choice.server.ts";
import { envOf } from "../session.server.ts";
import { userContext } from "../user-context.ts";
import type { Route } from "./+types/motor-schedule";

export const meta: Route.MetaFunction = () => [{ title: "Motor Schedule · Sinchai" }];

const DONE = ["saved", "updated", "deleted"] as const;
type Done = (typeof DONE)[number];
const DONE_KEYS: Record<Done, MessageKey> = {
  saved: "schedule.saved",
  updated: "schedule.updated",
  deleted: "schedule.deleted",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const { chosen } = context.get(pumpContext);
  const schedules = chosen
    ? await deviceHub(envOf(context), chosen.device.id).listSchedules(personOf(user, chosen))
    : [];
  const params = new URL(request.url).searchParams;
  const byId = (name: string) => schedules.find((schedule) => String(schedule.id) === params.get(name)) ?? null;
  const done = params.get("done");
  return {
    hasDevice: chosen !== null,
    deviceId: chosen?.device.id ?? "",
    canSchedule: roleMay(chosen?.role ?? null, "schedule"),
    schedules,
    // ?edit=<id> opens the form on that schedule, ?delete=<id> asks before deleting it.
    editing: byId("edit"),
    deleting: byId("delete"),
    done: DONE.find((value) => value === done) ?? null,
  };
}

const HOURS = Array.from({ length: 12 }, (_, index) => index + 1);
const MINUTES = Array.from({ length: 60 }, (_, index) => index);
/** SPEC §9 schedule defaults. */
const DEFAULT_FORM: FormValues = {
  hour: "10",
  minute: "0",
  meridiem: "AM",
  action: "ON",
  repeat: "daily",
  duration: "",
};

type FormValues = {
  /** "" once the time has been cleared after a save (SPEC §8): the farmer must set it again. */
  hour: string;
  minute: string;
  meridiem: "AM" | "PM";
  action: "ON" | "OFF";
  repeat: ScheduleRepeat;
  /** Minutes as text; "" means it stays ON. */
  duration: string;
};

type Notice = { key: MessageKey; values?: Record<string, string> };
type ActionResult = { done: Done | null; error: Notice | null; values: FormValues | null };

function formValues(form: FormData): FormValues {
  return {
    hour: field(form, "hour"),
    minute: field(form, "minute"),
    meridiem: field(form, "meridiem") === "PM" ? "PM" : "AM",
    action: field(form, "action") === "OFF" ? "OFF" : "ON",
    repeat: field(form, "repeat") === "once" ? "once" : "daily",
    duration: field(form, "duration"),
  };
}

function valuesOf(schedule: ScheduleView): FormValues {
  const parts = clockParts(schedule.minuteOfDay);
  return {
    hour: String(parts.hour),
    minute: String(parts.minute),
    meridiem: parts.meridiem,
    action: schedule.action,
    repeat: schedule.repeat,
    duration: schedule.durationMinutes === null ? "" : String(schedule.durationMinutes),
  };
}

/** What the form says when the server refused, from its code (SPEC §8 generic failure otherwise). */
function failureNotice(refusal: HttpError): Notice {
  const { minuteOfDay } = refusal.params;
  switch (refusal.code) {
    case "noDevice":
      return { key: "motor.noDevice" };
    case "notAllowed":
      return { key: "pumps.viewerNote" };
    case "conflict":
      return {
        key: "schedule.conflict",
        values: { time: typeof minuteOfDay === "number" ? formatClock(minuteOfDay) : "" },
      };
    case "limit":
      return { key: "schedule.limit" };
    default:
      return { key: "schedule.failed" };
  }
}

/** The schedules of the pump the form names, if the farmer may change them; else what to say. */
async function scheduleTarget(
  env: Env,
  user: AuthenticatedUser,
  form: FormData,
): Promise<({ ok: true } & ScheduleTarget) | { ok: false; notice: Notice }> {
  const access = await pumpInForm(env, user, form, "schedule");
  if (!access.ok)
    return {
      ok: false,
      notice: access.code === "notAllowed" ? { key: "pumps.viewerNote" } : { key: "motor.noDevice" },
    };
  return { ok: true, deviceId: access.pump.device.id, person: personOf(user, access.pump) };
}

/**
 * Create, update (with an id) or delete: the same hub methods as /api/schedule. A refused post
 * comes back with what the farmer chose, in the page's language; a save clears the time.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const refused = (error: Notice, values: FormValues | null, status: number) =>
    data<ActionResult>({ done: null, error, values }, { status });
  if (!isSameOriginRequest(request)) return refused({ key: "schedule.failed" }, null, 403);
  const form = await readForm(request);
  const user = context.get(userContext);
  const env = envOf(context);
  const idText = field(form, "id");
  const id = idText === "" ? null : scheduleIdSchema.safeParse(idText);
  if (id !== null && !id.success) return refused({ key: "schedule.failed" }, null, 400);

  if (field(form, "intent") === "delete") {
    if (id === null) return refused({ key: "schedule.failed" }, null, 400);
    const target = await scheduleTarget(env, user, form);
    if (!target.ok) return refused(target.notice, null, 403);
    try {
      await deletePumpSchedule(env, target, id.data);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return refused(failureNotice(error), null, error.status);
    }
    return redirect("/motor-schedule?done=deleted");
  }

  const values = formValues(form);
  if (values.hour === "" || values.minute === "") return refused({ key: "schedule.setTime" }, values, 400);
  const input = scheduleRequestSchema.safeParse({
    time: `${values.hour}:${values.minute.padStart(2, "0")} ${values.meridiem}`,
    action: values.action,
    repeat: values.repeat,
    durationMinutes: values.action === "ON" && values.duration !== "" ? Number(values.duration) : null,
  });
  if (!input.success) return refused({ key: "schedule.failed" }, values, 400);
  const target = await scheduleTarget(env, user, form);
  if (!target.ok) return refused(target.notice, values, 403);
  try {
    await savePumpSchedule(env, target, id === null ? null : id.data, input.data);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refused(failureNotice(error), values, error.status);
  }
  // An edit leaves the edit view; a new one keeps the farmer's choices with the time cleared.
  if (id !== null) return redirect("/motor-schedule?done=updated");
  return data<ActionResult>({ done: "saved", error: null, values: { ...values, hour: "", minute: "" } });
}

const OUTCOME_KEYS: Record<string, MessageKey> = {
  offline: "schedule.reason.offline",
  late: "schedule.reason.late",
  phaseFault: "schedule.reason.phaseFault",
  noSupply: "schedule.reason.noSupply",
  timeout: "schedule.reason.timeout",
  linkLost: "schedule.reason.timeout",
};

/** The form's fields, kept by the browser while the farmer picks; reset by each new page. */
function ScheduleForm({
  initial,
  editing,
  hasDevice,
  notice,
  pump,
}: {
  initial: FormValues;
  editing: ScheduleView | null;
  hasDevice: boolean;
  /** The box the page shows: the post names it. */
  pump: string;
  notice: (Notice & { tone: "success" | "error" }) | null;
}) {
  const t = useT();
  const language = useLanguage();
  const navigation = useNavigation();
  const [form, setForm] = useState<FormValues>(initial);
  const change = (changes: Partial<FormValues>) => setForm((current) => ({ ...current, ...changes }));
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";

  const durations: readonly number[] =
    form.duration === "" ||
    SCHEDULE_DURATION_CHOICES.includes(Number(form.duration) as (typeof SCHEDULE_DURATION_CHOICES)[number])
      ? SCHEDULE_DURATION_CHOICES
      : [...SCHEDULE_DURATION_CHOICES, Number(form.duration)].sort((a, b) => a - b);

  return (
    <Form
      method="post"
      action={editing ? `/motor-schedule?edit=${editing.id}` : "/motor-schedule"}
      className="stack"
      noValidate
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="pump" value={pump} />
      {editing && <input type="hidden" name="id" value={editing.id} />}
      <fieldset className="time-fieldset">
        <legend>{t("schedule.time")}</legend>
        <div className="time-selects">
          <select
            name="hour"
            aria-label={t("schedule.hour")}
            value={form.hour}
            onChange={(event) => change({ hour: event.target.value })}
            data-testid="schedule-hour"
          >
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
          <select
            name="minute"
            aria-label={t("schedule.minute")}
            value={form.minute}
            onChange={(event) => change({ minute: event.target.value })}
            data-testid="schedule-minute"
          >
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
            name="meridiem"
            aria-label={t("schedule.meridiem")}
            value={form.meridiem}
            onChange={(event) => change({ meridiem: event.target.value === "PM" ? "PM" : "AM" })}
            data-testid="schedule-meridiem"
          >
            <option value="AM">{dayPeriodName("AM", language)}</option>
            <option value="PM">{dayPeriodName("PM", language)}</option>
          </select>
        </div>
      </fieldset>
      <Field label={t("schedule.action")}>
        <select
          name="action"
          value={form.action}
          onChange={(event) => change({ action: event.target.value === "OFF" ? "OFF" : "ON" })}
        >
          <option value="ON">{t("schedule.action.on")}</option>
          <option value="OFF">{t("schedule.action.off")}</option>
        </select>
      </Field>
      {/* Without script this stays on the page for OFF too; the server ignores it for OFF. */}
      {form.action === "ON" && (
        <Field label={t("schedule.duration")}>
          <select name="duration" value={form.duration} onChange={(event) => change({ duration: event.target.value })}>
            <option value="">{t("schedule.duration.none")}</option>
            {durations.map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {t("schedule.duration.minutes", { minutes })}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label={t("schedule.repeat")}>
        <select
          name="repeat"
          value={form.repeat}
          onChange={(event) => change({ repeat: event.target.value === "once" ? "once" : "daily" })}
        >
          <option value="daily">{t("schedule.repeat.daily")}</option>
          <option value="once">{t("schedule.repeat.once")}</option>
        </select>
      </Field>
      {/* The last answer goes while a new post is under way, so no one reads it as the new one's. */}
      {notice && navigation.state === "idle" && (
        <p
          className={`message ${notice.tone}`}
          role={notice.tone === "error" ? "alert" : "status"}
          data-testid="schedule-notice"
        >
          {t(notice.key, notice.values)}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving || !hasDevice}>
          {saving ? t("schedule.saving") : editing === null ? t("schedule.save") : t("schedule.update")}
        </button>
        {editing !== null && (
          <Link to="/motor-schedule" className="button">
            {t("dialog.cancel")}
          </Link>
        )}
      </div>
    </Form>
  );
}

export default function MotorSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const { hasDevice, schedules, editing, deviceId, canSchedule } = loaderData;
  // With script, delete asks in a dialog; without, the ?delete= link shows the same question.
  const [deleting, setDeleting] = useState<ScheduleView | null>(null);
  const deleteBusy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";

  const initial: FormValues =
    actionData?.values ??
    (editing
      ? valuesOf(editing)
      : loaderData.done === "saved"
        ? { ...DEFAULT_FORM, hour: "", minute: "" }
        : DEFAULT_FORM);
  const notice = actionData?.error
    ? { ...actionData.error, tone: "error" as const }
    : actionData?.done
      ? { key: DONE_KEYS[actionData.done], tone: "success" as const }
      : loaderData.done
        ? { key: DONE_KEYS[loaderData.done], tone: "success" as const }
        : null;

  function confirmDelete() {
    if (!deleting) return;
    submit(
      { intent: "delete", id: String(deleting.id), pump: deviceId },
      { method: "post", action: "/motor-schedule" },
    );
    setDeleting(null);
  }

  return (
    <main className="page narrow-wide">
      <h1>{t("motor.title")}</h1>
      <section className="card" aria-labelledby="schedule-form-title" id="schedule-form">
        <h2 id="schedule-form-title">{editing === null ? t("schedule.title") : t("schedule.editTitle")}</h2>
        <p className="muted">{t("schedule.hint")}</p>
        {!hasDevice && <p className="message info">{t("motor.noDevice")}</p>}
        {hasDevice && !canSchedule ? (
          <p className="message info" data-testid="viewer-note">
            {t("pumps.viewerNote")}
          </p>
        ) : (
          // Each new page (a save, an edit link, a refusal) starts the fields from what it says.
          <ScheduleForm
            key={location.key}
            initial={initial}
            editing={editing}
            hasDevice={hasDevice}
            notice={notice}
            pump={deviceId}
          />
        )}
      </section>

      {loaderData.deleting && canSchedule && (
        <section
          className="card stack"
          role="alertdialog"
          aria-labelledby="delete-confirm-title"
          data-testid="delete-confirm"
        >
          <h2 id="delete-confirm-title">{t("schedule.delete")}</h2>
          <p>{t("schedule.deleteConfirm", { time: formatTimeOfDay(loaderData.deleting.minuteOfDay, language) })}</p>
          <Form method="post" action="/motor-schedule" className="form-actions">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={loaderData.deleting.id} />
            <input type="hidden" name="pump" value={deviceId} />
            <button type="submit" className="button danger" disabled={deleteBusy}>
              {t("dialog.confirm")}
            </button>
            <Link to="/motor-schedule" className="button">
              {t("dialog.cancel")}
            </Link>
          </Form>
        </section>
      )}

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
                  <strong className="schedule-time">{formatTimeOfDay(schedule.minuteOfDay, language)}</strong>
                  <span className={`badge ${schedule.action === "ON" ? "ok" : "bad"}`}>
                    {schedule.action === "ON" ? t("motor.on") : t("motor.off")}
                  </span>
                  <span className="muted">
                    {schedule.repeat === "daily" ? t("schedule.repeat.daily") : t("schedule.repeat.once")}
                  </span>
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
                    {t(`schedule.outcome.${schedule.lastRun.outcome}`, {
                      time: formatDateTime(schedule.lastRun.at, language),
                    })}
                    {schedule.lastRun.outcome !== "done" && (
                      <>
                        {" "}
                        {OUTCOME_KEYS[schedule.lastRun.code ?? ""]
                          ? t(OUTCOME_KEYS[schedule.lastRun.code ?? ""]!)
                          : schedule.lastRun.error
                            ? t("schedule.reason.refusedSaying", { error: schedule.lastRun.error })
                            : t("schedule.reason.other")}
                      </>
                    )}
                  </p>
                )}
                {canSchedule && (
                  <div className="form-actions">
                    <Link to={`/motor-schedule?edit=${schedule.id}#schedule-form`} className="button small">
                      {t("schedule.edit")}
                    </Link>
                    <Link
                      to={`/motor-schedule?delete=${schedule.id}`}
                      className="button small danger"
                      onClick={(event) => {
                        event.preventDefault();
                        setDeleting(schedule);
                      }}
                    >
                      {t("schedule.delete")}
                    </Link>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title={t("schedule.delete")}
        message={deleting ? t("schedule.deleteConfirm", { time: formatTimeOfDay(deleting.minuteOfDay, language) }) : ""}
        confirmLabel={t("dialog.confirm")}
        cancelLabel={t("dialog.cancel")}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
        busy={deleteBusy}
      />
    </main>
  );
}
