// When a silent box counts as offline, as plain functions of its last signs of life (the room
// that checks is device-link.ts).
import { DEVICE_OFFLINE_AFTER_MS, WATCHED_OFFLINE_AFTER_MS } from "../../common/constants.ts";

/** How long the box may stay silent: short while someone watches (it must report every 5 s). */
export function livenessLimit(watched: boolean): number {
  return watched ? WATCHED_OFFLINE_AFTER_MS : DEVICE_OFFLINE_AFTER_MS;
}

/** When the box last proved it was alive: connecting, a frame, a heartbeat, or the watch start. */
export function lastSignOfLife(signs: {
  connectedAt: number;
  lastFrameAt: number | null;
  heartbeatAt: number | null;
  watchedSince: number | null;
}): number {
  return Math.max(signs.connectedAt, signs.lastFrameAt ?? 0, signs.heartbeatAt ?? 0, signs.watchedSince ?? 0);
}

/**
 * When to check liveness next: counted from the last sign of life, not from now. A check that
 * finds the box alive must not push the deadline a whole period further (a silent watched box
 * then took 35 s to show offline instead of 15).
 */
export function livenessCheckAt(now: number, lastSign: number, limit: number): number {
  return Math.max(now + 100, lastSign + limit + 500);
}
