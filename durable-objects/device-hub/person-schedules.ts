// A person's schedules, as the Worker's RPC asks for them: the person checked against the hub's
// own copy of owner and members (as a switch is, person-switch.ts), then the owner's schedules
// (schedules.ts). Kept under the owner's account whoever of its people set them: they are the
// pump's, and a new owner never inherits them (Settings.refreshAccess).
import type { PumpPerson, ScheduleFailure, ScheduleResult } from "../../common/hub-contract.ts";
import type { ScheduleInput, ScheduleView } from "../../common/schedule-schemas.ts";
import { personMay } from "./owner.ts";
import { Room } from "./room.ts";
import type { Schedules } from "./schedules.ts";

const SCHEDULE_NOT_ALLOWED: ScheduleFailure = { ok: false, code: "notAllowed" };

/** A member's schedule is theirs to answer for; the owner's and an admin's are the owner's. */
function authorOf(person: PumpPerson): number | null {
  return person.role === "operator" || person.role === "viewer" ? person.userId : null;
}

export class PersonSchedules extends Room<{ schedules: Schedules }> {
  async list(person: PumpPerson): Promise<ScheduleView[]> {
    const ownerId = await this.#ownerFor(person, "see");
    return ownerId === null ? [] : this.rooms.schedules.list(ownerId);
  }

  async create(person: PumpPerson, input: ScheduleInput): Promise<ScheduleResult> {
    const ownerId = await this.#ownerFor(person, "schedule");
    return ownerId === null ? SCHEDULE_NOT_ALLOWED : this.rooms.schedules.create(ownerId, input, authorOf(person));
  }

  async update(person: PumpPerson, id: number, input: ScheduleInput): Promise<ScheduleResult> {
    const ownerId = await this.#ownerFor(person, "schedule");
    return ownerId === null ? SCHEDULE_NOT_ALLOWED : this.rooms.schedules.update(ownerId, id, input, authorOf(person));
  }

  /** A switch-off still owed for a run under way stays: deleting a schedule never leaves a motor running. */
  async delete(person: PumpPerson, id: number): Promise<{ ok: true } | ScheduleFailure> {
    const ownerId = await this.#ownerFor(person, "schedule");
    if (ownerId === null) return SCHEDULE_NOT_ALLOWED;
    return this.rooms.schedules.delete(ownerId, id) ? { ok: true } : { ok: false, code: "notFound" };
  }

  /** The owner whose schedules `person` may use for `action`; null if they may not (or nobody owns the box). */
  async #ownerFor(person: PumpPerson, action: "see" | "schedule"): Promise<number | null> {
    if (!(await personMay(this.hub, person, action))) return null;
    return this.hub.state.current.owner?.userId ?? null;
  }
}
