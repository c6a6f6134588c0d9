// The one table of who may do what with a pump (common/pump-roles.ts), which the Worker, the
// hub and the pages all read: written out here in full, so a change to it is a decision.
import { describe, expect, it } from "vitest";
import { PUMP_ACTIONS, PUMP_ROLES, roleMay } from "../../common/pump-roles.ts";
import { pumpLabelSchema } from "../../common/pump-schemas.ts";

// Action by action, the other way round from the module's role-by-role table, so that neither is
// a copy of the other.
const EXPECTED = {
  see: ["owner", "operator", "viewer", "admin"],
  switch: ["owner", "operator"],
  schedule: ["owner", "operator"],
  alerts: ["owner", "operator"],
  configure: ["owner", "admin"],
  firmware: ["owner", "admin"],
  rename: ["owner"],
  phoneStart: ["owner"],
  manageMembers: ["owner", "admin"],
  invite: ["owner"],
  recharge: ["owner"],
};

describe("who may do what with a pump", () => {
  it("is the table decision 018 describes, action by action", () => {
    expect(PUMP_ROLES).toEqual(["owner", "operator", "viewer", "admin"]);
    const table = Object.fromEntries(
      PUMP_ACTIONS.map((action) => [action, PUMP_ROLES.filter((role) => roleMay(role, action))]),
    );
    expect(table).toEqual(EXPECTED);
  });

  it("gives nobody anything without a role", () => {
    expect(PUMP_ACTIONS.filter((action) => roleMay(null, action))).toEqual([]);
  });

  it("takes a short one-line name for a pump or a person", () => {
    expect(pumpLabelSchema.parse("  कुएँ वाला पंप ")).toBe("कुएँ वाला पंप");
    expect(pumpLabelSchema.safeParse("").success).toBe(false);
    expect(pumpLabelSchema.safeParse("a\nb").success).toBe(false);
    expect(pumpLabelSchema.safeParse("x".repeat(41)).success).toBe(false);
  });
});
