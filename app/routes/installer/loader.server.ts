// The installer's page's data: their name, stock and the boxes they installed; null for an
// account that is no installer's (the page says so).
import { installerOverview } from "../../../worker/services/installer-visits.ts";
import { envOf, requireUser } from "../../session.server.ts";
import type { Route } from "./+types/route";

export async function loadInstallerPage({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  return { overview: await installerOverview(envOf(context), user) };
}
