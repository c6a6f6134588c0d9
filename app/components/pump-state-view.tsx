// What the hub vouches for about the pump, in the reader's language: the status sentence (or,
// when the box is offline or the state is not confirmed, what is known instead), the fault
// banners that stay until their cause clears, and the clock they are all counted against.
import { useEffect, useState } from "react";
import { Form } from "react-router";
import { formatDuration, formatNumber, formatSince, formatVoltages, relativeAge } from "../../common/i18n/format.ts";
import type { Fault, MotorStatus, PumpState } from "../../common/pump-state.ts";
import { type MessageKey, type MessageValues, useLanguage, useT } from "../i18n/i18n.ts";
import { AlertIcon } from "./icons.tsx";

/**
 * The hub's clock, ticking: ages and countdowns are counted against the time the hub sent
 * with the state, not against a phone whose clock may be minutes off.
 */
export function useHubClock(pump: PumpState, tickMs = 1_000): number {
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(pump.at);
  useEffect(() => {
    const nextOffset = pump.at - Date.now();
    setOffset(nextOffset);
    setNow(Date.now() + nextOffset);
  }, [pump.at]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now() + offset), tickMs);
    return () => clearInterval(timer);
  }, [offset, tickMs]);
  return now;
}

export function statusWord(status: MotorStatus, t: ReturnType<typeof useT>): string {
  return status === "on" ? t("motor.on") : status === "off" ? t("motor.off") : t("pump.unknown");
}

/** Whole seconds left before an ON is accepted again, 0 when it is. */
export function secondsUntilOn(pump: PumpState, now: number): number {
  return Math.max(0, Math.ceil((pump.cooldownUntil - now) / 1000));
}

/**
 * The sentence under the switch. Offline, it never states the last known status as a fact:
 * it says when the box was last heard from and what the motor was doing then.
 */
export function PumpStatusLine({ pump, now }: { pump: PumpState; now: number }) {
  const t = useT();
  const language = useLanguage();
  if (pump.deviceStatus === "offline") {
    if (pump.lastSeenAt === null) {
      return (
        <p className="message warning" data-testid="motor-status" data-state="never-connected">
          {t("pump.neverConnected")}
        </p>
      );
    }
    const age = relativeAge(pump.lastSeenAt, language, now);
    return (
      <div className="message warning" data-testid="motor-status" data-state="offline">
        <p>
          {pump.status === "unknown"
            ? t("pump.offlineUnknown", { age })
            : t("pump.offlineWas", { age, status: statusWord(pump.status, t) })}
        </p>
        {pump.status !== "off" && <p>{t("pump.offlineStop")}</p>}
      </div>
    );
  }
  const pending = pump.pendingCommand?.state === "sent" ? pump.pendingCommand : null;
  if (pending) {
    return (
      <p className="motor-state" data-testid="motor-status" data-state="sending" role="status">
        {t(pending.action === "on" ? "pump.sendingOn" : "pump.sendingOff")}
      </p>
    );
  }
  if (pump.status === "unknown") {
    return (
      <p className="message warning" data-testid="motor-status" data-state="unknown" role="alert">
        {t(pump.statusSource === "linkLost" ? "pump.unknownLinkLost" : "pump.unknownStatus")}
      </p>
    );
  }
  // The state in words, big: what the motor does, never what a button would make it do.
  return (
    <p className={`motor-state ${pump.status}`} data-testid="motor-status" data-state={pump.status}>
      <span className="state-dot" aria-hidden="true" />
      {t(pump.status === "on" ? "switch.stateOn" : "switch.stateOff")}
    </p>
  );
}

/**
 * Under the state of a running motor: how long it has run, and when a timed run (a schedule's
 * "ON for N minutes", a power window) will stop it: "47 मिनट से चल रही है · 6:45 पर बंद होगी";
 * then who started it (the pump state's `startedBy`). While ON, `statusSince` is when the run
 * began; both on the hub's clock.
 */
