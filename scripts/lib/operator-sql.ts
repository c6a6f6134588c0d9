// Every SQL statement the operator commands (`npm run admin:create`, `npm run device`) send to
// D1, built in one place from checked values. Local and remote runs send exactly this text;
// only wrangler's flags differ (scripts/lib/local-d1.ts). Provisioning and relinking a box write
// out the Worker's own statements (common/first-box-sql.ts, common/access-change-sql.ts), so
// there is one way to do each.
import { relinkStatements } from "../../common/access-change-sql.ts";
import { MOBILE_NO_PATTERN } from "../../common/constants.ts";
import { DEVICE_ID_PATTERN } from "../../common/credentials.ts";
import { deviceKindSchema } from "../../common/device-protocol.ts";
import { type ProvisionedBox, provisionStatements } from "../../common/first-box-sql.ts";
import { regionSchema } from "../../common/installer-schemas.ts";
import type { SqlStatement, SqlValue } from "../../common/sql-statement.ts";

export type OperatorStatement =
  | { op: "findAccount"; mobileNo: string }
  | { op: "promoteAdmin"; mobileNo: string }
  | { op: "createAdmin"; mobileNo: string; passwordHash: string; now: number }
  | { op: "findOwner"; mobileNo: string }
  | ({ op: "provisionDevice" } & ProvisionedBox)
  | { op: "rotateDeviceKey"; deviceId: string; keyHash: string }
  | { op: "labelDevice"; deviceId: string; codeHash: string; now: number }
  | { op: "relinkDevice"; deviceId: string; ownerUserId: number | null; now: number }
  | { op: "findHubNotice"; deviceId: string }
  | { op: "listDevices" };

/** A SQL string literal. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function mobileNo(value: string): string {
  if (!MOBILE_NO_PATTERN.test(value)) throw new Error(`Not a mobile number: ${value}`);
  return sqlText(value);
}

function deviceId(value: string): string {
  if (!DEVICE_ID_PATTERN.test(value)) throw new Error(`Not a device id: ${value}`);
  return sqlText(value);
}

function userId(value: number | null): string {
  if (value === null) return "NULL";
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Not a user id: ${value}`);
  return String(value);
}

function time(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`Not a time: ${value}`);
  return String(value);
}

/** Hashes are made by this script (hex or the PBKDF2 string), never typed in. */
function hash(value: string): string {
  if (!/^[A-Za-z0-9$.:=+/_-]{16,512}$/.test(value)) throw new Error("Not a hash this script made.");
  return sqlText(value);
}

/** A bound value written out as SQL: the statements' own parameters, checked again as what they are. */
function literal(value: SqlValue | undefined): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`Not a whole number: ${value}`);
    return String(value);
  }
  if (typeof value === "string") return sqlText(value);
  throw new Error("A statement names a parameter it was not given.");
}

/** One statement of the Worker's with its numbered parameters (?1, ?2, …) written in. */
function writtenOut(statement: SqlStatement): string {
  return `${statement.sql.replace(/\?(\d+)/g, (_, index: string) => literal(statement.params[Number(index) - 1]))};`;
}

/** The SQL for one operator statement. Throws on a value that is not what it claims to be. */
export function operatorSql(statement: OperatorStatement): string {
  switch (statement.op) {
    case "findAccount":
      return `SELECT is_admin FROM users WHERE mobile_no = ${mobileNo(statement.mobileNo)};`;
    case "promoteAdmin":
      return `UPDATE users SET is_admin = 1 WHERE mobile_no = ${mobileNo(statement.mobileNo)};`;
    case "createAdmin":
      // ON CONFLICT: someone registered the number in between; promote it rather than fail or
      // overwrite their password.
      return (
        `INSERT INTO users (mobile_no, password_hash, is_admin, created_at) ` +
        `VALUES (${mobileNo(statement.mobileNo)}, ${hash(statement.passwordHash)}, 1, ${time(statement.now)}) ` +
        `ON CONFLICT(mobile_no) DO UPDATE SET is_admin = 1;`
      );
    case "findOwner":
      return `SELECT id FROM users WHERE mobile_no = ${mobileNo(statement.mobileNo)};`;
    case "provisionDevice": {
      // Checked here as every value this script writes; an account may own several boxes.
      deviceId(statement.deviceId);
      userId(statement.ownerUserId);
      deviceKindSchema.parse(statement.kind);
      hash(statement.keyHash);
      time(statement.now);
      // A region only for a box waiting for its farmer, in its one form (as the admin API keeps it).
      if (statement.region != null && statement.ownerUserId !== null)
        throw new Error("A box for an owner is in no region.");
      return provisionStatements({
        ...statement,
        region: statement.region == null ? null : regionSchema.parse(statement.region),
      })
        .map(writtenOut)
        .join("\n");
    }
    case "rotateDeviceKey":
      return `UPDATE devices SET key_hash = ${hash(statement.keyHash)} WHERE id = ${deviceId(statement.deviceId)} RETURNING id;`;
    case "labelDevice":
      // A new sticker's code replaces the old one, used or not; the box must exist.
      return (
        `INSERT INTO box_claims (device_id, code_hash, created_at) ` +
        `SELECT id, ${hash(statement.codeHash)}, ${time(statement.now)} FROM devices WHERE id = ${deviceId(statement.deviceId)} ` +
        `ON CONFLICT (device_id) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at, ` +
        `pending_mobile_no = NULL, pending_by_user_id = NULL, used_at = NULL RETURNING device_id;`
      );
    case "relinkDevice":
      // Checked here as every value this script writes; the last statement answers the box's id.
      deviceId(statement.deviceId);
      userId(statement.ownerUserId);
      time(statement.now);
      return relinkStatements({ deviceId: statement.deviceId, owner: statement.ownerUserId, now: statement.now })
        .map(writtenOut)
        .join("\n");
    case "findHubNotice":
      return `SELECT version FROM hub_notices WHERE device_id = ${deviceId(statement.deviceId)};`;
    case "listDevices":
      return (
        `SELECT d.id, d.kind, u.mobile_no AS owner, d.online, d.firmware ` +
        `FROM devices d LEFT JOIN users u ON u.id = d.owner_user_id ORDER BY d.created_at;`
      );
    default: {
      const unreachable: never = statement;
      throw new Error(`Unknown statement ${JSON.stringify(unreachable)}`);
    }
  }
}
