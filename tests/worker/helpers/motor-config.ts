// A box's motor config in tests: what a new 3-phase box starts with, and an admin's change of it.
import { putJson } from "./http.ts";

/** The motor config a 3-phase box starts with: SPEC §3's defaults and the kind's voltage limits. */
export const THREE_PHASE_DEFAULT_CONFIG = {
  defaultCurrent: 1,
  dryRunThreshold: 30,
  overCurrentThreshold: 30,
  underVoltage: 340,
  overVoltage: 460,
  voltageUnbalance: 6,
} as const;

/** An admin saves a farmer's motor settings (PUT /api/admin/update-motor-config). */
export function updateMotorConfig(mobileNo: string, config: Record<string, unknown>, token: string) {
  return putJson("/api/admin/update-motor-config", { mobileNo, ...config }, token);
}
