// /motor-schedule: the farmer's schedules, carried out by the device's DeviceHub at their time
// in India time whether or not this page is open. The list comes first; under it one button per
// kind opens its form, one form at a time (`?add=clock`, `?add=window`, `?edit=<id>`: links,
// so they work without script too). The spec's form (a time nothing can clear, ON/OFF,
// daily/once, defaults 10:00 AM / ON / daily) plus "ON for N minutes" (60 for a new ON), and
// "run when power comes". Every one is a plain form posted to this route's action; a save
// closes the form and shows the schedule saved, in view, in the list. With script, the same
// posts run in place and delete asks in a dialog.
import { type ReactNode, useEffect, useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation, useSubmit } from "react-router";
import { formatDateTime, formatTimeOfDay, weekdayName } from "../../common/i18n/format.ts";
import type { Language } from "../../common/i18n/language.ts";
import { roleMay } from "../../common/pump-roles.ts";
import { scheduleIdSchema, scheduleRequestSchema } from "../../common/schedule-schemas.ts";
import type { Weekday } from "../../common/schedule-time.ts";
import { SCHEDULE_DURATION_CHOICES, type ScheduleRepeat, type ScheduleView } from "../../common/schedule-view.ts";
import type { AuthenticatedUser } from "../../worker/auth/sessions.ts";
import { HttpError } from "../../worker/http/http-error.ts";
import { deviceHub } from "../../worker/hubs/device-hubs.ts";
import { personOf } from "../../worker/services/pump-access.ts";
import { deletePumpSchedule, type ScheduleTarget, savePumpSchedule } from "../../worker/services/schedules.ts";
import { ClockSelects, type ClockValue, clockField } from "../components/clock-selects.tsx";
import { ConfirmDialog } from "../components/dialog.tsx";
import { Field } from "../components/field.tsx";
import { ClockIcon } from "../components/icons.tsx";
import { WeekdayChoices } from "../components/weekday-choices.tsx";
import { field, isSameOriginRequest, readForm } from "../form.server.ts";
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
  const add = params.get("add");
  const adding: "clock" | "window" | null = add === "clock" || add === "window" ? add : null;
  return {
    hasDevice: chosen !== null,
    deviceId: chosen?.device.id ?? "",
    canSchedule: roleMay(chosen?.role ?? null, "schedule"),
    schedules,
    // ?add=clock or ?add=window opens that kind's form for a new one, ?edit=<id> the form on
    // that schedule, ?delete=<id> asks before deleting it; ?saved=<id> is the one just saved.
    adding,
    editing: byId("edit"),
    deleting: byId("delete"),
    savedId: byId("saved")?.id ?? null,
    done: DONE.find((value) => value === done) ?? null,
  };
}

/**
 * SPEC §9 schedule defaults (10:00 AM, ON, daily), and a new ON switches off again after an
 * hour: a motor nobody remembered must not run all night.
 */
const DEFAULT_FORM: FormValues = {
  hour: "10",
  minute: "0",
  action: "ON",
  repeat: "daily",
  days: [],
  duration: "60",
};

/** A power window's defaults: a night's rationed three-phase supply, two hours to run. */
const DEFAULT_WINDOW: WindowValues = {
  from: { hour: "22", minute: "0" },
  to: { hour: "6", minute: "0" },
  runMinutes: "120",
  repeat: "daily",
  days: [],
  randomDelay: true,
  resume: false,
  autoStart: false,
};

type FormValues = ClockValue & {
  action: "ON" | "OFF";
  repeat: ScheduleRepeat;
  days: Weekday[];
  /** Minutes as text; "" means it is not switched off by the schedule. */
  duration: string;
};

type WindowValues = {
  from: ClockValue;
  to: ClockValue;
  runMinutes: string;
  repeat: ScheduleRepeat;
  days: Weekday[];
  randomDelay: boolean;
  resume: boolean;
  /** The farmer ticked that the motor may start by itself; never kept after a save. */
  autoStart: boolean;
};

/** A refusal's words; `minuteOfDay` (a conflict's) is written as the page writes times. */
type Notice = { key: MessageKey; values?: Record<string, string>; minuteOfDay?: number };
type ActionResult = {
  error: Notice | null;
  values: FormValues | null;
  windowValues: WindowValues | null;
};

