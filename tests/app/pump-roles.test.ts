// The one table of who may do what with a pump (common/pump-roles.ts), which the Worker, the
// hub and the pages all read: written out here in full, so a change to it is a decision.
import { describe, expect, it } from "vitest";
import { PUMP_ACTIONS, PUMP_ROLES, roleMay } from "../../common/pump-roles.ts";
import { pumpLabelSchema } from "../../common/pump-schemas.ts";

const EXPECTED = {
  owner: [
    "see",
    "switch",
    "schedule",
    "alerts",
    "configure",
    "firmware",
    "rename",
    "phoneStart",
    "manageMembers",
    "invite",
    "recharge",
  ],
  operator: ["see", "switch", "schedule", "alerts"],
  viewer: ["see"],
  admin: ["see", "configure", "firmware", "manageMembers"],
};

describe("who may do what with a pump", () => {
  it("is the table decision 018 describes, role by role", () => {
    const table = Object.fromEntries(
      PUMP_ROLES.map((role) => [role, PUMP_ACTIONS.filter((action) => roleMay(role, action))]),
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
