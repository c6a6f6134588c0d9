// The schedule page's data: the chosen pump's schedules (the viewer's too) and what the address
// asks the page to open, ask or mark.
import { roleMay } from "../../../common/pump-roles.ts";
import { personOf } from "../../../worker/services/pump-access.ts";
import { listPumpSchedules } from "../../../worker/services/schedules.ts";
import { pumpContext } from "../../pump-choice.server.ts";
import { envOf } from "../../session.server.ts";
import { userContext } from "../../user-context.ts";
import type { Route } from "./+types/route";
import { DONE } from "./done-address.ts";

export async function loadSchedulePage({ request, context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  const { chosen } = context.get(pumpContext);
  const schedules = chosen
    ? await listPumpSchedules(envOf(context), { deviceId: chosen.device.id, person: personOf(user, chosen) })
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
