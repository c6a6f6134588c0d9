// Accounts as the admin pages show them: what worker/db/admin-users.ts reads from D1 and the
// pages' components render. Types only, here so that the components (which run in the browser
// too) never import a D1 query module.
import type { ConnectionType, DeviceKind } from "./device-enums.ts";
import type { MemberRole } from "./pump-roles.ts";

/** A row of GET /api/admin/users. */
export type AdminUserListItem = {
  id: number;
  mobileNo: string;
  isAdmin: boolean;
  createdAt: string;
  lastLogin: string | null;
  deviceId: string | null;
};

/** SPEC §3 "User (admin view)", plus the device the page needs to address it. */
export type AdminUserView = {
  id: number;
  mobileNo: string;
  isAdmin: boolean;
  createdAt: string;
  lastLogin: string | null;
  /** When the holder proved the number with a code; null: not verified. */
  numberVerifiedAt: string | null;
  defaultCurrent: number;
  dryRunThreshold: number;
  overCurrentThreshold: number;
  /** The voltage limits in force (the box's kind's defaults where none was set). */
  underVoltage: number;
  overVoltage: number;
  voltageUnbalance: number;
  deviceInfo: {
    signal: number | null;
    imei: string | null;
    sim: string | null;
    chipId: string | null;
    firmware: string | null;
  };
  device: {
    id: string;
    kind: DeviceKind;
    connection: ConnectionType | null;
    online: boolean;
    lastSeenAt: string | null;
    activatedAt: string | null;
  } | null;
  /** Every box the account owns, its first box first. */
  boxes: { id: string; kind: DeviceKind; online: boolean }[];
  /** The boxes others let this number use (docs/decisions/018-shared-pumps.md). */
  shared: { id: string; role: MemberRole; label: string; ownerMobileNo: string | null; online: boolean }[];
};

/** SPEC §3 "Motor config history entry", with who made each change (their number today). */
export type ConfigHistoryEntry = {
  id: number;
  defaultCurrent: number;
  dryRunThreshold: number;
  overCurrentThreshold: number;
  underVoltage: number | null;
  overVoltage: number | null;
  voltageUnbalance: number | null;
  changeNote: string;
  changedBy: string | null;
  createdAt: string;
};
