// Words for the audit trail's stored codes, in the reader's language. The trail keeps codes
// (an action's route pattern, a refusal's code and parameters) so that a change of wording
// never rewrites history; this is the one place that turns them into sentences. Rows written
// before refusals had codes hold English sentences, which are shown as stored.

import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import type { MessageValues } from "../../../common/i18n/catalogue.ts";
import type { Language } from "../../../common/i18n/language.ts";
import {
  ADMIN_CONFIG_PAGE_ACTION,
  ADMIN_INSTALLER_PAGE_ACTIONS,
  ADMIN_LOGIN_ACTION,
  ADMIN_LOGOUT_PAGE_ACTION,
} from "../../../worker/services/record-admin-action.ts";
import { refusalWords } from "../../../worker/services/refusal.ts";
import { translateAdmin } from "../../i18n/admin.ts";

/** Every admin write the trail records, by its stored action (a route pattern). */
export const AUDIT_ACTIONS: Record<string, AdminMessageKey> = {
  [ADMIN_LOGIN_ACTION]: "admin.audit.do.login",
  [ADMIN_LOGOUT_PAGE_ACTION]: "admin.audit.do.logout",
  [ADMIN_CONFIG_PAGE_ACTION]: "admin.audit.do.motorConfig",
  "POST /api/admin/logout": "admin.audit.do.logout",
  "POST /api/auth/change-password": "admin.audit.do.changePassword",
  "PUT /api/admin/update-user-role": "admin.audit.do.userRole",
  "DELETE /api/admin/delete-user": "admin.audit.do.deleteUser",
  "PUT /api/admin/update-motor-config": "admin.audit.do.motorConfig",
  "PUT /api/admin/device-config": "admin.audit.do.deviceConfig",
  "POST /api/admin/devices": "admin.audit.do.createDevice",
  "POST /api/admin/devices/:id/rotate-key": "admin.audit.do.rotateKey",
  "PUT /api/admin/devices/:id/owner": "admin.audit.do.assignDevice",
  "POST /api/admin/firmware": "admin.audit.do.uploadFirmware",
  "PUT /api/recharge/status/:id": "admin.audit.do.rechargeStatus",
  "DELETE /api/recharge/:id": "admin.audit.do.deleteRecharge",
  "POST /api/devices/motor/config/:mobileNo": "admin.audit.do.motorSettings",
  "POST /api/devices/motor/power/:mobileNo": "admin.audit.do.powerReading",
  "POST /api/devices/motor/health/:mobileNo": "admin.audit.do.healthCheck",
  "POST /api/mqtt/ota": "admin.audit.do.firmwareUpdate",
  "POST /api/pumps/:deviceId/config": "admin.audit.do.motorSettings",
  "POST /api/pumps/:deviceId/power": "admin.audit.do.powerReading",
  "POST /api/pumps/:deviceId/health": "admin.audit.do.healthCheck",
  "POST /api/pumps/:deviceId/ota": "admin.audit.do.firmwareUpdate",
  "DELETE /api/pumps/:deviceId/members/:mobileNo": "admin.audit.do.removeMember",
  "POST /api/admin/users/:id/sign-in-code": "admin.audit.do.signInCode",
  "POST /api/admin/installers": "admin.audit.do.makeInstaller",
  "POST /api/admin/installers/:userId/stock": "admin.audit.do.installerStock",
  "DELETE /api/admin/installers/:userId/stock": "admin.audit.do.installerStockBack",
  "PUT /api/admin/installers/:userId/region": "admin.audit.do.installerRegion",
  "PUT /api/admin/box-regions": "admin.audit.do.boxRegion",
  [ADMIN_INSTALLER_PAGE_ACTIONS.makeInstaller]: "admin.audit.do.makeInstaller",
  [ADMIN_INSTALLER_PAGE_ACTIONS.giveStock]: "admin.audit.do.installerStock",
  [ADMIN_INSTALLER_PAGE_ACTIONS.takeBackStock]: "admin.audit.do.installerStockBack",
  [ADMIN_INSTALLER_PAGE_ACTIONS.setRegion]: "admin.audit.do.installerRegion",
  [ADMIN_INSTALLER_PAGE_ACTIONS.tagBoxes]: "admin.audit.do.boxRegion",
};

