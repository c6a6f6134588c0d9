// Who gets a pump's alerts, by the one role table (common/pump-roles.ts, "alerts"): its owner and
// the members whose role gets alerts and who accepted (an invitation gives nothing until then),
// as D1 says at the moment of sending, so someone removed a moment ago gets nothing. Web Push
// (push-subscriptions.ts) and SMS and calls (alert-deliveries.ts) both read it.
import { and, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { MEMBER_ROLES, roleMay } from "../../common/pump-roles.ts";
import { deviceMembers, devices, users } from "./schema.ts";

/** The members' roles that get a pump's alerts. */
const MEMBER_ROLES_WITH_ALERTS = MEMBER_ROLES.filter((role) => roleMay(role, "alerts"));

/** A subquery of the user ids that get box `deviceId`'s alerts; null when no role gets them. */
export function alertRecipientIds(deviceId: string): SQL | null {
  const people: SQL[] = [];
  if (roleMay("owner", "alerts"))
    people.push(sql`SELECT ${devices.ownerUserId} FROM ${devices} WHERE ${devices.id} = ${deviceId}`);
  if (MEMBER_ROLES_WITH_ALERTS.length > 0) {
    const member = and(
      sql`${deviceMembers.deviceId} = ${deviceId}`,
      inArray(deviceMembers.role, MEMBER_ROLES_WITH_ALERTS),
      isNotNull(deviceMembers.acceptedAt),
    );
    people.push(
      sql`SELECT ${users.id} FROM ${deviceMembers} JOIN ${users} ON ${users.mobileNo} = ${deviceMembers.mobileNo} WHERE ${member}`,
    );
  }
  return people.length === 0 ? null : sql.join(people, sql` UNION `);
}
