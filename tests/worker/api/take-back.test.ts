// A box reaches only the farmer who proved the number (docs/security.md, "Taking an account
// back"), tested as the attack goes: a neighbour registers the farmer's number first, with a
// password he knows, and lets his own verified number operate a pump the account already has.
// The installer then claims a box for that number, and the farmer reads the SMS code aloud. The
// code takes the account back in the claim's own batch: the neighbour's session and password stop
// working before the box is his to see, and the operator he added goes. A new password by a code
// takes an account back alike; the people an account added once its holder proved the number in
// their own session stay. A claim refused at the code writes nothing, no account either.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { codeRequestResponseSchema } from "../../../common/api-responses/accounts.ts";
import { stockResponseSchema } from "../../../common/api-responses/installers.ts";
import { getDb } from "../../../worker/db/client.ts";
import { deviceMembers, devices, installerStock, users } from "../../../worker/db/schema.ts";
import { adminToken, codeSentTo, createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { provisionDevice } from "../helpers/boxes.ts";
import { api, getJson, postJson, refusalCode } from "../helpers/http.ts";
import { claim, labelBox, ownerOf } from "../helpers/installers.ts";
import { acceptInvitation, invite, pumpsOf } from "../helpers/sharing.ts";

const SQUATTER_PASSWORD = "padosi-ka-2026";

/** A neighbour registers `mobileNo` through the API with a password he chose, and signs in. */
async function squatterRegisters(mobileNo: string) {
  const registered = Date.now();
  expect((await postJson("/api/auth/register", { mobileNo, password: SQUATTER_PASSWORD })).status).toBe(201);
  // The registration's own code goes to the farmer's phone; the neighbour never sees it.
  await codeSentTo(mobileNo, registered);
  const account = (await getDb(env.DB).query.users.findFirst({ where: eq(users.mobileNo, mobileNo) }))!;
  const user = { id: account.id, mobileNo, password: SQUATTER_PASSWORD };
  return { user, token: await loginToken(user) };
}

/** An admin gives the account a box (as support might), and its holder lets `operator` switch it. */
async function pumpSharedWith(ownerId: number, ownerToken: string) {
  const device = await provisionDevice(ownerId);
  const operator = await createUser();
  expect(
    (await invite(device.deviceId, { mobileNo: operator.mobileNo, role: "operator", label: "Bhai" }, ownerToken))
      .status,
  ).toBe(201);
  await acceptInvitation(device.deviceId, operator);
  return { deviceId: device.deviceId, operator, operatorToken: await loginToken(operator) };
}

/** An installer with one labelled box in stock, signed in. */
async function installerWithBox() {
  const admin = await adminToken();
  const user = await createUser();
  expect((await postJson("/api/admin/installers", { mobileNo: user.mobileNo, name: "Ramesh" }, admin)).status).toBe(
    201,
  );
  const { deviceId } = await provisionDevice(null);
  const stock = await postJson(`/api/admin/installers/${user.id}/stock`, { deviceIds: [deviceId] }, admin);
  expect((await readJson(stock, stockResponseSchema)).added).toEqual([deviceId]);
  return { user, token: await loginToken(user), deviceId, claimCode: await labelBox(deviceId) };
}

/** Step 1 of the claim, and the code the farmer reads aloud off their phone. */
async function claimAndCode(installer: Awaited<ReturnType<typeof installerWithBox>>, farmerMobileNo: string) {
  const since = Date.now();
  const started = await claim(installer.token, installer, farmerMobileNo);
  expect(started.status).toBe(202);
  await readJson(started, codeRequestResponseSchema);
  return (await codeSentTo(farmerMobileNo, since)).code;
}

const confirm = (installer: { token: string; deviceId: string }, farmerMobileNo: string, code: string) =>
  postJson("/api/installer/claims/confirm", { deviceId: installer.deviceId, farmerMobileNo, code }, installer.token);

const switchMotor = (deviceId: string, token: string) =>
  postJson(`/api/pumps/${deviceId}/motor`, { action: "on" }, token);

async function membersOfBox(deviceId: string) {
  return getDb(env.DB).select().from(deviceMembers).where(eq(deviceMembers.deviceId, deviceId));
}

describe("an installer's claim for a number someone else registered", () => {
  it("takes the account back with the farmer's code: the neighbour is out before the box is linked, his operator goes", async () => {
    const farmerMobileNo = uniqueMobileNo();
    const squatter = await squatterRegisters(farmerMobileNo);
    const earlier = await pumpSharedWith(squatter.user.id, squatter.token);
    expect((await pumpsOf(earlier.operatorToken)).pumps.map((pump) => pump.deviceId)).toContain(earlier.deviceId);

    const installer = await installerWithBox();
    const code = await claimAndCode(installer, farmerMobileNo);
    expect((await confirm(installer, farmerMobileNo, code)).status).toBe(200);

    // The box is the account's, and the account is the farmer's now: proven, its password one nobody knows.
    expect(await ownerOf(installer.deviceId)).toBe(squatter.user.id);
    const account = (await getDb(env.DB).query.users.findFirst({ where: eq(users.id, squatter.user.id) }))!;
    expect(account.numberVerifiedAt).not.toBeNull();
    // The neighbour: his session ended, his password refused, so he neither lists nor switches the pump.
    expect((await getJson("/api/pumps", squatter.token)).status).toBe(401);
    expect((await switchMotor(installer.deviceId, squatter.token)).status).toBe(401);
    const login = await postJson("/api/auth/login", { mobileNo: farmerMobileNo, password: SQUATTER_PASSWORD });
    expect(login.status).toBe(401);
    // The operator he added while the number was unproven is gone, from D1 and from what he may switch.
    expect(await membersOfBox(earlier.deviceId)).toEqual([]);
    expect((await pumpsOf(earlier.operatorToken)).pumps).toEqual([]);
    expect((await switchMotor(earlier.deviceId, earlier.operatorToken)).status).toBe(404);

    // The farmer signs in with a code (the number is proven) and finds the box.
    const asked = Date.now();
    expect((await postJson("/api/auth/codes", { purpose: "signIn", mobileNo: farmerMobileNo })).status).toBe(200);
    const signIn = await postJson("/api/auth/login-code", {
      mobileNo: farmerMobileNo,
      code: (await codeSentTo(farmerMobileNo, asked)).code,
    });
    expect(signIn.status).toBe(200);
    const { token } = (await signIn.json()) as { token: string };
    expect((await pumpsOf(token)).pumps.map((pump) => pump.deviceId)).toEqual(
      expect.arrayContaining([installer.deviceId, earlier.deviceId]),
    );
  });

  it("writes nothing when refused at the code: no account for a new number, no take-back of an existing one", async () => {
    const installer = await installerWithBox();
    const newNumber = uniqueMobileNo();
    const code = await claimAndCode(installer, newNumber);
    // The box is linked by an admin between the scan and the code.
    const other = await createUser();
    await getDb(env.DB).update(devices).set({ ownerUserId: other.id }).where(eq(devices.id, installer.deviceId));
    const refused = await confirm(installer, newNumber, code);
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("claimCodeUsed");
    expect(await getDb(env.DB).query.users.findFirst({ where: eq(users.mobileNo, newNumber) })).toBeUndefined();

    // The box taken back from the installer's stock instead, for a number a neighbour holds: his
    // account stays as it was (the farmer takes it back with "forgot password", or the next claim).
    const second = await installerWithBox();
    const takenNumber = uniqueMobileNo();
    const squatter = await squatterRegisters(takenNumber);
    const secondCode = await claimAndCode(second, takenNumber);
    await getDb(env.DB).delete(installerStock).where(eq(installerStock.deviceId, second.deviceId));
    const notInStock = await confirm(second, takenNumber, secondCode);
    expect(notInStock.status).toBe(409);
    expect(await refusalCode(notInStock)).toBe("boxNotInStock");
    expect((await getJson("/api/pumps", squatter.token)).status).toBe(200);
    const account = (await getDb(env.DB).query.users.findFirst({ where: eq(users.id, squatter.user.id) }))!;
    expect(account.numberVerifiedAt).toBeNull();
  });
});

describe("a new password by a code", () => {
  it("takes the account back alike: the people added while the number was unproven go, those added after it was proven stay", async () => {
    const mobileNo = uniqueMobileNo();
    const squatter = await squatterRegisters(mobileNo);
    const earlier = await pumpSharedWith(squatter.user.id, squatter.token);

    const asked = Date.now();
    expect((await postJson("/api/auth/codes", { purpose: "resetPassword", mobileNo })).status).toBe(200);
    const code = (await codeSentTo(mobileNo, asked)).code;
    const reset = await postJson("/api/auth/reset-password", { mobileNo, code, newPassword: "mera-apna-2026" });
    expect(reset.status).toBe(200);
    expect(await membersOfBox(earlier.deviceId)).toEqual([]);
    expect((await switchMotor(earlier.deviceId, earlier.operatorToken)).status).toBe(404);
    expect((await getJson("/api/pumps", squatter.token)).status).toBe(401);

    // The holder, signed in with their own password and proven, adds someone: a later reset keeps them.
    const { token } = (await reset.json()) as { token: string };
    const later = await pumpSharedWith(squatter.user.id, token);
    const again = Date.now();
    expect((await postJson("/api/auth/codes", { purpose: "resetPassword", mobileNo })).status).toBe(200);
    const secondReset = await postJson("/api/auth/reset-password", {
      mobileNo,
      code: (await codeSentTo(mobileNo, again)).code,
      newPassword: "mera-apna-2027",
    });
    expect(secondReset.status).toBe(200);
    expect((await membersOfBox(later.deviceId)).map((member) => member.mobileNo)).toEqual([later.operator.mobileNo]);
  });

  it("keeps the people an unproven owner added once the owner proves the number in their own session", async () => {
    const owner = await createUser({ verified: false });
    const ownerToken = await loginToken(owner);
    const shared = await pumpSharedWith(owner.id, ownerToken);
    const asked = Date.now();
    expect((await postJson("/api/auth/codes", { purpose: "verifyNumber", mobileNo: owner.mobileNo })).status).toBe(200);
    const code = (await codeSentTo(owner.mobileNo, asked)).code;
    expect((await postJson("/api/auth/verify-number", { code }, ownerToken)).status).toBe(200);
    const [member] = await membersOfBox(shared.deviceId);
    expect(member?.addedUnverified).toBe(false);
    // A take-back now (a reset by a code) keeps them: the holder vouched for them.
    const again = Date.now();
    expect((await postJson("/api/auth/codes", { purpose: "resetPassword", mobileNo: owner.mobileNo })).status).toBe(
      200,
    );
    const reset = await postJson("/api/auth/reset-password", {
      mobileNo: owner.mobileNo,
      code: (await codeSentTo(owner.mobileNo, again)).code,
      newPassword: "mera-apna-2026",
    });
    expect(reset.status).toBe(200);
    expect(await membersOfBox(shared.deviceId)).toHaveLength(1);
    // Through the API the operator still lists it.
    expect((await pumpsOf(shared.operatorToken)).pumps.map((pump) => pump.deviceId)).toEqual([shared.deviceId]);
    expect((await api("/api/pumps")).status).toBe(401);
  });
});
