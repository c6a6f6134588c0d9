// /motor-schedule: the farmer's schedules, carried out by the device's DeviceHub at their time
// in India time whether or not this page is open. The list comes first; under it one button per
// kind opens its form, one form at a time (`?add=clock`, `?add=window`, `?edit=<id>`: links,
// so they work without script too). The spec's form (a time nothing can clear, ON/OFF,
// daily/once, defaults 10:00 AM / ON / daily) plus "ON for N minutes" (60 for a new ON), and
// "run when power comes". Every one is a plain form posted to this route's action; a save
// closes the form and shows the schedule saved, in view, in the list. With script, the same
// posts run in place and delete asks in a dialog.
import { useEffect, useState } from "react";
import { Form, Link, useLocation, useNavigation, useSubmit } from "react-router";
import { formatTimeOfDay } from "../../../common/i18n/format.ts";
import type { ScheduleView } from "../../../common/schedule-view.ts";
import { ConfirmDialog } from "../../components/dialog.tsx";
import { field, isSameOriginRequest, readForm } from "../../form.server.ts";
import { useLanguage, useT } from "../../i18n/i18n.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";
import { deleteSchedule, refused, saveSchedule } from "./actions.server.ts";
import {
  DEFAULT_FORM,
  DEFAULT_WINDOW,
  type FormValues,
  valuesOf,
  type WindowValues,
  windowValuesOf,
} from "./form-values.ts";
import { loadSchedulePage } from "./loader.server.ts";
import { ScheduleForm, WindowForm } from "./schedule-forms.tsx";
import { DoneNotice, ScheduleItem } from "./schedule-item.tsx";

export const meta: Route.MetaFunction = () => [{ title: "Motor Schedule · Sinchai" }];

export async function loader(args: Route.LoaderArgs) {
  return loadSchedulePage(args);
}

/** Save (create, or update with an id) or delete: the same services as /api/schedule. */
export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginRequest(request)) return refused({ key: "schedule.failed" }, null, 403);
  const form = await readForm(request);
  const user = context.get(userContext);
  const env = envOf(context);
  switch (field(form, "intent")) {
    case "delete":
      return deleteSchedule(env, user, form);
    default:
      // "save", the forms' own intent (a post that names none saves too, as it always has).
      return saveSchedule(env, user, form);
  }
}

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
  /** What either form's post says beside its fields. */
  const saving = { editing: editingOpen, hasDevice, notice: refusal, pump: deviceId };

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
          <ScheduleForm key={location.key} initial={initial} {...saving} />
        </section>
      )}
      {open === "window" && (
        <section className="card" aria-labelledby="window-form-title" id="window-form">
          <h2 id="window-form-title">{editingOpen ? t("window.editTitle") : t("window.title")}</h2>
          <p className="muted">{t("window.hint")}</p>
          <WindowForm key={location.key} initial={initialWindow} {...saving} />
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
