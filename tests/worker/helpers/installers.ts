// Installers' boxes in tests: a labelled box and its claim, and a box an installer linked, with
// the test playing the box, as commissioning tests need it.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { generateClaimCode, hashClaimCode } from "../../../common/claim-codes.ts";
import { getDb } from "../../../worker/db/client.ts";
import { boxClaims, devices, installations, installers } from "../../../worker/db/schema.ts";
import { createUser, loginToken } from "./accounts.ts";
import { farmerWithDevice } from "./boxes.ts";
import { postJson } from "./http.ts";
import { connectDevice, type DevicePeer } from "./sockets.ts";

/** What the box measured in a good test run: the test's answer to every `testRun`. */
export const MEASURED = { voltages: [412, 409, 415], surgeCurrent: 53.1, runningCurrent: 8.86, ranSeconds: 5 };

/** A farmer's box an installer linked (as a claim leaves it), connected, with the test playing it. */
export async function linkedBox() {
  const farmer = await farmerWithDevice();
  const installer = await createUser();
  const db = getDb(env.DB);
  await db.insert(installers).values({ userId: installer.id, name: "Ramesh Electricals", createdAt: Date.now() });
  await db.insert(installations).values({
    deviceId: farmer.device.deviceId,
    installerUserId: installer.id,
    installerName: "Ramesh Electricals",
    installerMobileNo: installer.mobileNo,
    farmerUserId: farmer.user.id,
    installedAt: Date.now(),
  });
  const box = await connectDevice(farmer.device);
  return { farmer, installer, installerToken: await loginToken(installer), box, deviceId: farmer.device.deviceId };
}

/** The box answers the test run `id` as a good run does, with `MEASURED`. */
export function answerTestRun(box: DevicePeer, id: string): void {
  box.send({ type: "testRunResult", id, ok: true, relay: "off", ...MEASURED });
}

/** The box's link drops, and the hub has had the moment it takes to see it. */
export async function goOffline(box: DevicePeer): Promise<void> {
  box.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** The box refuses the run `id`, a test run or a dry-run check, as it does with a phase missing. */
export function refuseForMissingPhase(box: DevicePeer, type: "testRunResult" | "dryRunCheckResult", id: string): void {
  box.send({ type, id, ok: false, relay: "off", voltages: [412, 0, 415], error: "A phase is missing" });
}

/** What `npm run device -- label` stores: the hash of a fresh claim code; the code itself is on the sticker. */
export async function labelBox(deviceId: string): Promise<string> {
  const code = generateClaimCode();
  await getDb(env.DB)
    .insert(boxClaims)
    .values({ deviceId, codeHash: await hashClaimCode(deviceId, code), createdAt: Date.now() });
  return code;
}

/** POST /api/installer/claims as the holder of `token`: the sticker's box and code, and the farmer's number. */
export function claim(token: string, box: { deviceId: string; claimCode: string }, farmerMobileNo: string) {
  return postJson("/api/installer/claims", { deviceId: box.deviceId, claimCode: box.claimCode, farmerMobileNo }, token);
}

/** Who owns the box now, null for nobody. */
export async function ownerOf(deviceId: string): Promise<number | null> {
  return (await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, deviceId) }))?.ownerUserId ?? null;
}
