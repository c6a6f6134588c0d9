// Writing the admin audit trail (docs/decisions/007-admin-audit-trail.md). Every admin write
// path ends here: the API's middleware (worker/api/admin-audit-middleware.ts), admin logins (logIn in
// worker/auth/accounts.ts, for the API and the login page alike), and the logout and motor
// settings and installers pages' actions.

import { insertAuditEntry, type NewAuditEntry } from "../db/admin-audit-trail.ts";
import { getDb } from "../db/client.ts";

export type AuditEvent = {
  /** Who acted; null when nobody was authenticated (a failed admin login). */
  admin: { id: number; mobileNo: string } | null;
  action: string;
  target: string | null;
  status: number;
  /** Request fields, scrubbed here by `auditDetails`; never trusted to be free of secrets. */
  details: unknown;
};

/** The action of an admin login, through the API or the login page. */
export const ADMIN_LOGIN_ACTION = "admin login";
/** The action of the logout page's form (the API's is its route, `POST /api/admin/logout`). */
export const ADMIN_LOGOUT_PAGE_ACTION = "POST /admin/logout";
/** The action of the motor settings page's form (the API's is `PUT /api/admin/update-motor-config`). */
export const ADMIN_CONFIG_PAGE_ACTION = "POST /admin/users/:userId/update-config";

/** Field names whose values are never recorded, whatever route they come from. */
const SECRET_FIELD = /pass|secret|token|key|^otp$|^pin$/i;
const MAX_STRING = 120;
const MAX_FIELDS = 20;
const MAX_ITEMS = 10;
const MAX_DEPTH = 3;
/** The whole `details` JSON; past this it is replaced by a marked, cut-off copy. */
export const MAX_DETAILS_CHARS = 1_000;
const MAX_USER_AGENT = 200;
const MAX_IP = 64;

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function scrub(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "string") return cap(value, MAX_STRING);
  // An uploaded file: what it was, never its bytes.
  if (value instanceof Blob) {
    return { file: value instanceof File ? cap(value.name, 60) : null, size: value.size, type: value.type || null };
  }
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => scrub(item, depth + 1));
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .slice(0, MAX_FIELDS)
        .map(([name, field]) => [cap(name, 40), SECRET_FIELD.test(name) ? "[redacted]" : scrub(field, depth + 1)]),
    );
  }
  return typeof value; // undefined, functions, symbols: only what they were
}

/**
 * `details` as stored: secret-named fields redacted at any depth, files reduced to name, size
 * and type, strings, lists and objects cut short, the whole at most MAX_DETAILS_CHARS.
 */
export function auditDetails(details: unknown): string {
  const scrubbed = scrub(details ?? {}, 0);
  const object = scrubbed && typeof scrubbed === "object" && !Array.isArray(scrubbed) ? scrubbed : { value: scrubbed };
  const json = JSON.stringify(object);
  return json.length <= MAX_DETAILS_CHARS ? json : JSON.stringify({ truncated: json.slice(0, MAX_DETAILS_CHARS / 2) });
}

/**
 * Appends one entry. Awaited by every caller, so the entry exists before the admin sees the
 * answer; but it never throws: a failed write is logged with the whole entry (Workers Logs keep
 * it) and the admin's action keeps its own outcome. Details are scrubbed before anything else,
 * so not even that log line can carry a secret.
 */
export async function recordAdminAudit(
  env: Pick<Env, "DB">,
  request: Request | null,
  event: AuditEvent,
): Promise<void> {
  let entry: NewAuditEntry | null = null;
  try {
    const ip = request?.headers.get("CF-Connecting-IP");
    const userAgent = request?.headers.get("User-Agent");
    entry = {
      createdAt: Date.now(),
      adminUserId: event.admin?.id ?? null,
      adminMobileNo: event.admin?.mobileNo ?? null,
      action: cap(event.action, 120),
      target: event.target === null ? null : cap(event.target, 80),
      status: event.status,
      details: auditDetails(event.details),
      clientIp: ip ? cap(ip, MAX_IP) : null,
      userAgent: userAgent ? cap(userAgent, MAX_USER_AGENT) : null,
    };
    await insertAuditEntry(getDb(env.DB), entry);
  } catch (error) {
    console.error(
      "admin audit: could not record an admin action",
      JSON.stringify(entry ?? { action: event.action, status: event.status }),
      error,
    );
  }
}

/**
 * The actions of the installers page's forms (/admin/installers), one per intent; the API's are
 * its routes (`POST /api/admin/installers`, …). The same services do the work.
 */
export const ADMIN_INSTALLER_PAGE_ACTIONS = {
  makeInstaller: "POST /admin/installers makeInstaller",
  giveStock: "POST /admin/installers giveStock",
  takeBackStock: "POST /admin/installers takeBackStock",
  setRegion: "POST /admin/installers setRegion",
  tagBoxes: "POST /admin/installers tagBoxes",
} as const;
