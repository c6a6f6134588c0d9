// One schedule in the list, and the notice of what was just done to one.

import { Link } from "react-router";
import { formatDayAndTime } from "../../../common/i18n/day-words.ts";
import { formatTimeOfDay, weekdayName } from "../../../common/i18n/format.ts";
import type { Language } from "../../../common/i18n/language.ts";
import type { Weekday } from "../../../common/schedule-time.ts";
import type { ScheduleView } from "../../../common/schedule-view.ts";
import { ClockIcon } from "../../components/icons.tsx";
import { type MessageKey, useLanguage, useT } from "../../i18n/i18n.ts";
import type { Done } from "./done-address.ts";

const DONE_KEYS: Record<Done, MessageKey> = {
  saved: "schedule.saved",
  updated: "schedule.updated",
  deleted: "schedule.deleted",
};

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

export function DoneNotice({ done }: { done: Done }) {
  const t = useT();
  return (
    <p className="message success" role="status" data-testid="schedule-done">
      {t(DONE_KEYS[done])}
    </p>
  );
}

/** One schedule in the list: when, what, how often, its next and last run, Edit and Delete. */
export function ScheduleItem({
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
          // When it goes OFF as well as for how long: the farmer plans the evening by the clock.
          <p className="schedule-line" data-testid="schedule-ends">
            {t("schedule.forMinutesUntil", {
              minutes: schedule.durationMinutes,
              end: formatTimeOfDay((schedule.minuteOfDay + schedule.durationMinutes) % (24 * 60), language),
            })}
          </p>
        )
      )}
      {schedule.activeRun && (
        <p className="schedule-line window-run" data-testid="window-run" data-phase={schedule.activeRun.phase}>
          {t(WINDOW_PHASE_KEYS[schedule.activeRun.phase], {
            ran: schedule.activeRun.ranMinutes,
            run: schedule.durationMinutes ?? 0,
            until: formatDayAndTime(schedule.activeRun.closesAt, language),
          })}
        </p>
      )}
      <p className="schedule-line muted">
        {schedule.nextRunAt
          ? t("schedule.next", { time: formatDayAndTime(schedule.nextRunAt, language) })
          : t("schedule.finished")}
      </p>
      {schedule.lastRun && (
        <p
          className={`schedule-line last-run ${schedule.lastRun.outcome}`}
          data-testid="schedule-last-run"
          data-outcome={schedule.lastRun.outcome}
        >
          {t(`schedule.outcome.${schedule.lastRun.outcome}`, {
            time: formatDayAndTime(schedule.lastRun.at, language),
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
