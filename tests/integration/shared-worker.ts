// The integration project's one local Worker and phone (shared-worker.global-setup.ts), as a test
// file reaches them: the Worker's address and database, the local provider's client, the admin,
// the webhook secret to sign with, and what the Worker has logged.
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { ApiClient } from "../../common/api-client.ts";
import { type LocalGatewayClient, localGatewayClient } from "../../payments-sim/client.ts";
import { type LocalProviderClient, localProviderClient } from "../../telephony-sim/client.ts";
import type { SharedWorker } from "./shared-worker.global-setup.ts";

/** Where a Worker answers and which database it serves. */
export type WorkerAddress = { url: string; port: number; persistTo: string };

export function sharedWorker(): SharedWorker & {
  worker: WorkerAddress;
  phone: LocalProviderClient;
  gateway: LocalGatewayClient;
} {
  const shared = inject("sharedWorker");
  return {
    ...shared,
    worker: { url: shared.url, port: shared.port, persistTo: shared.persistTo },
    phone: localProviderClient(shared.phoneUrl),
    gateway: localGatewayClient(shared.gatewayUrl),
  };
}

/** The shared Worker's admin, signed in (a session of this file's own). */
export async function sharedAdmin(): Promise<ApiClient> {
  const { url, adminAccount } = inject("sharedWorker");
  const client = new ApiClient(url);
  await client.logIn(adminAccount.mobileNo, adminAccount.password, "admin");
  return client;
}

/** What the shared Worker and its phone have logged so far (the phone's lines start with "[phone] "). */
export function sharedWorkerLog(): string {
  return readFileSync(inject("sharedWorker").logFile, "utf8");
}
