// An installer's region and the taking back of stock, through the API as an admin and an attacker
// call it (docs/decisions/035-installer-regions.md, docs/admin-area.md "Installers"): an installer
// given a region claims that region's unlinked boxes exactly as their stock; a box of another
// region, or in another installer's stock, is refused; a region changed or a box taken back takes
// effect at once, even between the sticker and the farmer's code; the hand-over still ends access.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../common/api-client.ts";
import {
  boxRegionResponseSchema,
  installerBoxesResponseSchema,
  installerListResponseSchema,
  installerRegionResponseSchema,
  stockReturnResponseSchema,
} from "../../../common/api-responses/installers.ts";
import { getDb } from "../../../worker/db/client.ts";
import { adminAudit, boxClaims, devices, installations } from "../../../worker/db/schema.ts";
import { adminToken, codeSentTo, createUser, loginToken, uniqueMobileNo } from "../helpers/accounts.ts";
import { provisionDevice, provisionThroughApi } from "../helpers/boxes.ts";
import { deleteJson, getOk, postJson, putJson, refusalCode } from "../helpers/http.ts";
import { claim, labelBox, ownerOf } from "../helpers/installers.ts";

/** A region of this test alone: the workers project shares one D1 across its files. */
const uniqueRegion = (name: string) => `${name} ${crypto.randomUUID().slice(0, 8)}`;

/** What `npm run device -- label` stores: the hash of a fresh claim code; the code is on the sticker. */
async function labelledBox(): Promise<{ deviceId: string; claimCode: string }> {
  const { deviceId } = await provisionDevice(null);
  return { deviceId, claimCode: await labelBox(deviceId) };
}

async function makeInstaller(admin: string, region: string | null) {
  const user = await createUser();
  expect((await postJson("/api/admin/installers", { mobileNo: user.mobileNo, name: "Ramesh" }, admin)).status).toBe(
    201,
  );
  if (region !== null) await setRegion(admin, user.id, region);
  return { user, token: await loginToken(user) };
}

async function setRegion(admin: string, userId: number, region: string | null) {
  const answer = await putJson(`/api/admin/installers/${userId}/region`, { region }, admin);
  expect(answer.status).toBe(200);
  return readJson(answer, installerRegionResponseSchema);
}

async function tag(admin: string, deviceIds: string[], region: string | null) {
  const answer = await putJson("/api/admin/box-regions", { deviceIds, region }, admin);
  expect(answer.status).toBe(200);
  return (await readJson(answer, boxRegionResponseSchema)).tagged;
}

function confirm(token: string, deviceId: string, farmerMobileNo: string, code: string) {
  return postJson("/api/installer/claims/confirm", { deviceId, farmerMobileNo, code }, token);
}

async function installationOf(deviceId: string) {
  return getDb(env.DB).query.installations.findFirst({ where: eq(installations.deviceId, deviceId) });
}

