// The schedule page's intents, on the server: save (create, or update with an id) and delete,
// through the same services as /api/schedule. A refused post comes back with what the farmer
// chose, in the page's language; a save or a delete goes back to the list.
import { data, redirect } from "react-router";
import { scheduleIdSchema, scheduleRequestSchema } from "../../../common/schedule-schemas.ts";
import type { AuthenticatedUser } from "../../../worker/auth/sessions.ts";
import { HttpError } from "../../../worker/http/http-error.ts";
import { personOf } from "../../../worker/services/pump-access.ts";
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
  try {
    await deletePumpSchedule(env, target, id.data);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refused(failureNotice(error), null, error.status);
  }
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
  try {
    const saved = await savePumpSchedule(env, target, id === null ? null : id.data, input.data);
    // The form closes and the list shows the schedule saved, in view.
    return redirect(savedAddress(id === null ? "saved" : "updated", saved.id));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return refusedHere(failureNotice(error), error.status);
  }
}
