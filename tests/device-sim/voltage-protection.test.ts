// The voltage rules the box and the hub's safety net share (common/protection.ts), and the
// simulated supply that the voltage faults inject.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_VOLTAGE_LIMITS,
  NOMINAL_VOLTS,
  unbalancePercent,
  VOLTAGE_LIMIT_RANGES,
  voltageBreachOf,
  voltageLimitOutOfRange,
  voltageLimitsOf,
} from "../../common/protection.ts";
import { MotorModel } from "../../device-sim/motor-model.ts";

const threePhase = DEFAULT_VOLTAGE_LIMITS["3phase"];
const onePhase = DEFAULT_VOLTAGE_LIMITS["1phase"];

describe("voltage limits", () => {
  it("default to about 83 % and 111 % of a 230 V or 415 V motor's supply, and 6 % unbalance", () => {
    expect(voltageLimitsOf("1phase")).toEqual({ underVoltage: 190, overVoltage: 255, voltageUnbalance: 6 });
    expect(voltageLimitsOf("3phase")).toEqual({ underVoltage: 340, overVoltage: 460, voltageUnbalance: 6 });
  });

  it("take what was set, and the kind's default for what was not", () => {
    expect(voltageLimitsOf("3phase", { underVoltage: 320, overVoltage: null })).toEqual({
      underVoltage: 320,
      overVoltage: 460,
      voltageUnbalance: 6,
    });
  });

  it("must lie in the kind's ranges, which keep the motor's own supply between them", () => {
    expect(voltageLimitOutOfRange("3phase", threePhase)).toBeNull();
    expect(voltageLimitOutOfRange("1phase", onePhase)).toBeNull();
    // 340 V would never let a 230 V pump run; 255 V lets a 415 V motor run on nothing.
    expect(voltageLimitOutOfRange("1phase", threePhase)).toEqual({ field: "underVoltage", min: 150, max: 220 });
    expect(voltageLimitOutOfRange("3phase", onePhase)).toEqual({ field: "underVoltage", min: 270, max: 400 });
    // A 1-phase box measures phase to neutral: 520 V is the 3-phase scale.
    expect(voltageLimitOutOfRange("1phase", { ...onePhase, overVoltage: 520 })).toEqual({
      field: "overVoltage",
      min: 240,
      max: 275,
    });
    for (const kind of ["1phase", "3phase"] as const) {
      const ranges = VOLTAGE_LIMIT_RANGES[kind];
      expect(ranges.underVoltage.max).toBeLessThan(NOMINAL_VOLTS[kind]);
      expect(ranges.overVoltage.min).toBeGreaterThan(NOMINAL_VOLTS[kind]);
      expect(ranges.underVoltage.min).toBeGreaterThanOrEqual(0.65 * NOMINAL_VOLTS[kind]);
      expect(ranges.overVoltage.max).toBeLessThanOrEqual(1.2 * NOMINAL_VOLTS[kind]);
    }
  });
});

describe("a voltage breach", () => {
  it("is none on a healthy supply, including one sagging to just above the limit", () => {
    expect(voltageBreachOf([412, 409, 415], true, threePhase)).toBeNull();
    expect(voltageBreachOf([345, 342, 348], true, threePhase)).toBeNull();
    expect(voltageBreachOf([231], true, onePhase)).toBeNull();
  });

  it("is an under-voltage when the lowest phase is below the limit", () => {
    expect(voltageBreachOf([410, 412, 335], true, threePhase)).toBe("underVoltage");
    expect(voltageBreachOf([180], true, onePhase)).toBe("underVoltage");
  });

  it("is an over-voltage when the highest phase is above the limit", () => {
    expect(voltageBreachOf([462, 455, 458], true, threePhase)).toBe("overVoltage");
    expect(voltageBreachOf([262], true, onePhase)).toBe("overVoltage");
  });

  it("is an unbalance when one phase strays more than the limit from the average (3-phase only)", () => {
    expect(unbalancePercent([415, 415, 365])).toBe(8.4);
    expect(voltageBreachOf([415, 415, 365], true, threePhase)).toBe("voltageUnbalance");
    expect(voltageBreachOf([415, 410, 395], true, threePhase)).toBeNull();
  });

  it("is never read from a box that sends no voltages, nor from a power cut", () => {
    expect(voltageBreachOf(undefined, true, threePhase)).toBeNull();
    expect(voltageBreachOf(null, true, threePhase)).toBeNull();
    expect(voltageBreachOf([0, 0, 0], true, threePhase)).toBeNull();
    expect(voltageBreachOf([0], false, onePhase)).toBeNull();
    expect(voltageBreachOf([300, 300, 300], false, threePhase)).toBeNull();
  });
});

describe("the simulated supply", () => {
  const steady = () => 0.5;

  it("reads the nominal voltage on every phase, and sags, rises or unbalances as injected", () => {
    const motor = new MotorModel("3phase", 5, steady);
    expect(motor.reading(null).voltages).toEqual([415, 415, 415]);
    motor.supplyCondition = "low";
    expect(voltageBreachOf(motor.reading(null).voltages, true, threePhase)).toBe("underVoltage");
    motor.supplyCondition = "high";
    expect(voltageBreachOf(motor.reading(null).voltages, true, threePhase)).toBe("overVoltage");
    motor.supplyCondition = "unbalanced";
    expect(voltageBreachOf(motor.reading(null).voltages, true, threePhase)).toBe("voltageUnbalance");
  });

  it("has no unbalance on a single phase", () => {
    const motor = new MotorModel("1phase", 1, steady);
    motor.supplyCondition = "unbalanced";
    expect(motor.reading(null).voltages).toEqual([230]);
    motor.supplyCondition = "low";
    expect(voltageBreachOf(motor.reading(null).voltages, true, onePhase)).toBe("underVoltage");
  });
});
