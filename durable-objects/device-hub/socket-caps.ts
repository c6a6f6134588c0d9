// What one DeviceHub accepts from its sockets (docs/security.md, "Caps"; docs/device-protocol.md
// §2; the numbers the browser and the box must know are in common/). Every hub of a Worker
// shares its isolate's thread with the others, so a box that floods or a page that opens
// sockets without end slows every other farmer's pump, not only its own.

/** A box cut off for its frame rate may reconnect after this long; until then its upgrade gets 429. */
export const DEVICE_FLOOD_COOLDOWN_MS = 10_000;

/**
 * A token bucket: `burst` frames at once, then `perSecond` on average. Kept in memory only: a
 * hub that wakes from hibernation was idle, and starts with a full bucket.
 */
export class FrameBudget {
  private readonly burst: number;
  private readonly perSecond: number;
  private tokens: number;
  private at: number;

  constructor(burst: number, perSecond: number, now = Date.now()) {
    this.burst = burst;
    this.perSecond = perSecond;
    this.tokens = burst;
    this.at = now;
  }

  /** Spends one frame's allowance; false when there is none left. */
  take(now = Date.now()): boolean {
    const refilled = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    // Frames granted for answers owed may take it past the burst; refilling never takes them away.
    this.tokens = Math.max(this.tokens, refilled);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Allows `frames` more at once: answers the hub itself asked for. */
  grant(frames: number): void {
    this.tokens += frames;
  }
}

/** What the rooms may do with the box's allowance: spend a frame, or allow answers they asked for. */
export type FrameAllowance = Pick<FrameBudget, "take" | "grant">;