export function RunLine({ pump, now, viewerId }: { pump: PumpState; now: number; viewerId: number }) {
  const t = useT();
  const language = useLanguage();
  if (pump.deviceStatus !== "online" || pump.status !== "on") return null;
  const seconds = Math.max(0, Math.floor((now - pump.statusSince) / 1000));
  // Whole minutes once past the first: a line that ticks every second draws the eye for nothing.
  const duration = formatDuration(seconds < 60 ? seconds : seconds - (seconds % 60), language);
  const stops = pump.stopsAt === null ? null : t("switch.stopsAt", { time: formatSince(pump.stopsAt, language, now) });
  const by = pump.startedBy;
  // Each part kept whole: a narrow screen breaks the line between them, not inside one.
  return (
    <p className="run-line" data-testid="run-line" data-stops-at={pump.stopsAt ?? undefined}>
      <span>{t("switch.runningFor", { duration })}</span>
      {stops && (
        <>
          {" · "}
          <span>{stops}</span>
        </>
      )}
      {/* Who started it, on its own line ("किसने: राजू, SMS से"; `viewerId` is "you"), after, for an
       ON whose answer was lost but whose current showed it running, that calmly: the hub
       credited the tap. The text starts with its line break (the line is white-space: pre-line). */}
      {by &&
        t("switch.startedBy", {
          ...(pump as unknown as MessageValues),
          ...(by as MessageValues),
          you: +(by.userId === viewerId),
        })}
    </p>
  );
}

function faultText(
  fault: Fault,
  t: ReturnType<typeof useT>,
  language: ReturnType<typeof useLanguage>,
  now: number,
): string {
  const time = formatSince(fault.since, language, now);
  switch (fault.kind) {
    case "dryRun":
    case "overCurrent": {
      const key: MessageKey = fault.kind === "dryRun" ? "pump.fault.dryRun" : "pump.fault.overCurrent";
      const current = fault.current === null ? "" : ` (${formatNumber(fault.current, language)} A)`;
      return t(key, { time, current });
    }
    case "underVoltage":
    case "overVoltage":
    case "voltageUnbalance":
      return t(`pump.fault.${fault.kind}`, {
        time,
        voltages: fault.voltages?.length ? ` (${formatVoltages(fault.voltages, language)})` : "",
      });
    case "phaseFault":
      return t("pump.fault.phaseFault", {
        time,
        hasPhase: fault.phase ? "yes" : "no",
        phase: fault.phase ?? "",
        hasDetail: fault.detail ? "yes" : "no",
        detail: fault.detail ?? "",
      });
    case "noSupply":
      return t("pump.fault.noSupply", { time });
    case "runningWithoutCommand":
      return t("pump.fault.runningWithoutCommand", { time });
    case "noCurrent":
      return t("pump.fault.noCurrent", { time });
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
}

/** One banner per fault, for as long as the hub reports it. */
/** The faults a person who may switch can take down: a trip only explains why the motor stopped. */
const TRIPS = new Set<Fault["kind"]>(["dryRun", "overCurrent", "underVoltage", "overVoltage", "voltageUnbalance"]);

/**
 * `dismissible`: the pump a trip's banner may be taken down for (a plain form to the dashboard's
 * action, `intent=dismissTrip`), or null where the reader may not switch it.
 */
export function FaultBanners({
  faults,
  now,
  dismissible = null,
}: {
  faults: Fault[];
  now: number;
  dismissible?: string | null;
}) {
  const t = useT();
  const language = useLanguage();
  if (faults.length === 0) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of notices, not of form controls, which <fieldset> is for
    <div className="fault-banners" role="group" aria-label={t("pump.faults")}>
      {faults.map((fault) => (
        <div
          key={fault.kind}
          className="message error fault-banner"
          data-testid="fault-banner"
          data-fault={fault.kind}
          role="alert"
        >
          <AlertIcon className="icon" />
          <span>{faultText(fault, t, language, now)}</span>
          {dismissible !== null && TRIPS.has(fault.kind) && (
            <Form method="post" action="/motor-control" className="fault-dismiss">
              <input type="hidden" name="pump" value={dismissible} />
              <button type="submit" name="intent" value="dismissTrip" className="button small">
                {t("pump.fault.dismiss")}
              </button>
            </Form>
          )}
        </div>
      ))}
    </div>
  );
}
