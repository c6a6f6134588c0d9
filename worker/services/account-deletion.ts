// Deleting an account: the one way it is done, for the admin API (DELETE /api/admin/delete-user)
// and whatever deletes an account later (a farmer deleting their own). One D1 batch deletes it,
// unlinks its boxes, removes their people and the number's own memberships, and leaves a notice
// for each box's hub (worker/db/admin-users.ts); then the sockets its sessions opened close and
// the hubs are told, which closes the sockets of the people who used its boxes. Whatever a hub
// does not take now, the cron trigger asks again.
import { closeSessionSockets } from "../auth/session-sockets.ts";
import { deleteUserAccount } from "../db/admin-users.ts";
import { getDb } from "../db/client.ts";
import { allConfirmed, deliverHubNotices, type NoticeEnv } from "./hub-notices.ts";

export type AccountDeletion = { outcome: "notFound" | "lastAdmin" } | { outcome: "deleted"; hubConfirmed: boolean };

export async function deleteAccount(env: NoticeEnv, mobileNo: string): Promise<AccountDeletion> {
  const deletion = await deleteUserAccount(getDb(env.DB), mobileNo, Date.now());
  if (deletion.outcome !== "deleted") return deletion;
  const [, delivery] = await Promise.all([
    closeSessionSockets(env, { userId: deletion.userId }, "accessRemoved"),
    deliverHubNotices(env, deletion.notices),
  ]);
  return { outcome: "deleted", hubConfirmed: allConfirmed(delivery) };
}