describe("an installer's region", () => {
  it("lets them see and claim their region's unlinked boxes as their stock, and no other region's", async () => {
    const admin = await adminToken();
    const regionA = uniqueRegion("Barabanki");
    const regionB = uniqueRegion("Sitapur");
    const installer = await makeInstaller(admin, regionA);
    const ofA = await labelledBox();
    const ofB = await labelledBox();
    expect(await tag(admin, [ofA.deviceId], regionA)).toEqual([ofA.deviceId]);
    expect(await tag(admin, [ofB.deviceId], regionB)).toEqual([ofB.deviceId]);

    const boxes = await getOk("/api/installer/boxes", installer.token, installerBoxesResponseSchema);
    expect(boxes.stock).toEqual([{ deviceId: ofA.deviceId, kind: "3phase", via: "region" }]);

    // Region B's box, with its right sticker code: not theirs.
    const refused = await claim(installer.token, ofB, uniqueMobileNo());
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("boxNotInStock");
    expect(
      await getDb(env.DB).query.boxClaims.findFirst({ where: eq(boxClaims.deviceId, ofB.deviceId) }),
    ).toMatchObject({ pendingMobileNo: null, pendingByUserId: null });

    const farmerMobileNo = uniqueMobileNo();
    const since = Date.now();
    expect((await claim(installer.token, ofA, farmerMobileNo)).status).toBe(202);
    const { code } = await codeSentTo(farmerMobileNo, since);
    expect((await confirm(installer.token, ofA.deviceId, farmerMobileNo, code)).status).toBe(200);
    expect(await ownerOf(ofA.deviceId)).not.toBeNull();
    expect((await installationOf(ofA.deviceId))?.installerUserId).toBe(installer.user.id);
    expect(await ownerOf(ofB.deviceId)).toBeNull();

    // The hand-over ends a region's box as it ends a stock box.
    expect((await postJson(`/api/installer/boxes/${ofA.deviceId}/hand-over`, {}, installer.token)).status).toBe(200);
    const after = await postJson(`/api/installer/boxes/${ofA.deviceId}/supply`, {}, installer.token);
    expect(after.status).toBe(403);
    expect(await refusalCode(after)).toBe("handedOver");
  });

  it("never reaches a box of the region that sits in another installer's stock", async () => {
    const admin = await adminToken();
    const region = uniqueRegion("Hardoi");
    const byRegion = await makeInstaller(admin, region);
    const holder = await makeInstaller(admin, null);
    const box = await labelledBox();
    await tag(admin, [box.deviceId], region);
    expect(
      (await postJson(`/api/admin/installers/${holder.user.id}/stock`, { deviceIds: [box.deviceId] }, admin)).status,
    ).toBe(200);
    const boxes = await getOk("/api/installer/boxes", byRegion.token, installerBoxesResponseSchema);
    expect(boxes.stock).toEqual([]);
    const refused = await claim(byRegion.token, box, uniqueMobileNo());
    expect(refused.status).toBe(409);
    expect(await refusalCode(refused)).toBe("boxNotInStock");
  });

  it("changes at once: a claim begun in the old region cannot be confirmed, and nothing is written", async () => {
    const admin = await adminToken();
    const regionA = uniqueRegion("Gonda");
    const installer = await makeInstaller(admin, regionA);
    const box = await labelledBox();
    await tag(admin, [box.deviceId], regionA);
    const farmerMobileNo = uniqueMobileNo();
    const since = Date.now();
    expect((await claim(installer.token, box, farmerMobileNo)).status).toBe(202);
    const { code } = await codeSentTo(farmerMobileNo, since);

    expect((await setRegion(admin, installer.user.id, uniqueRegion("Bahraich"))).installer.userId).toBe(
      installer.user.id,
    );
    const confirmed = await confirm(installer.token, box.deviceId, farmerMobileNo, code);
    expect(confirmed.status).toBe(409);
    expect(await refusalCode(confirmed)).toBe("boxNotInStock");
    expect(await ownerOf(box.deviceId)).toBeNull();
    expect(await installationOf(box.deviceId)).toBeUndefined();
    expect((await getOk("/api/installer/boxes", installer.token, installerBoxesResponseSchema)).stock).toEqual([]);

    // And back: the same region again gives the box back to them, at once.
    await setRegion(admin, installer.user.id, regionA);
    expect((await getOk("/api/installer/boxes", installer.token, installerBoxesResponseSchema)).stock).toHaveLength(1);
    // No region at all: their stock only.
    expect((await setRegion(admin, installer.user.id, "")).installer.region).toBeNull();
    expect((await getOk("/api/installer/boxes", installer.token, installerBoxesResponseSchema)).stock).toEqual([]);
  });

  it("is kept in one form, tags only boxes waiting for a farmer, and is an admin's alone to set", async () => {
    const admin = await adminToken();
    const installer = await makeInstaller(admin, null);
    const suffix = crypto.randomUUID().slice(0, 6);
    expect((await setRegion(admin, installer.user.id, `  Bara   BANKI ${suffix} `)).installer.region).toBe(
      `bara banki ${suffix}`,
    );
    const bad = await putJson(`/api/admin/installers/${installer.user.id}/region`, { region: "x'; DROP" }, admin);
    expect(bad.status).toBe(400);
    const noInstaller = await putJson(
      `/api/admin/installers/${(await createUser()).id}/region`,
      { region: "a" },
      admin,
    );
    expect(noInstaller.status).toBe(404);
    expect(await refusalCode(noInstaller)).toBe("notAnInstaller");

    const linked = await provisionDevice((await createUser()).id);
    const free = await provisionDevice(null);
    expect(await tag(admin, [linked.deviceId, free.deviceId, "SNC-ZZZZZZZZ"], "unnao")).toEqual([free.deviceId]);

    // An installer (or any farmer) calling the admin's region calls is refused before anything is read.
    const ownRegion = await putJson(
      `/api/admin/installers/${installer.user.id}/region`,
      { region: "x" },
      installer.token,
    );
    expect(ownRegion.status).toBe(403);
    const tagging = await putJson(
      "/api/admin/box-regions",
      { deviceIds: [free.deviceId], region: "x" },
      installer.token,
    );
    expect(tagging.status).toBe(403);
    expect((await getDb(env.DB).query.devices.findFirst({ where: eq(devices.id, free.deviceId) }))?.region).toBe(
      "unnao",
    );
  });
});

