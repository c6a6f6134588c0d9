// The Worker's cron triggers (wrangler.toml `[triggers]`): housekeeping that nothing else does.
import { purgeEndedSessions } from "./auth/sessions.ts";

export async function handleScheduled(_controller: ScheduledController, env: Env): Promise<void> {
  const purged = await purgeEndedSessions(env);
  console.log(`Purged ${purged.sessions} ended sessions and ${purged.watches} realtime watches`);
}