const repeatOf = (text: string): ScheduleRepeat => (text === "once" ? "once" : text === "weekly" ? "weekly" : "daily");
const daysOf = (form: FormData): Weekday[] =>
  form
    .getAll("days")
    .filter((day): day is Weekday => typeof day === "string" && /^(sun|mon|tue|wed|thu|fri|sat)$/.test(day));

function clockValue(form: FormData, name: string): ClockValue {
  return { hour: field(form, clockField(name, "hour")), minute: field(form, clockField(name, "minute")) };
}

/** The API's 24-hour time ("22:30"); anything else the selects could not send fails its schema. */
const clockText = (value: ClockValue) => `${value.hour}:${value.minute.padStart(2, "0")}`;

function clockOf(minuteOfDay: number): ClockValue {
  return { hour: String(Math.floor(minuteOfDay / 60)), minute: String(minuteOfDay % 60) };
}

function formValues(form: FormData): FormValues {
  return {
    ...clockValue(form, ""),
    action: field(form, "action") === "OFF" ? "OFF" : "ON",
    repeat: repeatOf(field(form, "repeat")),
    days: daysOf(form),
    duration: field(form, "duration"),
  };
}

function windowValues(form: FormData): WindowValues {
  return {
    from: clockValue(form, "from"),
    to: clockValue(form, "to"),
    runMinutes: field(form, "runMinutes"),
    repeat: repeatOf(field(form, "repeat")),
    days: daysOf(form),
    randomDelay: field(form, "randomDelay") === "on",
    resume: field(form, "resume") === "on",
    autoStart: field(form, "autoStart") === "on",
  };
}

function valuesOf(schedule: ScheduleView): FormValues {
  return {
    ...clockOf(schedule.minuteOfDay),
    action: schedule.action,
    repeat: schedule.repeat,
    days: schedule.days ?? [],
    duration: schedule.durationMinutes === null ? "" : String(schedule.durationMinutes),
  };
}

function windowValuesOf(schedule: ScheduleView): WindowValues {
  return {
    from: clockOf(schedule.minuteOfDay),
    to: clockOf(schedule.window?.endMinuteOfDay ?? 0),
    runMinutes: String(schedule.durationMinutes ?? ""),
    repeat: schedule.repeat,
    days: schedule.days ?? [],
    randomDelay: schedule.window?.randomDelay ?? true,
    resume: schedule.window?.resume ?? false,
    // Asked again on every change: the farmer confirms what they now save.
    autoStart: false,
  };
}

/** What the form says when the API's schema refused a power window: the first field it names. */
function windowRefusal(issues: readonly { path: readonly PropertyKey[] }[]): Notice {
  const path = String(issues[0]?.path[0] ?? "");
  if (path === "autoStart") return { key: "window.confirmAutoStart" };
  if (path === "days") return { key: "schedule.pickDays" };
  if (path === "runMinutes") return { key: "window.doesNotFit" };
  if (path === "to") return { key: "window.sameTimes" };
  return { key: "schedule.failed" };
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
      return { key: "schedule.conflict", ...(typeof minuteOfDay === "number" ? { minuteOfDay } : {}) };
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
  const refused = (error: Notice, values: FormValues | null, status: number, windowForm: WindowValues | null = null) =>
    data<ActionResult>({ error, values, windowValues: windowForm }, { status });
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

  const isWindow = field(form, "kind") === "window";
  const values = isWindow ? null : formValues(form);
  const windowForm = isWindow ? windowValues(form) : null;
  const refusedHere = (error: Notice, status: number) => refused(error, values, status, windowForm);
  let body: unknown;
  if (windowForm) {
    body = {
      type: "window",
      from: clockText(windowForm.from),
      to: clockText(windowForm.to),
      runMinutes: Number(windowForm.runMinutes),
      repeat: windowForm.repeat,
      days: windowForm.repeat === "weekly" ? windowForm.days : undefined,
      randomDelay: windowForm.randomDelay,
      resume: windowForm.resume,
      autoStart: windowForm.autoStart,
    };
  } else if (values) {
    if (values.hour === "" || values.minute === "") return refusedHere({ key: "schedule.setTime" }, 400);
    body = {
      time: clockText(values),
      action: values.action,
      repeat: values.repeat,
      days: values.repeat === "weekly" ? values.days : undefined,
      durationMinutes: values.action === "ON" && values.duration !== "" ? Number(values.duration) : null,
    };
  }
  const input = scheduleRequestSchema.safeParse(body);
  if (!input.success)
    return refusedHere(
      windowForm
        ? windowRefusal(input.error.issues)
        : input.error.issues[0]?.path[0] === "days"
          ? { key: "schedule.pickDays" }
          : { key: "schedule.failed" },
      400,
    );
  const target = await scheduleTarget(env, user, form);
  if (!target.ok) return refusedHere(target.notice, 403);
  let saved: ScheduleView;
  try {
    saved = await savePumpSchedule(env, target, id === null ? null : id.data, input.data);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refusedHere(failureNotice(error), error.status);
  }
  // The form closes and the list shows the schedule saved, in view (the page's address
  // names it and scrolls to it, with or without script).
  return redirect(savedAddress(id === null ? "saved" : "updated", saved.id));
}

