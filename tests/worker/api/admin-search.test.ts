// Admins find an account by its mobile number (all of it or a part, written as people write it)
// or by the SNC- id on a box's sticker: GET /api/admin/users?q= and GET /api/admin/devices?q=,
// which the /admin/users page's search form uses too.
import { describe, expect, it } from "vitest";
import { deviceListResponseSchema, userListResponseSchema } from "../../../common/api-responses/admin.ts";
import { adminToken, createUser, uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithDevice, provisionDevice } from "../helpers/boxes.ts";
import { getJson, getOk } from "../helpers/http.ts";

async function usersFound(q: string, token: string) {
  const body = await getOk(`/api/admin/users?q=${encodeURIComponent(q)}`, token, userListResponseSchema);
  return body.users.map((user) => user.mobileNo);
}

async function boxesFound(q: string, token: string) {
  const body = await getOk(`/api/admin/devices?q=${encodeURIComponent(q)}`, token, deviceListResponseSchema);
  return body.devices;
}

/** "98765 43210" as people write a number: spaced, with +91 or a leading 0. */
const spaced = (mobileNo: string) => `${mobileNo.slice(0, 5)} ${mobileNo.slice(5)}`;

describe("GET /api/admin/users?q=", () => {
  it("finds an account by its number, whole or a part, however it is written", async () => {
    const token = await adminToken();
    const { user } = await farmerWithDevice();
    const other = await createUser();
    for (const q of [user.mobileNo, spaced(user.mobileNo), `+91 ${spaced(user.mobileNo)}`, `0${user.mobileNo}`]) {
      expect(await usersFound(q, token), q).toEqual([user.mobileNo]);
    }
    const part = await usersFound(user.mobileNo.slice(2, 8), token);
    expect(part).toContain(user.mobileNo);
    expect(part).not.toContain(other.mobileNo);
    expect(await usersFound(uniqueMobileNo(), token)).toEqual([]);
  });

  it("finds the owner of a box by the id on its sticker, with or without SNC-, any case, also a second box", async () => {
    const token = await adminToken();
    const { user, device } = await farmerWithDevice();
    const second = await provisionDevice(user.id);
    for (const q of [device.deviceId, device.deviceId.toLowerCase(), device.deviceId.slice(4), second.deviceId]) {
      expect(await usersFound(q, token), q).toEqual([user.mobileNo]);
    }
  });

  it("without q lists everyone; a q too long is 400; farmers get 403", async () => {
    const token = await adminToken();
    const { user, token: farmerToken } = await farmerWithDevice();
    expect(await usersFound("", token)).toContain(user.mobileNo);
    expect((await getJson(`/api/admin/users?q=${"9".repeat(41)}`, token)).status).toBe(400);
    expect((await getJson(`/api/admin/users?q=${user.mobileNo}`, farmerToken)).status).toBe(403);
  });
});

describe("GET /api/admin/devices?q=", () => {
  it("finds a box by its id (in stock too) and an account's boxes by its number, with the owner's account", async () => {
    const token = await adminToken();
    const stock = await provisionDevice(null);
    const { user, device } = await farmerWithDevice();
    expect(await boxesFound(stock.deviceId.slice(4).toLowerCase(), token)).toEqual([
      expect.objectContaining({ id: stock.deviceId, ownerMobileNo: null, ownerUserId: null }),
    ]);
    expect(await boxesFound(spaced(user.mobileNo), token)).toEqual([
      expect.objectContaining({ id: device.deviceId, ownerMobileNo: user.mobileNo, ownerUserId: user.id }),
    ]);
    expect((await boxesFound("", token)).map((box) => box.id)).toEqual(
      expect.arrayContaining([stock.deviceId, device.deviceId]),
    );
    // Neither a number nor a box id: nothing, not everything.
    expect(await boxesFound("%", token)).toEqual([]);
    expect(await boxesFound("Ram's pump", token)).toEqual([]);
  });
});
