// How a pump motor draws current, close enough to real for testing the whole chain.
import type { DeviceKind } from "../common/device-protocol.ts";

/** Line-to-line 415 V × √3: the constant of SPEC §9's horsepower formula. */
const THREE_PHASE_VOLT_FACTOR = 718.78;
const SINGLE_PHASE_VOLTS = 230;
/** Power factor × efficiency, as SPEC §9's horsepower formula assumes. */
const LOAD_FACTOR = 0.58;
const POWER_FACTOR = 0.8;
const WATTS_PER_HP = 746;

/** The running current of a healthy motor of this size, in amperes. */
export function ratedCurrent(kind: DeviceKind, horsePower: number): number {
  const volts = kind === "3phase" ? THREE_PHASE_VOLT_FACTOR : SINGLE_PHASE_VOLTS;
  return (horsePower * WATTS_PER_HP) / (volts * LOAD_FACTOR);
}

export function wattageFor(kind: DeviceKind, current: number): number {
  const volts = kind === "3phase" ? THREE_PHASE_VOLT_FACTOR : SINGLE_PHASE_VOLTS;
  return volts * current * POWER_FACTOR;
}

/** One reading of a running motor: rated current with ±2 % noise, rounded as a meter would. */
export function runningReading(
  kind: DeviceKind,
  horsePower: number,
  random: () => number = Math.random,
): { current: number; wattage: number } {
  const current = ratedCurrent(kind, horsePower) * (1 + (random() - 0.5) * 0.04);
  return { current: round(current, 2), wattage: round(wattageFor(kind, current), 0) };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