function savedAddress(done: Done, id: number): string {
  return `/motor-schedule?done=${done}&saved=${id}#schedule-${id}`;
}

const OUTCOME_KEYS: Record<string, MessageKey> = {
  offline: "schedule.reason.offline",
  late: "schedule.reason.late",
  phaseFault: "schedule.reason.phaseFault",
  noSupply: "schedule.reason.noSupply",
  timeout: "schedule.reason.timeout",
  linkLost: "schedule.reason.timeout",
  underVoltage: "motor.underVoltage",
  overVoltage: "motor.overVoltage",
  voltageUnbalance: "motor.voltageUnbalance",
  windowClosed: "window.reason.windowClosed",
  powerCut: "window.reason.powerCut",
  stopped: "window.reason.stopped",
};

type FormProps<Values> = {
  /** The fields as the page starts them; the browser keeps them while the farmer picks. */
  initial: Values;
  editing: ScheduleView | null;
  hasDevice: boolean;
  /** The box the page shows: the post names it. */
  pump: string;
  notice: FormNotice;
};

/** The clock schedule's fields, reset by each new page. */
function ScheduleForm({ initial, editing, hasDevice, notice, pump }: FormProps<FormValues>) {
  const t = useT();
  const [form, setForm] = useState<FormValues>(initial);
  const change = (changes: Partial<FormValues>) => setForm((current) => ({ ...current, ...changes }));
  return (
    <SaveScheduleForm kind="clock" editing={editing} hasDevice={hasDevice} pump={pump} notice={notice}>
      <ClockSelects
        name=""
        legend={t("schedule.time")}
        value={form}
        onChange={(clock) => change(clock)}
        testId="schedule"
      />
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
            {minuteChoices(form.duration).map((minutes) => (
              <option key={minutes} value={String(minutes)}>
                {t("schedule.duration.minutes", { minutes })}
              </option>
            ))}
          </select>
        </Field>
      )}
      <RepeatChoice repeat={form.repeat} days={form.days} onChange={(repeat, days) => change({ repeat, days })} />
    </SaveScheduleForm>
  );
}

/** A refused post's words, shown in the form that posted. */
type FormNotice = Notice | null;

/** "ON for N minutes" and "run for N minutes" offer these, and a value saved outside them. */
function minuteChoices(value: string): readonly number[] {
  const minutes = Number(value);
  return value === "" || SCHEDULE_DURATION_CHOICES.includes(minutes as (typeof SCHEDULE_DURATION_CHOICES)[number])
    ? SCHEDULE_DURATION_CHOICES
    : [...SCHEDULE_DURATION_CHOICES, minutes].sort((a, b) => a - b);
}

/**
 * What both schedule forms share: a plain post naming the pump, the kind and the schedule
 * edited; a refusal; Save (the same word on both forms; "save changes" when editing) and
 * Cancel, which closes the form.
 */
