// The Worker's cron trigger (wrangler.toml `[triggers]`, every minute): what nothing else does.
import { closeSocketsOfEndedSessions } from "./auth/session-sockets.ts";
import { purgeEndedSessions } from "./auth/sessions.ts";
import { getDb } from "./db/client.ts";
import { purgeOldCodes } from "./db/one-time-codes.ts";
import { purgeOldTelephonyEvents } from "./db/telephony-events.ts";
import { sendPlanReminders } from "./payments/messages.ts";
import { reconcilePayments } from "./payments/reconcile.ts";
import { purgeOldMenuCalls } from "./phone-control/voice-menu.ts";
import { runRetention } from "./retention/retention.ts";
import { deliverPendingHubNotices } from "./services/hub-notices.ts";

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  // First the changes of who may use a box that a hub has not confirmed yet: until it does, it
  // may still let in someone who lost the pump.
  const notices = await deliverPendingHubNotices(env);
  if (notices.delivered.length + notices.pending.length > 0) {
    console.log(`Delivered ${notices.delivered.length} hub notices; ${notices.pending.length} left for the next run`);
  }
  // Closes before the purge, while the revoked sessions still say why they ended (the purge deletes them).
  const sockets = await closeSocketsOfEndedSessions(env);
  if (sockets.closed + sockets.left > 0) {
    console.log(`Closed ${sockets.closed} watches of ended sessions; ${sockets.left} left for the next run`);
  }
  const purged = await purgeEndedSessions(env);
  console.log(`Purged ${purged.sessions} ended sessions and ${purged.watches} realtime watches`);
  const db = getDb(env.DB);
  const now = Date.now();
  const [codes, events] = await Promise.all([
    purgeOldCodes(db, now),
    purgeOldTelephonyEvents(db, now),
    purgeOldMenuCalls(db, now),
  ]);
  if (codes + events > 0) console.log(`Purged ${codes} old one-time codes and ${events} telephony events`);
  // Renewal reminders, 7 days and 1 day before a box's plan ends.
  try {
    const reminded = await sendPlanReminders(env, now);
    if (reminded > 0) console.log(`Sent ${reminded} renewal reminders`);
  } catch (error) {
    console.error("The renewal reminders failed; the next run tries again", error);
  }
  // Once a day, the gateway's settlement report of the day before; a failure is tried again later
  // and stops nothing else here.
  try {
    const recon = await reconcilePayments(env, controller.scheduledTime, now);
    if (recon) console.log(`Reconciled ${recon.items} settlement lines of ${recon.day}; ${recon.flagged} flagged`);
  } catch (error) {
    console.error("The payment reconciliation failed; it is tried again within the hour", error);
  }
  // Last: nothing above waits on it, and a backlog of it drains over the next minutes.
  const kept = await runRetention(env, now);
  if (kept.motorLogsMoved > 0) {
    console.log(`Moved ${kept.motorLogsMoved} motor logs from D1 into their hubs (${kept.boxesMoved} boxes done)`);
  }
  if (kept.motorLogs + kept.adminAudit + kept.phoneAlertDays + kept.phoneAlertMonths > 0) {
    console.log(
      `Archived ${kept.motorLogs} motor logs (${kept.motorLogMonths} box-months) and ${kept.adminAudit} admin audit entries; deleted ${kept.phoneAlertDays} old day and ${kept.phoneAlertMonths} old month counts of phone alerts`,
    );
  }
  if (kept.paymentEvents + kept.payments + kept.rechargeRequests + kept.planPeriods + kept.planReminders > 0) {
    console.log(
      `Archived ${kept.payments} payments, ${kept.paymentEvents} payment events, ${kept.rechargeRequests} recharge requests and ${kept.planPeriods} plan periods; deleted ${kept.planReminders} old plan reminders`,
    );
  }
}