describe("a region given at provisioning", () => {
  it("puts a new box in that region's free boxes at once, and never a box provisioned for an owner", async () => {
    const admin = await adminToken();
    const region = uniqueRegion("Lakhimpur");
    const installer = await makeInstaller(admin, region);
    const { device } = await provisionThroughApi(admin, { kind: "3phase", region: ` ${region.toUpperCase()} ` });
    const boxes = await getOk("/api/installer/boxes", installer.token, installerBoxesResponseSchema);
    expect(boxes.stock).toEqual([{ deviceId: device.id, kind: "3phase", via: "region" }]);

    const owner = await createUser();
    const refused = await postJson(
      "/api/admin/devices",
      { kind: "3phase", ownerMobileNo: owner.mobileNo, region },
      admin,
    );
    expect(refused.status).toBe(400);
    expect(await refusalCode(refused)).toBe("invalidInput");
  });
});

describe("taking back stock", () => {
  it("takes back only the installer's unused boxes, and a claim waiting for the farmer's code dies with it", async () => {
    const admin = await adminToken();
    const installer = await makeInstaller(admin, null);
    const other = await makeInstaller(admin, null);
    const waiting = await labelledBox();
    const fitted = await labelledBox();
    const others = await labelledBox();
    await postJson(
      `/api/admin/installers/${installer.user.id}/stock`,
      { deviceIds: [waiting.deviceId, fitted.deviceId] },
      admin,
    );
    await postJson(`/api/admin/installers/${other.user.id}/stock`, { deviceIds: [others.deviceId] }, admin);

    // One box fitted (linked), one with a claim waiting for the farmer's code.
    const fittedFarmer = uniqueMobileNo();
    let since = Date.now();
    expect((await claim(installer.token, fitted, fittedFarmer)).status).toBe(202);
    const fittedCode = (await codeSentTo(fittedFarmer, since)).code;
    expect((await confirm(installer.token, fitted.deviceId, fittedFarmer, fittedCode)).status).toBe(200);
    const farmerMobileNo = uniqueMobileNo();
    since = Date.now();
    expect((await claim(installer.token, waiting, farmerMobileNo)).status).toBe(202);
    const { code } = await codeSentTo(farmerMobileNo, since);

    const answer = await deleteJson(
      `/api/admin/installers/${installer.user.id}/stock`,
      { deviceIds: [waiting.deviceId, fitted.deviceId, others.deviceId] },
      admin,
    );
    expect(answer.status).toBe(200);
    expect((await readJson(answer, stockReturnResponseSchema)).removed).toEqual([waiting.deviceId]);

    const confirmed = await confirm(installer.token, waiting.deviceId, farmerMobileNo, code);
    expect(confirmed.status).toBe(409);
    expect(await refusalCode(confirmed)).toBe("boxNotInStock");
    expect(await ownerOf(waiting.deviceId)).toBeNull();
    expect(await installationOf(waiting.deviceId)).toBeUndefined();
    // The other installer's box stayed theirs; the fitted box stays on the installer's record.
    const list = await getOk("/api/admin/installers", admin, installerListResponseSchema);
    expect(list.installers.find((row) => row.userId === other.user.id)).toMatchObject({ stockCount: 1, installs: 0 });
    expect(list.installers.find((row) => row.userId === installer.user.id)).toMatchObject({
      stockCount: 0,
      regionCount: 0,
      installs: 1,
    });

    // Every one of these writes is on the audit trail.
    const actions = await getDb(env.DB)
      .select({ action: adminAudit.action, status: adminAudit.status })
      .from(adminAudit)
      .where(
        and(
          eq(adminAudit.target, `user:${installer.user.id}`),
          eq(adminAudit.action, "DELETE /api/admin/installers/:userId/stock"),
        ),
      );
    expect(actions).toEqual([{ action: "DELETE /api/admin/installers/:userId/stock", status: 200 }]);
  });

  it("is refused for an account that is no installer, and for a farmer", async () => {
    const admin = await adminToken();
    const farmer = await createUser();
    const box = await labelledBox();
    const answer = await deleteJson(`/api/admin/installers/${farmer.id}/stock`, { deviceIds: [box.deviceId] }, admin);
    expect(answer.status).toBe(404);
    expect(await refusalCode(answer)).toBe("notAnInstaller");
    const byFarmer = await deleteJson(
      `/api/admin/installers/${farmer.id}/stock`,
      { deviceIds: [box.deviceId] },
      await loginToken(farmer),
    );
    expect(byFarmer.status).toBe(403);
  });
});