function SaveScheduleForm({
  kind,
  editing,
  hasDevice,
  pump,
  notice,
  children,
}: {
  kind: "clock" | "window";
  editing: ScheduleView | null;
  hasDevice: boolean;
  /** The box the page shows: the post names it. */
  pump: string;
  notice: FormNotice;
  children: ReactNode;
}) {
  const t = useT();
  const language = useLanguage();
  const navigation = useNavigation();
  const saving =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "save" &&
    navigation.formData?.get("kind") === kind;
  const testId = kind === "clock" ? "schedule" : "window";
  return (
    <Form
      method="post"
      action={editing ? `/motor-schedule?edit=${editing.id}` : `/motor-schedule?add=${kind}`}
      className="stack"
      noValidate
      data-testid={`${testId}-form`}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="pump" value={pump} />
      {editing && <input type="hidden" name="id" value={editing.id} />}
      {children}
      {/* The last answer goes while a new post is under way, so no one reads it as the new one's. */}
      {notice && navigation.state === "idle" && (
        <p className="message error" role="alert" data-testid={`${testId}-notice`}>
          {t(notice.key, {
            ...notice.values,
            ...(notice.minuteOfDay === undefined ? {} : { time: formatTimeOfDay(notice.minuteOfDay, language) }),
          })}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving || !hasDevice}>
          {saving ? t("schedule.saving") : editing === null ? t("schedule.save") : t("schedule.update")}
        </button>
        <Link to="/motor-schedule" className="button" data-testid={`${testId}-cancel`}>
          {t("dialog.cancel")}
        </Link>
      </div>
    </Form>
  );
}

/**
 * Daily, on chosen days, or once. The days hide by CSS while "daily" or "once" is chosen, so a
 * page without script (or a browser without :has) still offers them.
 */
function RepeatChoice({
  repeat,
  days,
  onChange,
}: {
  repeat: ScheduleRepeat;
  days: Weekday[];
  onChange: (repeat: ScheduleRepeat, days: Weekday[]) => void;
}) {
  const t = useT();
  return (
    <div className="repeat-choice stack">
      <Field label={t("schedule.repeat")}>
        <select name="repeat" value={repeat} onChange={(event) => onChange(repeatOf(event.target.value), days)}>
          <option value="daily">{t("schedule.repeat.daily")}</option>
          <option value="weekly">{t("schedule.repeat.weekly")}</option>
          <option value="once">{t("schedule.repeat.once")}</option>
        </select>
      </Field>
      <WeekdayChoices chosen={days} onChange={(chosen) => onChange(repeat, chosen)} />
    </div>
  );
}

/**
 * "Run N minutes as soon as power comes between two times": a plain form of its own, with the
 * warning and the farmer's explicit consent that the motor starts by itself.
 */
function WindowForm({ initial, editing, hasDevice, notice, pump }: FormProps<WindowValues>) {
  const t = useT();
  const [form, setForm] = useState<WindowValues>(initial);
  const change = (changes: Partial<WindowValues>) => setForm((current) => ({ ...current, ...changes }));
  return (
    <SaveScheduleForm kind="window" editing={editing} hasDevice={hasDevice} pump={pump} notice={notice}>
      <div className="window-times">
        <ClockSelects
          name="from"
          legend={t("window.from")}
          value={form.from}
          onChange={(from) => change({ from })}
          testId="window-from"
        />
        <ClockSelects
          name="to"
          legend={t("window.to")}
          value={form.to}
          onChange={(to) => change({ to })}
          testId="window-to"
        />
      </div>
      <Field label={t("window.runFor")}>
        <select
          name="runMinutes"
          value={form.runMinutes}
          onChange={(event) => change({ runMinutes: event.target.value })}
          data-testid="window-run-minutes"
        >
          {minuteChoices(form.runMinutes).map((minutes) => (
            <option key={minutes} value={String(minutes)}>
              {t("schedule.duration.minutes", { minutes })}
            </option>
          ))}
        </select>
      </Field>
      <RepeatChoice repeat={form.repeat} days={form.days} onChange={(repeat, days) => change({ repeat, days })} />
      <label className="check-line">
        <input
          type="checkbox"
          name="randomDelay"
          checked={form.randomDelay}
          onChange={(event) => change({ randomDelay: event.target.checked })}
        />
        <span>{t("window.randomDelay")}</span>
      </label>
      <label className="check-line">
        <input
          type="checkbox"
          name="resume"
          checked={form.resume}
          onChange={(event) => change({ resume: event.target.checked })}
        />
        <span>{t("window.resume")}</span>
      </label>
      <div className="message warning" role="note">
        <p>{t("window.warning")}</p>
        <label className="check-line">
          <input
            type="checkbox"
            name="autoStart"
            checked={form.autoStart}
            onChange={(event) => change({ autoStart: event.target.checked })}
            data-testid="window-auto-start"
          />
          <strong>{t("window.autoStart")}</strong>
        </label>
      </div>
    </SaveScheduleForm>
  );
}

const WINDOW_PHASE_KEYS: Record<NonNullable<ScheduleView["activeRun"]>["phase"], MessageKey> = {
  waiting: "window.phase.waiting",
  delaying: "window.phase.delaying",
  starting: "window.phase.starting",
  running: "window.phase.running",
  stopping: "window.phase.stopping",
};

/** "Daily", "Once", or the chosen days: "Mon, Thu". */
function repeatText(schedule: ScheduleView, t: ReturnType<typeof useT>, language: Language): string {
  if (schedule.repeat === "weekly" && schedule.days)
    return schedule.days.map((day) => weekdayName(WEEKDAY_INDEX[day], language)).join(", ");
  return schedule.repeat === "once" ? t("schedule.repeat.once") : t("schedule.repeat.daily");
}

const WEEKDAY_INDEX: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

export default function MotorSchedule({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const language = useLanguage();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const { hasDevice, schedules, editing, deviceId, canSchedule, savedId } = loaderData;
  // With script, delete asks in a dialog; without, the ?delete= link shows the same question.
  const [deleting, setDeleting] = useState<ScheduleView | null>(null);
  const deleteBusy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete";

  // One form at a time: the one a refused post came from, the schedule being edited, or the
  // kind the farmer chose to add.
  const open: "clock" | "window" | null = !canSchedule
    ? null
    : actionData
      ? actionData.windowValues
        ? "window"
        : "clock"
      : (editing?.kind ?? loaderData.adding);
  const editingOpen = editing?.kind === open ? editing : null;
  const initial: FormValues = actionData?.values ?? (editingOpen ? valuesOf(editingOpen) : DEFAULT_FORM);
  const initialWindow: WindowValues =
    actionData?.windowValues ?? (editingOpen ? windowValuesOf(editingOpen) : DEFAULT_WINDOW);
  const refusal = actionData?.error ?? null;

  // The schedule just saved is in view and has the focus (the address scrolls to it too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new page (the same schedule saved again too) focuses it again
  useEffect(() => {
    if (savedId !== null) document.getElementById(`schedule-${savedId}`)?.focus();
  }, [savedId, location.key]);

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
      <h1>{t("schedule.title")}</h1>
      {!hasDevice && <p className="message info">{t("motor.noDevice")}</p>}
      {hasDevice && !canSchedule && (
        <p className="message info" data-testid="viewer-note">
          {t("pumps.viewerNote")}
        </p>
      )}

      <section aria-labelledby="schedule-list-title" className="stack">
        <h2 id="schedule-list-title">{t("schedule.listTitle")}</h2>
        {/* A saved schedule says so on itself; a deletion, here. */}
        {loaderData.done && savedId === null && <DoneNotice done={loaderData.done} />}
        {schedules.length === 0 ? (
          <p className="card muted" data-testid="schedules-empty">
            {t("schedule.none")}
          </p>
        ) : (
          <ul className="schedule-list" data-testid="schedule-list">
            {schedules.map((schedule) => (
              <ScheduleItem
                key={schedule.id}
                schedule={schedule}
                justSaved={schedule.id === savedId ? loaderData.done : null}
                canSchedule={canSchedule}
                onDelete={() => setDeleting(schedule)}
              />
            ))}
          </ul>
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

      {hasDevice && canSchedule && open === null && (
        <div className="add-schedule" data-testid="add-schedule">
          <Link to="/motor-schedule?add=clock#schedule-form" className="button primary" data-testid="add-clock">
            {t("schedule.add")}
          </Link>
          <Link to="/motor-schedule?add=window#window-form" className="button" data-testid="add-window">
            {t("window.add")}
          </Link>
        </div>
      )}

      {open === "clock" && (
        <section className="card" aria-labelledby="schedule-form-title" id="schedule-form">
          <h2 id="schedule-form-title">{editingOpen ? t("schedule.editTitle") : t("schedule.newTitle")}</h2>
          <p className="muted">{t("schedule.hint")}</p>
          {/* Each new page (an edit link, a refusal) starts the fields from what it says. */}
          <ScheduleForm
            key={location.key}
            initial={initial}
            editing={editingOpen}
            hasDevice={hasDevice}
            notice={refusal}
            pump={deviceId}
          />
        </section>
      )}
      {open === "window" && (
        <section className="card" aria-labelledby="window-form-title" id="window-form">
          <h2 id="window-form-title">{editingOpen ? t("window.editTitle") : t("window.title")}</h2>
          <p className="muted">{t("window.hint")}</p>
          <WindowForm
            key={location.key}
            initial={initialWindow}
            editing={editingOpen}
            hasDevice={hasDevice}
            notice={refusal}
            pump={deviceId}
          />
        </section>
      )}
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

function DoneNotice({ done }: { done: Done }) {
  const t = useT();
  return (
    <p className="message success" role="status" data-testid="schedule-done">
      {t(DONE_KEYS[done])}
    </p>
  );
}

/** One schedule in the list: when, what, how often, its next and last run, Edit and Delete. */
function ScheduleItem({
  schedule,
  justSaved,
  canSchedule,
  onDelete,
}: {
  schedule: ScheduleView;
  /** The one the farmer just saved ("saved" or "updated"): marked, saying so, and focused. */
  justSaved: Done | null;
  canSchedule: boolean;
  onDelete: () => void;
}) {
  const t = useT();
  const language = useLanguage();
  return (
    <li
      id={`schedule-${schedule.id}`}
      className={`card schedule-item${justSaved ? " just-saved" : ""}`}
      tabIndex={justSaved ? -1 : undefined}
      data-testid="schedule-item"
    >
      {justSaved && <DoneNotice done={justSaved} />}
      <div className="schedule-head">
        <ClockIcon />
        <strong className="schedule-time">
          {formatTimeOfDay(schedule.minuteOfDay, language)}
          {schedule.window && <> – {formatTimeOfDay(schedule.window.endMinuteOfDay, language)}</>}
        </strong>
        {schedule.window ? (
          <span className="badge wait">{t("window.badge")}</span>
        ) : (
          <span className={`badge ${schedule.action === "ON" ? "ok" : "bad"}`}>
            {schedule.action === "ON" ? t("motor.on") : t("motor.off")}
          </span>
        )}
        <span className="muted">{repeatText(schedule, t, language)}</span>
      </div>
      {schedule.window ? (
        <p className="schedule-line">
          {t("window.runLine", {
            minutes: schedule.durationMinutes ?? 0,
            randomDelay: schedule.window.randomDelay ? "yes" : "no",
            resume: schedule.window.resume ? "yes" : "no",
          })}
        </p>
      ) : (
        schedule.durationMinutes !== null && (
          <p className="schedule-line">{t("schedule.forMinutes", { minutes: schedule.durationMinutes })}</p>
        )
      )}
      {schedule.activeRun && (
        <p className="schedule-line window-run" data-testid="window-run" data-phase={schedule.activeRun.phase}>
          {t(WINDOW_PHASE_KEYS[schedule.activeRun.phase], {
            ran: schedule.activeRun.ranMinutes,
            run: schedule.durationMinutes ?? 0,
            until: formatDateTime(schedule.activeRun.closesAt, language),
          })}
        </p>
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
          {schedule.lastRun.ranMinutes !== null && (
            <> {t("window.ran", { ran: schedule.lastRun.ranMinutes, run: schedule.durationMinutes ?? 0 })}</>
          )}
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
          <Link
            to={`/motor-schedule?edit=${schedule.id}#${schedule.kind === "window" ? "window-form" : "schedule-form"}`}
            className="button small"
          >
            {t("schedule.edit")}
          </Link>
          <Link
            to={`/motor-schedule?delete=${schedule.id}`}
            className="button small danger"
            onClick={(event) => {
              event.preventDefault();
              onDelete();
            }}
          >
            {t("schedule.delete")}
          </Link>
        </div>
      )}
    </li>
  );
}
