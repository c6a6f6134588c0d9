// Pump states for the tests of what the pages make of them.
import type { PumpState } from "../../common/pump-state.ts";

/** A box online since its hello at 1 s, its motor OFF, nothing pending; the hub's copy is from 2 s. */
export const OFF_SINCE_HELLO: PumpState = {
  status: "off",
  statusSince: 1_000,
  statusSource: "hello",
  deviceStatus: "online",
  lastSeenAt: 1_000,
  pendingCommand: null,
  cooldownUntil: 0,
  faults: [],
  powerDataAt: null,
  stopsAt: null,
  startedBy: null,
  at: 2_000,
};
