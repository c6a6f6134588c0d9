// In its own file: storage is per file, and the other OTA tests upload images.
import { describe, expect, it } from "vitest";
import { farmerWithBox } from "../helpers/boxes.ts";
import { freshStorageForThisFile } from "../helpers/fresh-storage.ts";
import { postJson } from "../helpers/http.ts";

freshStorageForThisFile();

describe("POST /api/mqtt/ota before any firmware is uploaded", () => {
  it("says there is no firmware for that device type, and sends the box nothing", async () => {
    const { user, token, box } = await farmerWithBox();
    const response = await postJson("/api/mqtt/ota", { mobileNo: user.mobileNo, deviceType: "wifi" }, token);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      success: false,
      message: "No firmware is available for wifi devices yet.",
    });
    await box.expectNone("ota", 200);
    box.close();
  });
});
