// One AuthThrottle per key ("loginNumber:9876543210", "loginClient:203.0.113.7",
// "pushTestAccount:42", ...): it remembers recent attempts and answers how long the next one
// must wait. Delays grow exponentially after a few free attempts and never become a permanent
// lockout (docs/security.md, "Login throttling").
import { DurableObject } from "cloudflare:workers";
import type { ThrottlePolicyName } from "../common/hub-contract.ts";

type ThrottlePolicy = {
  /** Attempts older than this are forgotten. */
  windowMs: number;
  /** This many attempts in the window cost nothing. */
  free: number;
  /** The first throttled attempt waits this long after the previous one; each further one doubles. */
  baseDelayMs: number;
  maxDelayMs: number;
};

const MINUTE = 60_000;

export const THROTTLE_POLICIES: Record<ThrottlePolicyName, ThrottlePolicy> = {
  // Failed logins for one number, from browsers that have not logged in with it before, and
  // wrong current passwords on its password change from any browser.
  loginNumber: { windowMs: 15 * MINUTE, free: 5, baseDelayMs: 30_000, maxDelayMs: 15 * MINUTE },
  // Failed logins for one number from browsers that have logged in with it before (the
  // known-device cookie): apart, so strangers cannot lock them out; a stolen phone still waits.
  loginKnownDevice: { windowMs: 15 * MINUTE, free: 10, baseDelayMs: 30_000, maxDelayMs: 15 * MINUTE },
  // Failed logins from one client address, whatever the numbers.
  loginClient: { windowMs: 15 * MINUTE, free: 20, baseDelayMs: MINUTE, maxDelayMs: 15 * MINUTE },
  // Registrations (all of them) from one client address.
  registerClient: { windowMs: 60 * MINUTE, free: 10, baseDelayMs: 5 * MINUTE, maxDelayMs: 60 * MINUTE },
  inviteOwner: { windowMs: 60 * MINUTE, free: 10, baseDelayMs: 6 * MINUTE, maxDelayMs: 60 * MINUTE },
  noticeClient: { windowMs: 10 * MINUTE, free: 30, baseDelayMs: 10_000, maxDelayMs: 10 * MINUTE },
  // Test alerts (the alerts screen's button): each makes the Worker wait on a push service.
  pushTestSession: { windowMs: 10 * MINUTE, free: 3, baseDelayMs: MINUTE, maxDelayMs: 10 * MINUTE },
  pushTestAccount: { windowMs: 10 * MINUTE, free: 5, baseDelayMs: MINUTE, maxDelayMs: 10 * MINUTE },
  // One-time codes sent to one number (each an SMS we pay for and a farmer is disturbed by).
  codeNumber: { windowMs: 60 * MINUTE, free: 3, baseDelayMs: MINUTE, maxDelayMs: 60 * MINUTE },
  // One-time codes asked for from one client address, whatever the numbers.
  codeClient: { windowMs: 60 * MINUTE, free: 10, baseDelayMs: 5 * MINUTE, maxDelayMs: 60 * MINUTE },
  // Codes checked from one client address, right or wrong, whatever the numbers.
  codeCheckClient: { windowMs: 15 * MINUTE, free: 20, baseDelayMs: MINUTE, maxDelayMs: 15 * MINUTE },
  // Codes checked for one number from anywhere (four codes' tries a day), so guesses spread over
  // many addresses and codes are bounded per number too; the number's own phone is exempt.
  codeCheckNumber: { windowMs: 24 * 60 * MINUTE, free: 20, baseDelayMs: MINUTE, maxDelayMs: 60 * MINUTE },
  // Switching by phone (worker/phone-control/): commands (SMS, missed calls, the voice menu's
  // keys) from one number, whoever it is, and to one pump, from all its people together. An OFF
  // is counted but never refused (stopping is never blocked).
  phoneCommandNumber: { windowMs: 10 * MINUTE, free: 10, baseDelayMs: MINUTE, maxDelayMs: 30 * MINUTE },
  phoneCommandPump: { windowMs: 10 * MINUTE, free: 20, baseDelayMs: 30_000, maxDelayMs: 10 * MINUTE },
  // The SMS a pump's commands send back, in any 24 hours: a cap, not a slowing (each is an SMS we pay for).
  phoneReplyPump: { windowMs: 24 * 60 * MINUTE, free: 30, baseDelayMs: 24 * 60 * MINUTE, maxDelayMs: 24 * 60 * MINUTE },
  // The help SMS one verified number gets for words we did not understand, in any 24 hours.
  phoneHelpNumber: { windowMs: 24 * 60 * MINUTE, free: 3, baseDelayMs: 24 * 60 * MINUTE, maxDelayMs: 24 * 60 * MINUTE },
  // SMS ONs to a pump with a PIN that carried none or a wrong one, in any 24 hours: past 5, every
  // ON by SMS to it waits, the right PIN's too, so 10,000 PINs cannot be tried from a spoofed number.
  smsPinPump: { windowMs: 24 * 60 * MINUTE, free: 5, baseDelayMs: 60 * MINUTE, maxDelayMs: 24 * 60 * MINUTE },
};

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** An allowed attempt carries the id of the row that counts it, so a success can take it back. */
export type ThrottleTicket = { allowed: true; attemptId: number } | { allowed: false; retryAfterMs: number };

