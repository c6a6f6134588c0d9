// Words for the audit trail's stored codes, in the reader's language. The trail keeps codes
// (an action's route pattern, a refusal's code and parameters) so that a change of wording
// never rewrites history; this is the one place that turns them into sentences. Rows written
// before refusals had codes hold English sentences, which are shown as stored.

import { MOBILE_NO_PATTERN } from "../../../common/constants.ts";
import { DEVICE_ID_PATTERN } from "../../../common/credentials.ts";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import type { MessageValues } from "../../../common/i18n/catalogue.ts";
import { formatList } from "../../../common/i18n/format.ts";
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

/** How a write ended, in a word: the HTTP status stays in the cell's title for whoever needs it. */
export function auditStatusText(status: number, language: Language): string {
  if (status < 400) return translateAdmin(language, "admin.audit.outcome.done");
  if (status < 500) return translateAdmin(language, "admin.audit.outcome.refused");
  return translateAdmin(language, "admin.audit.outcome.failed");
}

/**
 * What an entry acted on, for reading: what it is in words (`words`), and the identifier a
 * person would find printed or dialled (`id`: a box's id as on its sticker, a mobile number),
 * which is shown as is and never translated. An account (`user:12`) is named by its number,
 * from `accountNumbers` (its id when the account is gone); a recharge request and a firmware
 * build are named in words.
 */
export function auditTargetText(
  target: string,
  language: Language,
  accountNumbers: ReadonlyMap<number, string>,
): { words: string | null; id: string | null } {
  const [kind, id] = target.split(":", 2);
  if (kind === "user" && id) {
    const mobileNo = accountNumbers.get(Number(id));
    return mobileNo === undefined
      ? { words: translateAdmin(language, "admin.audit.targetUser", { id }), id: null }
      : { words: translateAdmin(language, "admin.audit.targetAccount"), id: mobileNo };
  }
  if (kind === "recharge" && id)
    return { words: translateAdmin(language, "admin.audit.targetRecharge", { id }), id: null };
  if (kind === "firmware" && id) {
    const [deviceType = "", version = ""] = id.split("/", 2);
    return { words: translateAdmin(language, "admin.audit.targetFirmware", { deviceType, version }), id: null };
  }
  if (DEVICE_ID_PATTERN.test(target))
    return { words: translateAdmin(language, "admin.audit.targetDevice"), id: target };
  if (MOBILE_NO_PATTERN.test(target))
    return { words: translateAdmin(language, "admin.audit.targetNumber"), id: target };
  return { words: null, id: target };
}

/** The account ids a page of targets names (`user:12`), to look their numbers up once. */
export function auditTargetAccounts(targets: readonly (string | null)[]): number[] {
  const ids = targets.flatMap((target) => {
    const match = target === null ? null : /^user:(\d+)$/.exec(target);
    return match ? [Number(match[1])] : [];
  });
  return [...new Set(ids)];
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

/** `words`: the value is a word in the reader's language; otherwise data as sent (an id, a number), not to translate. */
export type AuditField = { name: string; label: string; value: string; words: boolean };

/**
 * The values a field holds that are codes, each with its word: a recharge's new status, a
 * box's kind, a firmware's type, what a code sent by SMS is for.
 */
const VALUE_WORDS: Record<string, Record<string, AdminMessageKey>> = {
  status: { pending: "admin.status.pending", paid: "admin.status.paid", failed: "admin.status.failed" },
  kind: { "1phase": "admin.user.kind.1phase", "3phase": "admin.user.kind.3phase" },
  deviceType: { wifi: "admin.settings.deviceType.wifi", sim: "admin.settings.deviceType.sim" },
  purpose: {
    signIn: "admin.audit.purpose.signIn",
    resetPassword: "admin.audit.purpose.resetPassword",
    verifyNumber: "admin.audit.purpose.verifyNumber",
  },
};

/**
 * A write's recorded fields for reading: each named in `language`; a code, a yes or a no in
 * words; a list (box ids) as a list ("SNC-…, SNC-… और SNC-…"); anything else as sent.
 */
export function auditFieldsText(fields: Record<string, unknown>, language: Language): AuditField[] {
  return Object.entries(fields).map(([name, value]) => {
    const key = AUDIT_FIELDS[name];
    return { name, label: key ? translateAdmin(language, key) : name, ...valueText(name, value, language) };
  });
}

function valueText(name: string, value: unknown, language: Language): { value: string; words: boolean } {
  if (typeof value === "boolean")
    return { value: translateAdmin(language, value ? "admin.audit.value.yes" : "admin.audit.value.no"), words: true };
  if (value === null) return { value: translateAdmin(language, "admin.audit.value.none"), words: true };
  const word = typeof value === "string" ? VALUE_WORDS[name]?.[value] : undefined;
  if (word) return { value: translateAdmin(language, word), words: true };
  if (Array.isArray(value)) return { value: formatList(value.map(String), language), words: false };
  if (typeof value === "object") return { value: JSON.stringify(value), words: false };
  return { value: String(value), words: false };
}
