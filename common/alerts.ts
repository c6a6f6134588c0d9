// Alerts a farmer can get on a phone with the app closed (Web Push). The DeviceHub sends each
// as a code, a kind and its values; the text is worded from the app's dictionaries in the
// language stored with each browser's subscription (worker/push/push-alerts.ts). One pump and
// kind is one notification tag: a new alert of a kind replaces that pump's last one (phase back
// replaces the phase fault) instead of piling up, and never another pump's.

/** The kinds a farmer can choose, in the order the settings screen lists them. */
export const ALERT_KINDS = [
  "dryRun",
  "overCurrent",
  "voltage",
  "phase",
  "power",
  "offlineWhileOn",
  "runningWithoutCommand",
  "schedule",
  "theft",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** What happened, as a code with its values; `test` is the settings screen's test alert. */
export type Alert =
  | { kind: "dryRun"; current: number | null }
  | { kind: "overCurrent"; current: number | null }
  /** A voltage trip (by the box or the hub's safety net), with the phases' volts when known. */
  | { kind: "voltage"; breach: "underVoltage" | "overVoltage" | "voltageUnbalance"; voltages: number[] | null }
  | { kind: "phase"; state: "fault" | "ok"; detail: string | null }
  | { kind: "power"; state: "lost" | "back" }
  /**
   * The box gone for OFFLINE_ALERT_GRACE_MS while the motor ran; `backOf`: it is back, and this
   * follows the alert raised as that event (its SMS go to whoever that one reached).
   */
  | { kind: "offlineWhileOn"; lastSeenAt: number | null; backOf?: string }
  | { kind: "runningWithoutCommand"; current: number }
  /** The box's enclosure opened, or its cable cut while the motor ran (docs/device-protocol.md §7). */
  | { kind: "theft"; cause: "tamper" | "cableCut" }
  | {
      kind: "schedule";
      outcome: "done" | "missed" | "failed";
      action: "on" | "off";
      minuteOfDay: number;
      reason: string | null;
    }
  | { kind: "test" };

export type PushKind = Alert["kind"];

/** An alert about a pump: every kind but the settings screen's test. */
export type PumpAlert = Exclude<Alert, { kind: "test" }>;

/** The notification tag of a pump's alerts of a kind (the test alert has no pump). */
export function alertTag(kind: PushKind, deviceId: string | null): string {
  return deviceId === null ? `sinchai-${kind}` : `sinchai-${deviceId}-${kind}`;
}

/** What a push message carries (JSON, encrypted for the browser): the code and its words. */
export type PushPayload = {
  kind: PushKind;
  /** The alert's values, as sent: the code, not the sentence. */
  alert: Alert;
  /** The pump it is about (null for the test alert); its name is in the title. */
  deviceId: string | null;
  tag: string;
  lang: "hi" | "en";
  title: string;
  body: string;
  /** Where a tap on the notification leads: that pump's page (`?pump=<deviceId>`). */
  url: string;
  /** When it happened (ms since the epoch). */
  at: number;
};
