// The schedule page's intents, on the server: save (create, or update with an id) and delete,
// through the same services as /api/schedule. A refused post comes back with what the farmer
// chose, in the page's language; a save or a delete goes back to the list.
import { data, redirect } from "react-router";
import { scheduleIdSchema, scheduleRequestSchema } from "../../../common/schedule-schemas.ts";
import type { AuthenticatedUser } from "../../../worker/services/page-session.ts";
import { personOf } from "../../../worker/services/pump-access.ts";
import { settle } from "../../../worker/services/refusal.ts";
import { deletePumpSchedule, type ScheduleTarget, savePumpSchedule } from "../../../worker/services/schedules.ts";
import { field } from "../../form-field.ts";
import { pumpInForm } from "../../pump-choice.server.ts";
import { savedAddress } from "./done-address.ts";
import {
  type FormValues,
  failureNotice,
  type Notice,
  readScheduleForm,
  schemaRefusal,
  type WindowValues,
} from "./form-values.ts";

type ActionResult = {
  error: Notice | null;
  values: FormValues | null;
  windowValues: WindowValues | null;
};

/** A refused post: its words, and the form's values to show again. */
export const refused = (
  error: Notice,
  values: FormValues | null,
  status: number,
  windowForm: WindowValues | null = null,
) => data<ActionResult>({ error, values, windowValues: windowForm }, { status });

/** The schedule a post names: none (a new one), an id, or an id that is not one. */
function scheduleIdOf(form: FormData) {
  const idText = field(form, "id");
  return idText === "" ? null : scheduleIdSchema.safeParse(idText);
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

export async function deleteSchedule(env: Env, user: AuthenticatedUser, form: FormData) {
  const id = scheduleIdOf(form);
  if (id === null || !id.success) return refused({ key: "schedule.failed" }, null, 400);
  const target = await scheduleTarget(env, user, form);
  if (!target.ok) return refused(target.notice, null, 403);
  const deleted = await settle(() => deletePumpSchedule(env, target, id.data));
  if (!deleted.ok) return refused(failureNotice(deleted), null, deleted.status);
  return redirect("/motor-schedule?done=deleted");
}

export async function saveSchedule(env: Env, user: AuthenticatedUser, form: FormData) {
  const id = scheduleIdOf(form);
  if (id !== null && !id.success) return refused({ key: "schedule.failed" }, null, 400);
  const read = readScheduleForm(form);
  const refusedHere = (error: Notice, status: number) => refused(error, read.values, status, read.windowValues);
  if ("notice" in read) return refusedHere(read.notice, 400);
  const input = scheduleRequestSchema.safeParse(read.body);
  if (!input.success) return refusedHere(schemaRefusal(read.windowValues !== null, input.error.issues), 400);
  const target = await scheduleTarget(env, user, form);
  if (!target.ok) return refusedHere(target.notice, 403);
  const saved = await settle(() => savePumpSchedule(env, target, id === null ? null : id.data, input.data));
  if (!saved.ok) return refusedHere(failureNotice(saved), saved.status);
  // The form closes and the list shows the schedule saved, in view.
  return redirect(savedAddress(id === null ? "saved" : "updated", saved.value.id));
}
