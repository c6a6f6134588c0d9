// The switch-offs the hub owes (`schedule_offs`): "ON for N minutes", from a schedule, a power
// window or a person's timed ON from a phone. Owed from the moment the ON leaves (commands.ts),
// run when due (schedules.ts), forgotten once the motor is known OFF; kept apart from the
// schedules, so editing or deleting one never leaves a motor running. The pages say when the
// motor stops from the earliest (pump-view.ts).
import type { SwitchRequest } from "../../common/hub-contract.ts";
import { Room } from "./room.ts";

/** A switch-off owed `afterMinutes` after an "ON for N minutes" run started. */
export type OwedOff = {
  scheduleId: number;
  plannedAt: number;
  dueAt: number;
  afterMinutes: number;
  attempts: number;
};

/**
 * The row a person's timed ON owes its switch-off under (schedules' ids start at 1): one at a
 * time, since there is one motor; a newer timed ON moves it.
 */
export const TIMED_RUN_OFF_ID = 0;

/** The switch-off an ON owes, if it is a run for N minutes: a schedule's, or a person's timed ON. */
export function owedSwitchOff(command: SwitchRequest, now: number) {
  const run = command.scheduleRun;
  if (run?.offAfterMinutes) {
    const dueAt = run.offDueAt ?? now + run.offAfterMinutes * 60_000;
    return { scheduleId: run.scheduleId, plannedAt: dueAt, dueAt, afterMinutes: run.offAfterMinutes };
  }
  if (command.timedRun) {
    const dueAt = now + command.timedRun.offAfterMinutes * 60_000;
    return { scheduleId: TIMED_RUN_OFF_ID, plannedAt: dueAt, dueAt, afterMinutes: command.timedRun.offAfterMinutes };
  }
  return null;
}

export class OwedSwitchOffs extends Room {
  /** Owes `off` (again: a retry moves its next attempt on). */
  owe(off: OwedOff): void {
    this.hub.ctx.storage.sql.exec(
      `INSERT INTO schedule_offs (schedule_id, planned_at, due_at, after_minutes, attempts) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(schedule_id) DO UPDATE SET planned_at = excluded.planned_at, due_at = excluded.due_at,
         after_minutes = excluded.after_minutes, attempts = excluded.attempts`,
      off.scheduleId,
      off.plannedAt,
      off.dueAt,
      off.afterMinutes,
      off.attempts,
    );
  }

  due(now: number): OwedOff[] {
    return this.hub.ctx.storage.sql
      .exec<OwedOff>(
        `SELECT schedule_id AS scheduleId, planned_at AS plannedAt, due_at AS dueAt, after_minutes AS afterMinutes, attempts
         FROM schedule_offs WHERE due_at <= ? ORDER BY due_at`,
        now,
      )
      .toArray();
  }

  /** No longer owed (done, given up, or the ON it was owed for was refused). */
  forget(scheduleId: number): void {
    this.hub.ctx.storage.sql.exec("DELETE FROM schedule_offs WHERE schedule_id = ?", scheduleId);
  }

  /** The motor stopped: no switch-off is owed any more. */
  forgetAll(): void {
    this.hub.ctx.storage.sql.exec("DELETE FROM schedule_offs");
  }

  /** When the earliest is due, if any (the pages say when the motor stops). */
  nextDue(): number | null {
    return this.hub.ctx.storage.sql.exec<{ due: number | null }>("SELECT MIN(due_at) AS due FROM schedule_offs").one()
      .due;
  }
}