export class AuthThrottle extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS attempts (at INTEGER NOT NULL)");
  }

  /** May another attempt happen now? Reads only: `take` is what callers that act on the answer use. */
  check(policyName: ThrottlePolicyName, now = Date.now()): ThrottleVerdict {
    const policy = THROTTLE_POLICIES[policyName];
    const { count, last } = this.ctx.storage.sql
      .exec<{ count: number; last: number | null }>(
        "SELECT COUNT(*) AS count, MAX(at) AS last FROM attempts WHERE at > ?",
        now - policy.windowMs,
      )
      .one();
    if (count < policy.free || last === null) return { allowed: true };
    const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (count - policy.free));
    const waitedEnough = now - last >= delay;
    return waitedEnough ? { allowed: true } : { allowed: false, retryAfterMs: last + delay - now };
  }

  /**
   * Checks and counts one attempt in a single step. The method is synchronous, so the object
   * runs it to the end before the next call: forty parallel attempts cannot all read the
   * count before any of them is recorded (they could when checking and recording were two
   * calls with the password hash in between). A refused attempt is not counted.
   */
  take(policyName: ThrottlePolicyName, now = Date.now()): ThrottleTicket {
    const verdict = this.check(policyName, now);
    if (!verdict.allowed) return verdict;
    return { allowed: true, attemptId: this.record(policyName, now) };
  }

  /** Takes back one counted attempt (a login that turned out to be right). */
  forgive(attemptId: number): void {
    this.ctx.storage.sql.exec("DELETE FROM attempts WHERE rowid = ?", attemptId);
  }

  record(policyName: ThrottlePolicyName, now = Date.now()): number {
    const policy = THROTTLE_POLICIES[policyName];
    this.ctx.storage.sql.exec("DELETE FROM attempts WHERE at <= ?", now - policy.windowMs);
    const { id } = this.ctx.storage.sql
      .exec<{ id: number }>("INSERT INTO attempts (at) VALUES (?) RETURNING rowid AS id", now)
      .one();
    // Nothing to keep once the window has passed: let the object empty itself.
    void this.ctx.storage.setAlarm(now + policy.windowMs + 1_000);
    return id;
  }

  clear(): void {
    this.ctx.storage.sql.exec("DELETE FROM attempts");
  }

  /** Idempotent: forgets attempts older than the longest window. */
  override alarm(): void {
    const longest = Math.max(...Object.values(THROTTLE_POLICIES).map((policy) => policy.windowMs));
    this.ctx.storage.sql.exec("DELETE FROM attempts WHERE at <= ?", Date.now() - longest);
  }
}
