// What the admin's fleet-wide figures count of a box's motor log, named once for the hub that
// keeps each box's row of `box_activity` and for the dashboard that counts over them.

/** The box's own protection trips (motor-log-event.ts). */
export const TRIP_KINDS: readonly string[] = [
  "tripDryRun",
  "tripOverCurrent",
  "tripUnderVoltage",
  "tripOverVoltage",
  "tripVoltageUnbalance",
];

/** The theft alerts the hubs log: an enclosure opened, a cable cut (durable-objects/device-hub/theft.ts). */
export const THEFT_KINDS: readonly string[] = ["tamper", "cableCut"];

/** How far back the dashboard counts theft alerts. */
export const THEFT_ALERTS_WINDOW_MS = 7 * 24 * 60 * 60_000;

/** A box's row keeps at most this many theft alerts of the window. */
export const THEFT_ALERTS_KEPT = 20;
