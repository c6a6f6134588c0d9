// The simulated motor and the horsepower the app shows agree: a pump drawing its rated current
// is shown as the horsepower written on it, for both kinds of box.
import { describe, expect, it } from "vitest";
import { horsePowerFor } from "../../common/protection.ts";
import { ratedCurrent } from "../../device-sim/motor-model.ts";

describe("horsepower shown for a running current", () => {
  it.each([1, 3, 5, 7.5, 10, 25])(
    "is %s HP for a %s HP 3-phase motor at its rated current (SPEC §9's formula)",
    (hp) => {
      expect(horsePowerFor(ratedCurrent("3phase", hp), "3phase")).toBeCloseTo(hp, 1);
    },
  );

  it.each([0.5, 1, 1.5, 2, 3])("is %s HP for a %s HP 1-phase motor on 230 V, not three times that", (hp) => {
    expect(horsePowerFor(ratedCurrent("1phase", hp), "1phase")).toBeCloseTo(hp, 1);
  });

  it("keeps SPEC §9's example: 12 A on a 3-phase box is 6.7 HP", () => {
    expect(horsePowerFor(12, "3phase")).toBe(6.7);
  });
});
