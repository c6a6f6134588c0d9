// The installer's visit through the API, as a phone and an attacker call it (docs/user-area.md,
// "The installer's visit"; docs/decisions/033-installers.md), with the farmer's SMS read from the
// tests' phone (the local provider): an admin makes only a verified number an installer and gives
// them boxes; the installer claims one with its sticker's code and the farmer's SMS code, which
// links it to the farmer through the relink; a claim code works once, whoever races; the
// hand-over ends the installer's access, and the farmer sees who installed the pump.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import { codeRequestResponseSchema } from "../../../common/api-responses/accounts.ts";
import {
  claimLinkedResponseSchema,
  installationResponseSchema,
  installerBoxesResponseSchema,
  installerResponseSchema,
  stockResponseSchema,
} from "../../../common/api-responses/installers.ts";
import { getDb } from "../../../worker/db/client.ts";
import { boxClaims, devices, installations, users } from "../../../worker/db/schema.ts";
import { adminToken, codeSentTo, createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { provisionDevice } from "../helpers/boxes.ts";
import { api, getJson, getOk, postJson, refusalCode } from "../helpers/http.ts";
import { claim, labelBox, ownerOf } from "../helpers/installers.ts";

/** An installer with one labelled box in stock, signed in. */
async function installerWithBox(admin: string, name = "Ramesh Electricals") {
  const user = await createUser();
  const made = await postJson("/api/admin/installers", { mobileNo: user.mobileNo, name }, admin);
  expect(made.status).toBe(201);
  const { deviceId } = await provisionDevice(null);
  const stock = await postJson(`/api/admin/installers/${user.id}/stock`, { deviceIds: [deviceId] }, admin);
  expect((await readJson(stock, stockResponseSchema)).added).toEqual([deviceId]);
  return { user, token: await loginToken(user), deviceId, claimCode: await labelBox(deviceId) };
}

async function claimAndCode(installer: { token: string; deviceId: string; claimCode: string }, farmerMobileNo: string) {
  const since = Date.now();
  const started = await claim(installer.token, installer, farmerMobileNo);
  expect(started.status).toBe(202);
  await readJson(started, codeRequestResponseSchema);
  return codeSentTo(farmerMobileNo, since);
}

function confirm(installer: { token: string; deviceId: string }, farmerMobileNo: string, code: string) {
  return postJson(
    "/api/installer/claims/confirm",
    { deviceId: installer.deviceId, farmerMobileNo, code },
    installer.token,
  );
}

describe("installer accounts", () => {
  it("are made by an admin from a verified number only, and only an admin makes one", async () => {
    const admin = await adminToken();
    const unverified = await createUser({ verified: false });
    const refused = await postJson("/api/admin/installers", { mobileNo: unverified.mobileNo, name: "A" }, admin);
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("numberNotVerified");

    const farmer = await createUser();
    const byFarmer = await postJson(
      "/api/admin/installers",
      { mobileNo: farmer.mobileNo, name: "A" },
      await loginToken(farmer),
    );
    expect(byFarmer.status).toBe(403);

    const made = await postJson("/api/admin/installers", { mobileNo: farmer.mobileNo, name: "Ramesh" }, admin);
    expect((await readJson(made, installerResponseSchema)).installer).toEqual({
      userId: farmer.id,
      mobileNo: farmer.mobileNo,
      name: "Ramesh",
      region: null,
    });
  });

  it("are the only accounts the installer's calls serve", async () => {
    const farmer = await createUser();
    const response = await getJson("/api/installer/boxes", await loginToken(farmer));
    expect(response.status).toBe(403);
    expect(await refusalCode(response)).toBe("notAnInstaller");
    expect((await getJson("/api/installer/boxes")).status).toBe(401);
  });

  it("get only boxes without an owner, none from another installer's stock", async () => {
    const admin = await adminToken();
    const first = await installerWithBox(admin);
    const other = await createUser();
    await postJson("/api/admin/installers", { mobileNo: other.mobileNo, name: "B" }, admin);
    const owned = await provisionDevice((await createUser()).id);
    const answer = await postJson(
      `/api/admin/installers/${other.id}/stock`,
      { deviceIds: [first.deviceId, owned.deviceId] },
      admin,
    );
    expect((await readJson(answer, stockResponseSchema)).added).toEqual([]);
  });
});

describe("scan to link", () => {
  it("links the box to the farmer's number with the farmer's SMS code, making the farmer a verified account", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmerMobileNo = uniqueMobileNo();
    const sms = await claimAndCode(installer, farmerMobileNo);
    // The farmer is told who is linking a pump to their number.
    expect(sms.text).toContain(installer.user.mobileNo);

    const linked = await confirm(installer, farmerMobileNo, sms.code);
    expect(linked.status).toBe(200);
    expect(await readJson(linked, claimLinkedResponseSchema)).toMatchObject({ deviceId: installer.deviceId });

    const farmer = await getDb(env.DB).query.users.findFirst({ where: eq(users.mobileNo, farmerMobileNo) });
    expect(farmer?.numberVerifiedAt).not.toBeNull();
    expect(await ownerOf(installer.deviceId)).toBe(farmer!.id);
    const boxes = await getOk("/api/installer/boxes", installer.token, installerBoxesResponseSchema);
    expect(boxes.stock).toEqual([]);
    expect(boxes.installed.map((box) => [box.deviceId, box.handedOverAt])).toEqual([[installer.deviceId, null]]);
  });

  it("links to the farmer's existing verified account as it is; an unverified one is taken back (take-back.test.ts)", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmer = await createUser();
    const farmerToken = await loginToken(farmer);
    const sms = await claimAndCode(installer, farmer.mobileNo);
    expect((await confirm(installer, farmer.mobileNo, sms.code)).status).toBe(200);
    expect(await ownerOf(installer.deviceId)).toBe(farmer.id);
    // The farmer's own session goes on, and finds the box.
    expect((await getJson("/api/pumps", farmerToken)).status).toBe(200);
  });

  it("refuses a used claim code, a wrong one, and a box from someone else's stock", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmerMobileNo = uniqueMobileNo();
    const sms = await claimAndCode(installer, farmerMobileNo);
    expect((await confirm(installer, farmerMobileNo, sms.code)).status).toBe(200);

    const again = await claim(installer.token, installer, uniqueMobileNo());
    expect(again.status).toBe(409);
    expect(await refusalCode(again)).toBe("claimCodeUsed");
    expect(await ownerOf(installer.deviceId)).not.toBeNull();

    const second = await installerWithBox(admin);
    const wrong = await claim(second.token, { deviceId: second.deviceId, claimCode: "2222222222" }, uniqueMobileNo());
    expect(wrong.status).toBe(400);
    expect(await refusalCode(wrong)).toBe("wrongClaimCode");

    // The first installer holds the right code of the second's box: still not theirs to claim.
    const notTheirs = await claim(installer.token, second, uniqueMobileNo());
    expect(notTheirs.status).toBe(409);
    expect(await refusalCode(notTheirs)).toBe("boxNotInStock");
  });

  it("links once when the confirmation is sent several times at once", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmerMobileNo = uniqueMobileNo();
    const sms = await claimAndCode(installer, farmerMobileNo);
    const answers = await Promise.all([1, 2, 3].map(() => confirm(installer, farmerMobileNo, sms.code)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    const rows = await getDb(env.DB).select().from(installations).where(eq(installations.deviceId, installer.deviceId));
    expect(rows).toHaveLength(1);
  });

  it("answers a repeat of its own successful confirmation as the success it was, once linked; nobody else's", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmerMobileNo = uniqueMobileNo();
    const sms = await claimAndCode(installer, farmerMobileNo);
    const first = await confirm(installer, farmerMobileNo, sms.code);
    expect(first.status).toBe(200);
    const linked = await readJson(first, claimLinkedResponseSchema);

    // A slow line sends the same confirmation again: the same answer, nothing written twice.
    const repeat = await confirm(installer, farmerMobileNo, sms.code);
    expect(repeat.status).toBe(200);
    expect(await readJson(repeat, claimLinkedResponseSchema)).toEqual(linked);
    const rows = await getDb(env.DB).select().from(installations).where(eq(installations.deviceId, installer.deviceId));
    expect(rows).toHaveLength(1);

    // Not for another number, nor for another installer.
    expect(await refusalCode(await confirm(installer, uniqueMobileNo(), sms.code))).toBe("claimCodeUsed");
    const second = await installerWithBox(admin);
    const stranger = await confirm({ token: second.token, deviceId: installer.deviceId }, farmerMobileNo, sms.code);
    expect(stranger.status).toBe(409);
  });

  it("writes nothing when the box was linked by someone else between the scan and the code", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmerMobileNo = uniqueMobileNo();
    const sms = await claimAndCode(installer, farmerMobileNo);
    const other = await createUser();
    await getDb(env.DB).update(devices).set({ ownerUserId: other.id }).where(eq(devices.id, installer.deviceId));

    const refused = await confirm(installer, farmerMobileNo, sms.code);
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("claimCodeUsed");
    expect(await ownerOf(installer.deviceId)).toBe(other.id);
    const claim = await getDb(env.DB).query.boxClaims.findFirst({ where: eq(boxClaims.deviceId, installer.deviceId) });
    expect(claim?.usedAt).toBeNull();
    expect(
      await getDb(env.DB).select().from(installations).where(eq(installations.deviceId, installer.deviceId)),
    ).toEqual([]);
  });

  it("refuses a confirmation for another number than the one scanned for, and a wrong SMS code", async () => {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmerMobileNo = uniqueMobileNo();
    const sms = await claimAndCode(installer, farmerMobileNo);
    const otherNumber = await confirm(installer, uniqueMobileNo(), sms.code);
    expect(await refusalCode(otherNumber)).toBe("noPendingClaim");
    const wrong = await confirm(installer, farmerMobileNo, sms.code === "000000" ? "111111" : "000000");
    expect(wrong.status).toBe(400);
    expect(await refusalCode(wrong)).toBe("wrongCode");
    expect(await ownerOf(installer.deviceId)).toBeNull();
  });
});

