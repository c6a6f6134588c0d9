import type { HubSnapshot } from "../../common/hub-contract.ts";

/** What a page shows for an account without a device: nothing live, nothing vouched for. */
export function noDeviceSnapshot(now: number): HubSnapshot {
  return {
    motorStatus: "unknown",
    deviceStatus: "offline",
    powerData: { current: 0, wattage: 0 },
    lastLogs: [],
    phaseFault: false,
    health: null,
    debug: false,
    pump: {
      status: "unknown",
      statusSince: 0,
      statusSource: "none",
      deviceStatus: "offline",
      lastSeenAt: null,
      pendingCommand: null,
      cooldownUntil: 0,
      faults: [],
      powerDataAt: null,
      stopsAt: null,
      startedBy: null,
      at: now,
    },
  };
}
