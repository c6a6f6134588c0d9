// How a pump motor and its supply behave, close enough to real for testing the whole chain.
import type { DeviceKind } from "../common/device-protocol.ts";

/** Line-to-line 415 V × √3: the constant of SPEC §9's horsepower formula. */
const THREE_PHASE_VOLT_FACTOR = 718.78;
const SINGLE_PHASE_VOLTS = 230;
const THREE_PHASE_LINE_VOLTS = 415;
/** Power factor × efficiency, as SPEC §9's horsepower formula assumes. */
const LOAD_FACTOR = 0.58;
const POWER_FACTOR = 0.8;
const WATTS_PER_HP = 746;

/** A direct-on-line start draws about 6× running current, fading over ~1.5 s. */
export const INRUSH_MULTIPLE = 6;
export const INRUSH_MS = 1_500;
/** A pump running dry loses its load; a jammed or failing one draws far more. */
const DRY_RUN_LOAD = 0.45;
const OVERLOAD = 1.6;

/** The running current of a healthy motor of this size, in amperes. */
export function ratedCurrent(kind: DeviceKind, horsePower: number): number {
  const volts = kind === "3phase" ? THREE_PHASE_VOLT_FACTOR : SINGLE_PHASE_VOLTS;
  return (horsePower * WATTS_PER_HP) / (volts * LOAD_FACTOR);
}

export function wattageFor(kind: DeviceKind, current: number): number {
  const volts = kind === "3phase" ? THREE_PHASE_VOLT_FACTOR : SINGLE_PHASE_VOLTS;
  return volts * current * POWER_FACTOR;
}

/**
 * What is wrong at the pump, as a test or an operator injects it. `noLoad`: the relay closes
 * but nothing flows (the starter's overload relay tripped, a motor lead is cut).
 */
export type PumpCondition = "normal" | "dryRun" | "overCurrent" | "noLoad";

/**
 * The mains as the box's voltage sensors see it: a sagging evening feeder (`low`, about 77 %
 * of nominal), a lightly loaded one at night (`high`, about 114 %), or one phase about 12 %
 * down (`unbalanced`, 3-phase only).
 */
export type SupplyCondition = "normal" | "low" | "high" | "unbalanced";
const SUPPLY_FACTOR: Record<Exclude<SupplyCondition, "unbalanced">, number> = { normal: 1, low: 0.77, high: 1.14 };
const UNBALANCED_PHASE_FACTOR = 0.88;

export type Reading = { current: number; wattage: number; voltages: number[]; supply: boolean };

export class MotorModel {
  readonly kind: DeviceKind;
  readonly horsePower: number;
  condition: PumpCondition = "normal";
  supplyCondition: SupplyCondition = "normal";
  supply = true;
  /** 3-phase only: the index of a missing phase, or null. */
  missingPhase: number | null = null;
  private readonly random: () => number;

  constructor(kind: DeviceKind, horsePower: number, random: () => number = Math.random) {
    this.kind = kind;
    this.horsePower = horsePower;
    this.random = random;
  }

  get rated(): number {
    return ratedCurrent(this.kind, this.horsePower);
  }

  /** The meter's reading `runningForMs` after the relay closed (null: relay open). */
  reading(runningForMs: number | null): Reading {
    const voltages = this.voltages();
    if (runningForMs === null || !this.supply) {
      return { current: 0, wattage: 0, voltages, supply: this.supply };
    }
    const load = { normal: 1, dryRun: DRY_RUN_LOAD, overCurrent: OVERLOAD, noLoad: 0 }[this.condition];
    const inrush = runningForMs < INRUSH_MS ? INRUSH_MULTIPLE - (INRUSH_MULTIPLE - 1) * (runningForMs / INRUSH_MS) : 1;
    const current = this.rated * load * inrush * (1 + (this.random() - 0.5) * 0.04);
    return {
      current: round(current, 2),
      wattage: round(wattageFor(this.kind, current), 0),
      voltages,
      supply: true,
    };
  }

  private voltages(): number[] {
    if (!this.supply) return this.kind === "3phase" ? [0, 0, 0] : [0];
    const nominal = this.kind === "3phase" ? THREE_PHASE_LINE_VOLTS : SINGLE_PHASE_VOLTS;
    const phases = this.kind === "3phase" ? 3 : 1;
    const level = this.supplyCondition === "unbalanced" ? 1 : SUPPLY_FACTOR[this.supplyCondition];
    return Array.from({ length: phases }, (_, phase) => {
      if (phase === this.missingPhase) return 0;
      const sagging = this.supplyCondition === "unbalanced" && phases === 3 && phase === 2;
      return round(nominal * level * (sagging ? UNBALANCED_PHASE_FACTOR : 1) * (1 + (this.random() - 0.5) * 0.02), 0);
    });
  }
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