/** What an entry did, in `language`; an action recorded by a route not listed here shows as stored. */
export function auditActionText(action: string, language: Language): string {
  const key = AUDIT_ACTIONS[action];
  return key ? translateAdmin(language, key) : action;
}

/** Why an admin login failed: the trail knows, the person at the login form was never told. */
const LOGIN_REASONS: Record<string, AdminMessageKey> = {
  unknownNumber: "admin.audit.reason.unknownNumber",
  wrongPassword: "admin.audit.reason.wrongPassword",
  notAdmin: "admin.audit.reason.notAdmin",
};

function valuesOf(params: unknown): MessageValues {
  if (!params || typeof params !== "object") return {};
  return Object.fromEntries(
    Object.entries(params).filter(
      (entry): entry is [string, string | number] => typeof entry[1] === "string" || typeof entry[1] === "number",
    ),
  );
}

/** The refusal an entry records, worded for `language`; null when it was not refused. */
export function auditRefusalText(details: Record<string, unknown>, language: Language): string | null {
  const code = details.error;
  if (typeof code !== "string") return null;
  const params = valuesOf(details.errorParams);
  const worded = refusalWords(code, params, language);
  if (worded !== null) return worded;
  const reason = LOGIN_REASONS[code];
  return reason ? translateAdmin(language, reason) : code;
}

/**
 * What an entry acted on, for reading: `user:12` and `recharge:7` in words; mobile numbers,
 * device ids and firmware versions are identifiers and stay as stored.
 */
export function auditTargetText(target: string, language: Language): string {
  const [kind, id] = target.split(":", 2);
  if (kind === "user" && id) return translateAdmin(language, "admin.audit.targetUser", { id });
  if (kind === "recharge" && id) return translateAdmin(language, "admin.audit.targetRecharge", { id });
  if (kind === "firmware" && id) {
    const [deviceType = "", version = ""] = id.split("/", 2);
    return translateAdmin(language, "admin.audit.targetFirmware", { deviceType, version });
  }
  return target;
}

/**
 * Every field an admin write records (the validated request's, under the API's names), named
 * for people. The stored details keep the API's names; a field missing here would show as stored.
 */
const AUDIT_FIELDS: Record<string, AdminMessageKey> = {
  mobileNo: "admin.audit.field.mobileNo",
  newMobile: "admin.audit.field.newMobile",
  ownerMobileNo: "admin.audit.field.ownerMobileNo",
  userId: "admin.audit.field.userId",
  isAdmin: "admin.audit.field.isAdmin",
  defaultCurrent: "admin.config.defaultCurrent",
  dryRunThreshold: "admin.config.dryRunThreshold",
  overCurrentThreshold: "admin.config.overCurrentThreshold",
  underVoltage: "admin.config.underVoltage",
  overVoltage: "admin.config.overVoltage",
  voltageUnbalance: "admin.config.voltageUnbalance",
  confirmWeakerProtection: "admin.audit.field.confirmWeakerProtection",
  token: "admin.audit.field.token",
  debug: "admin.audit.field.debug",
  kind: "admin.audit.field.kind",
  deviceType: "admin.audit.field.deviceType",
  version: "admin.audit.field.version",
  file: "admin.audit.field.file",
  status: "admin.audit.field.status",
  purpose: "admin.audit.field.purpose",
  name: "admin.audit.field.name",
  deviceIds: "admin.audit.field.deviceIds",
  region: "admin.audit.field.region",
};

export type AuditField = { name: string; label: string; value: string };

/** A write's recorded fields for reading: each named in `language`, its value as sent (a yes or no in words). */
export function auditFieldsText(fields: Record<string, unknown>, language: Language): AuditField[] {
  return Object.entries(fields).map(([name, value]) => {
    const key = AUDIT_FIELDS[name];
    return { name, label: key ? translateAdmin(language, key) : name, value: valueText(value, language) };
  });
}

function valueText(value: unknown, language: Language): string {
  if (typeof value === "boolean")
    return translateAdmin(language, value ? "admin.audit.value.yes" : "admin.audit.value.no");
  if (value === null) return translateAdmin(language, "admin.audit.value.none");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}
