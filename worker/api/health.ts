// GET /api/health: for an uptime monitor. No session and nothing secret in the answer: whether
// D1 answers a query on a migrated table, and whether a DeviceHub answers an RPC, each with how
// long it took. 503 when either fails, so a monitor only needs the status code.
import { Hono } from "hono";
import { healthResponseSchema } from "../../common/api-responses/health.ts";
import { withDeadline } from "../../common/deadline.ts";
import type { ApiEnv } from "./context.ts";
import { respond } from "./respond.ts";

/**
 * The hub the round trip goes to. Device ids look like SNC-XXXXXXXX, so this name can never be
 * a box's hub: the check creates no device and touches no device's state.
 */
export const HEALTH_HUB_NAME = "health-check";

/** A check still unanswered after this counts as failed (monitors commonly give up at 10 s or more). */
export const HEALTH_CHECK_TIMEOUT_MS = 5_000;

export type CheckResult = { ok: boolean; ms: number };

/**
 * Runs one check with a time limit. `ms` is measured with Date.now(), which in a Worker only
 * moves on while it waits for I/O: exactly the round trip being checked.
 */
export async function runCheck(
  name: string,
  check: () => Promise<unknown>,
  timeoutMs: number = HEALTH_CHECK_TIMEOUT_MS,
): Promise<CheckResult> {
  const started = Date.now();
  try {
    await withDeadline(check(), timeoutMs, () => {
      throw new Error(`no answer within ${timeoutMs} ms`);
    });
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    // The reason goes to the logs (Workers Observability), never into the public answer.
    console.error(`GET /api/health: the ${name} check failed`, error);
    return { ok: false, ms: Date.now() - started };
  }
}

export const healthRoutes = new Hono<ApiEnv>().get("/", async (c) => {
  const [d1, hub] = await Promise.all([
    // A migrated table, not `SELECT 1`: a database the migrations never reached is not healthy.
    runCheck("d1", () => c.env.DB.prepare("SELECT 1 FROM users LIMIT 1").first()),
    runCheck("hub", () => c.env.DEVICE_HUB.get(c.env.DEVICE_HUB.idFromName(HEALTH_HUB_NAME)).ping()),
  ]);
  if (d1.ok && hub.ok) return respond(c, healthResponseSchema, { success: true, d1, hub });
  const failing = [d1.ok ? null : "D1", hub.ok ? null : "Durable Object"].filter((name) => name !== null);
  return respond(
    c,
    healthResponseSchema,
    { success: false, message: `Health check failed: ${failing.join(" and ")}.`, d1, hub },
    503,
  );
});