describe("hand-over", () => {
  async function linkedBox() {
    const admin = await adminToken();
    const installer = await installerWithBox(admin);
    const farmer = await createUser();
    const sms = await claimAndCode(installer, farmer.mobileNo);
    expect((await confirm(installer, farmer.mobileNo, sms.code)).status).toBe(200);
    return { installer, farmer, farmerToken: await loginToken(farmer) };
  }

  it("ends the installer's access: the hand-over itself, the pump's calls and its socket are refused", async () => {
    const { installer } = await linkedBox();
    const handOver = () => postJson(`/api/installer/boxes/${installer.deviceId}/hand-over`, {}, installer.token);
    expect((await handOver()).status).toBe(200);
    const again = await handOver();
    expect(again.status).toBe(403);
    expect(await refusalCode(again)).toBe("handedOver");

    expect((await getJson(`/api/pumps/${installer.deviceId}/status`, installer.token)).status).toBe(404);
    const socket = await api(`/api/realtime?deviceId=${installer.deviceId}`, {
      headers: { Upgrade: "websocket", Authorization: `Bearer ${installer.token}` },
    });
    expect(socket.status).toBe(404);
    expect(socket.webSocket).toBeNull();
  });

  it("shows the farmer who installed the pump and how to reach them; their 'seen' hands it over", async () => {
    const { installer, farmerToken } = await linkedBox();
    const view = await getOk(`/api/pumps/${installer.deviceId}/installation`, farmerToken, installationResponseSchema);
    expect(view.installation).toMatchObject({
      installerName: "Ramesh Electricals",
      installerMobileNo: installer.user.mobileNo,
      handedOverAt: null,
    });
    expect((await postJson(`/api/pumps/${installer.deviceId}/installation/seen`, {}, farmerToken)).status).toBe(200);
    const after = await getOk(`/api/pumps/${installer.deviceId}/installation`, farmerToken, installationResponseSchema);
    expect(after.installation?.handedOverAt).not.toBeNull();
    const refused = await postJson(`/api/installer/boxes/${installer.deviceId}/hand-over`, {}, installer.token);
    expect(await refusalCode(refused)).toBe("handedOver");
    // Nobody else learns who installed a pump.
    const stranger = await loginToken(await createUser());
    expect((await getJson(`/api/pumps/${installer.deviceId}/installation`, stranger)).status).toBe(404);
  });
});
