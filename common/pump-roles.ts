// What each person may do with a box (docs/decisions/018-shared-pumps.md), as one table that
// the Worker, the DeviceHub, the pages and the authorisation matrix test all read, so that
// the layers cannot disagree. No imports: the dashboard's bundle takes this table and nothing
// else (the schemas of the inputs are ./pump-schemas.ts).

/** The roles an owner gives: an operator runs the pump, a viewer only watches it. */
export const MEMBER_ROLES = ["operator", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What a caller is to a box. Someone who is none of these sees nothing of it. */
export type PumpRole = "owner" | MemberRole | "admin";

export type PumpAction =
  /** State, readings, health, logs, schedules (read). */
  | "see"
  /** Switch the motor ON or OFF. */
  | "switch"
  /** Create, change and delete the box's schedules. */
  | "schedule"
  /**
   * Get the box's alerts on a phone with the app closed (Web Push): those who can act on a
   * fault at night, by switching the pump or going to it, not those who only watch.
   */
  | "alerts"
  /** Motor protection settings. */
  | "configure"
  /** Offer the box a firmware update. */
  | "firmware"
  /** Name the box. */
  | "rename"
  /**
   * How a phone may start the motor (docs/decisions/028-switching-by-phone.md): let a missed call
   * to the start number start it, and set the PIN an SMS ON must carry. A motor started from a
   * phone with nobody at the well is the owner's choice alone.
   */
  | "phoneStart"
  /** See the members and remove them. */
  | "manageMembers"
  /** Invite a number and change a member's role or name. */
  | "invite"
  /** The plan and its recharges. */
  | "recharge";

/**
 * The owner keeps what costs money or can damage the motor. An admin runs the fleet: sees
 * everything, sets protection, removes members, but never switches a farmer's motor or
 * invites anyone to it (nothing starts a motor that its people did not ask for).
 */
const ALLOWED: Record<PumpRole, readonly PumpAction[]> = {
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

export const PUMP_ROLES = Object.keys(ALLOWED) as PumpRole[];
export const PUMP_ACTIONS: readonly PumpAction[] = ALLOWED.owner;

export function roleMay(role: PumpRole | null, action: PumpAction): boolean {
  return role !== null && ALLOWED[role].includes(action);
}

/** A box has at most this many members besides its owner (GSM starters take 4–5 numbers). */
export const MAX_PUMP_MEMBERS = 5;
