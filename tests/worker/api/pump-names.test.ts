// The owner's names for a pump and for its people (common/pump-schemas.ts, `pumpLabelSchema`)
// refuse what would make a name read otherwise than it shows: "Pump \u202eNO rotoM" showed as
// "Pump Motor ON" on every page that named the pump. Bidi overrides and isolates, zero-width
// spaces and joiners, soft hyphens and line separators are refused with 400, nothing saved;
// Hindi names stay, with the joiner a keyboard puts inside a conjunct.
import { describe, expect, it } from "vitest";
import { hasHiddenFormatting } from "../../../common/pump-schemas.ts";
import { uniqueMobileNo } from "../helpers/accounts.ts";
import { farmerWithDevice } from "../helpers/boxes.ts";
import { getJson, postJson, putJson } from "../helpers/http.ts";

const HIDDEN = {
  "right-to-left override": "Pump \u202eNO rotoM",
  "left-to-right isolate": "Pump \u2066A\u2069",
  "right-to-left mark": "Pump\u200f 1",
  "zero-width space": "Pu\u200bmp",
  "zero-width joiner between Latin letters": "Pu\u200dmp",
  "word joiner": "Pump\u2060 1",
  "byte order mark inside": "Pu\ufeffmp",
  "soft hyphen": "Pu\u00admp",
  "line separator": "Pump\u2028ON",
  "tag characters": "Pump \u{e0041}",
};

describe("a pump's name", () => {
  for (const [what, name] of Object.entries(HIDDEN)) {
    it(`is refused with a ${what}, and the old name stays`, async () => {
      const { device, token } = await farmerWithDevice();
      expect((await putJson(`/api/pumps/${device.deviceId}/name`, { name: "Well" }, token)).status).toBe(200);
      const response = await putJson(`/api/pumps/${device.deviceId}/name`, { name }, token);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, code: "invalidInput" });
      const pumps = (await (await getJson("/api/pumps", token)).json()) as { pumps: { name: string | null }[] };
      expect(pumps.pumps.map((pump) => pump.name)).toEqual(["Well"]);
    });
  }

  it("in Hindi is kept, the joiner inside a conjunct too", async () => {
    const { device, token } = await farmerWithDevice();
    for (const name of ["खेत का पंप", "क्\u200dष पंप", "नदी\u200cवाला"]) {
      const response = await putJson(`/api/pumps/${device.deviceId}/name`, { name }, token);
      expect(response.status, name).toBe(200);
    }
  });
});

describe("a person's name on a pump", () => {
  it("is refused with hidden formatting when they are invited", async () => {
    const { device, token } = await farmerWithDevice();
    const response = await postJson(
      `/api/pumps/${device.deviceId}/members`,
      { mobileNo: uniqueMobileNo(), role: "viewer", label: "Ram\u202e" },
      token,
    );
    expect(response.status).toBe(400);
  });
});

describe("hasHiddenFormatting", () => {
  it("finds every kind above and passes plain names in both scripts", () => {
    for (const name of Object.values(HIDDEN)) expect(hasHiddenFormatting(name), JSON.stringify(name)).toBe(true);
    for (const name of ["Pump 2", "खेत का पंप", "क्\u200dष", "Ram's well"]) expect(hasHiddenFormatting(name)).toBe(false);
    // A joiner at a name's edge joins nothing: refused.
    expect(hasHiddenFormatting("पंप\u200d")).toBe(true);
  });
});
