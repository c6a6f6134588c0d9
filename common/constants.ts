// Business constants of SPEC §9, and the timing rules of the device protocol.
// Imported by the app, the Worker, the DeviceHub and the simulator alike: one source of truth.

/** After a motor command the same device refuses another for this long (SPEC §4, §9). */
export const MOTOR_COOLDOWN_MS = 10_000;
/** A browser's realtime socket reconnects this long after it closes (SPEC §9). */
export const SOCKET_RECONNECT_DELAY_MS = 1_000;
/** The hub keeps, and the dashboard shows, this many recent motor logs (SPEC §9). */
export const LIVE_MOTOR_LOG_LIMIT = 7;
/** The admin users list reloads itself this often (SPEC §9). */
export const ADMIN_USERS_REFRESH_MS = 120_000;
/** Rows per page of the admin motor log list (SPEC §9). */
export const ADMIN_LOGS_PAGE_SIZE = 20;
/** Admin audit trail entries per page: the page's size and the API's default `limit`. */
export const ADMIN_AUDIT_PAGE_SIZE = 20;
export const ADMIN_AUDIT_MAX_PAGE_SIZE = 100;

/** A relay command fails with a clear error when the device has not confirmed it by then. */
export const DEVICE_ACK_TIMEOUT_MS = 5_000;

/**
 * An ON whose answer was lost is still that person's run when the box shows the motor running
 * (its current, its relay stated) within this long of the tap: the ack's 5 s, then room for a
 * watched box's reading every 5 s or an unwatched one's report of the change, and a slow link.
 * Later, a running motor is nobody's command and raises the alarm (docs/pump-state.md).
 */
export const UNANSWERED_ON_CREDIT_MS = DEVICE_ACK_TIMEOUT_MS + 25_000;

/**
 * A device that has sent nothing for this long sends the text frame "ping"; the hub answers
 * "pong" without waking (WebSocket auto-response). Long on purpose: a heartbeat costs roughly
 * 280 bytes on the SIM once TLS and TCP are counted (docs/device-protocol.md, "Data cost").
 */
export const DEVICE_HEARTBEAT_INTERVAL_MS = 240_000;
/** A device silent for two heartbeats plus slack is marked offline. */
export const DEVICE_OFFLINE_AFTER_MS = 2 * DEVICE_HEARTBEAT_INTERVAL_MS + 60_000;
/**
 * A box gone while its motor ran is called about only once it has stayed gone this long: a link
 * that stalls for seconds (a SIM changing towers, a restart) is back well within it, and a call
 * at night for that is worse than no call. Back after the alert went, "back online" follows.
 */
export const OFFLINE_ALERT_GRACE_MS = 90_000;
/** While a browser watches, the device reports power this often, which also proves it is alive. */
export const WATCHED_POWER_INTERVAL_MS = 5_000;
/**
 * While watched, a device silent this long is marked offline: two missed readings plus 5 s for a
 * slow SIM link. A farmer looking at the page learns within 20 s that the box went silent.
 */
export const WATCHED_OFFLINE_AFTER_MS = 2 * WATCHED_POWER_INTERVAL_MS + 5_000;
/**
 * Unwatched but running, the device reports power when the current moves by more than this
 * fraction since its last report, and at least once per heartbeat interval (in place of the ping).
 */
export const UNWATCHED_POWER_CHANGE_FRACTION = 0.1;
/** @alias Unwatched power reports take the heartbeat's place, so they keep its interval. */
export const UNWATCHED_POWER_INTERVAL_MS = DEVICE_HEARTBEAT_INTERVAL_MS;
/**
 * @alias A fresh power or health reading asked for (a farmer's Refresh, SPEC §7's power call) is
 * answered from the hub's latest one when that is at most this old: the pace of readings while
 * someone watches, so nothing on the page is older than what watching shows anyway.
 */
export const FRESH_READING_MS = WATCHED_POWER_INTERVAL_MS;
/**
 * At most one request for a reading reaches a box this often, power and health together. Each
 * costs its SIM about 650 bytes on the wire (docs/device-protocol.md, "Data cost"); a minute
 * bounds a flood of refreshes at about 39 KB an hour, a quarter of what watching costs.
 */
export const READING_REQUEST_INTERVAL_MS = 60_000;

/** The motor configuration a new account starts with (SPEC §3, §9). */
export const DEFAULT_MOTOR_CONFIG = {
  defaultCurrent: 1,
  dryRunThreshold: 30,
  overCurrentThreshold: 30,
} as const;

/** 10 digits, first digit 1-9 (SPEC §5). */
export const MOBILE_NO_PATTERN = /^[1-9][0-9]{9}$/;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
