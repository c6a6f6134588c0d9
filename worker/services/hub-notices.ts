// Access changes reach the hub, or stay on record until they do (docs/security.md, "Who may use
// a box, everywhere at once"). Every change of a box's owner or people writes a notice for the
// box's DeviceHub in the same D1 batch as the change (common/access-change-sql.ts). Whoever made
// the change then delivers it at once: the hub reloads owner and members from D1 and closes the
// sockets of whoever lost the pump. The hub's `refreshAccess()` answers ok only when it has its
// new copy (it answers `accessUnconfirmed` when it could not read D1, and refuses every farmer
// until a reload works), so only an ok is a confirmation and deletes the notice; anything else
// stays for the cron trigger (worker/scheduled.ts), which delivers what is pending every minute.
import type { HubNoticeRow } from "../../common/access-change-sql.ts";
import { deviceHub } from "../hubs/device-hubs.ts";

export type NoticeEnv = Pick<Env, "DB" | "DEVICE_HUB">;

/** What became of a set of notices: those the hubs confirmed, and those still pending. */
export type NoticeDelivery = { delivered: HubNoticeRow[]; pending: HubNoticeRow[] };

/** How many hubs one delivery asks at a time, so a mass change does not open hundreds of calls at once. */
const HUBS_AT_ONCE = 25;

/**
 * Asks each notice's hub to reload who may use its box; a hub that fails is asked once more at
 * once (a Durable Object call can fail for a moment, as when the object restarts). A confirmed
 * notice is deleted, unless a newer one for the box arrived meanwhile (its version moved on):
 * that one still needs its own delivery.
 */
export async function deliverHubNotices(env: NoticeEnv, notices: readonly HubNoticeRow[]): Promise<NoticeDelivery> {
  const delivered: HubNoticeRow[] = [];
  const pending: HubNoticeRow[] = [];
  for (let start = 0; start < notices.length; start += HUBS_AT_ONCE) {
    const chunk = notices.slice(start, start + HUBS_AT_ONCE);
    const confirmed = await Promise.all(chunk.map((notice) => refreshHub(env, notice.deviceId)));
    for (const [index, notice] of chunk.entries()) (confirmed[index] ? delivered : pending).push(notice);
  }
  if (delivered.length > 0) {
    const d1 = env.DB;
    try {
      await d1.batch(
        delivered.map(({ deviceId, version }) =>
          d1.prepare("DELETE FROM hub_notices WHERE device_id = ?1 AND version = ?2").bind(deviceId, version),
        ),
      );
    } catch (error) {
      // The hubs have their copies; a notice left behind only makes the cron ask once more.
      console.error("Could not delete delivered hub notices; the cron delivers them again", error);
    }
  }
  return { delivered, pending };
}

/** Whether the hub confirmed its new copy; a failed call or a refusal is asked once more at once. */
async function refreshHub(env: NoticeEnv, deviceId: string): Promise<boolean> {
  const refresh = async () => {
    const answer = await deviceHub(env, deviceId).refreshAccess();
    if (!answer.ok) throw new Error(`the hub answered ${answer.code}`);
  };
  try {
    await refresh().catch(refresh);
    return true;
  } catch (error) {
    console.error(`DeviceHub ${deviceId}: did not confirm who may use the box; the cron retries`, error);
    return false;
  }
}

/** At most this many notices per run: a cron run or a call of POST /api/hub-notices stays bounded. */
const NOTICES_PER_RUN = 200;

/** Delivers the pending notices, oldest first (the cron trigger, and the operators' CLI through its route). */
export async function deliverPendingHubNotices(env: NoticeEnv): Promise<NoticeDelivery> {
  const { results } = await env.DB.prepare(
    "SELECT device_id AS deviceId, version FROM hub_notices ORDER BY asked_at, device_id LIMIT ?1",
  )
    .bind(NOTICES_PER_RUN)
    .all<HubNoticeRow>();
  return deliverHubNotices(env, results);
}

/** The admin API's words (in English, as all its words) for a change saved but not yet confirmed by the hub. */
export const HUB_NOT_CONFIRMED =
  "The pump's hub has not confirmed it yet: it is asked again every minute, and pages that lost access close when it does.";

/** True when every notice of a change reached its hub: what an answer may then say. */
export function allConfirmed(delivery: NoticeDelivery): boolean {
  return delivery.pending.length === 0;
}
