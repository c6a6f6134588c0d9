// Accounts for the integration tests, signed in with the API client every program uses
// (common/api-client.ts; bearer tokens here, as a phone app would).
import { randomInt } from "node:crypto";
import { ApiClient } from "../../common/api-client.ts";
import { pumpMemberResponseSchema } from "../../common/api-responses/pumps.ts";
import { accessChangeResponseSchema } from "../../common/api-responses/refusals.ts";
import { hashPassword } from "../../common/credentials.ts";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";

/** A new farmer, registered and signed in through the API. */
export async function registerFarmer(
  baseUrl: string,
  mobileNo: string,
  password = "integration-password",
): Promise<ApiClient> {
  const client = new ApiClient(baseUrl);
  await client.register(mobileNo, password);
  await client.logIn(mobileNo, password);
  return client;
}

/**
 * Marks a number verified straight in the local database, as if its holder had entered the code
 * registration sent: these Workers have no phone to read it from (verified-numbers-against-worker
 * goes through one). An invitation needs a verified number.
 */
export async function markNumberVerified(persistTo: string, mobileNo: string): Promise<void> {
  await executeLocalSql(
    persistTo,
    `UPDATE users SET number_verified_at = ${Date.now()} WHERE mobile_no = ${sqlText(mobileNo)};`,
  );
}

/** There is no admin sign-up: make one straight in the local database, as an operator would. */
export async function createAdmin(baseUrl: string, persistTo: string, mobileNo: string): Promise<ApiClient> {
  const password = "integration-admin-password";
  await executeLocalSql(
    persistTo,
    `INSERT INTO users (mobile_no, password_hash, is_admin, created_at) VALUES (${sqlText(mobileNo)}, ${sqlText(await hashPassword(password))}, 1, ${Date.now()});`,
  );
  const admin = new ApiClient(baseUrl);
  await admin.logIn(mobileNo, password, "admin");
  return admin;
}

/**
 * A number nobody in this run has: the files share one Worker and database, each in a process of
 * its own, so no counter could be shared; among 900 million numbers, a run's few hundred meet
 * about once in ten thousand runs.
 */
export function uniqueMobileNo(): string {
  return `8${randomInt(100_000_000, 1_000_000_000)}`;
}

/**
 * `owner` invites a new farmer to `deviceId` as `role` (the number verified first: an invitation
 * waits for one); with `accept`, the farmer accepts.
 */
export async function invitedFarmer(
  worker: { url: string; persistTo: string },
  owner: ApiClient,
  deviceId: string,
  role: "operator" | "viewer",
  { label = role, accept = true }: { label?: string; accept?: boolean } = {},
): Promise<{ client: ApiClient; mobileNo: string }> {
  const mobileNo = uniqueMobileNo();
  const client = await registerFarmer(worker.url, mobileNo);
  await markNumberVerified(worker.persistTo, mobileNo);
  await owner.post(`/api/pumps/${deviceId}/members`, pumpMemberResponseSchema, { mobileNo, role, label });
  if (accept) await client.post(`/api/pumps/${deviceId}/invitation`, accessChangeResponseSchema, { answer: "accept" });
  return { client, mobileNo };
}
