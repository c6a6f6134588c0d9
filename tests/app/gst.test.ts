// GST on a plan's price (common/gst.ts): 18% inclusive, in integer paise, the parts always
// adding up to what the farmer pays.
import { describe, expect, it } from "vitest";
import { gstSplit, rupeesToPaise } from "../../common/gst.ts";
import { PLANS } from "../../common/plans.ts";

describe("GST on a recharge", () => {
  it("splits every plan's price into a taxable value and CGST and SGST halves that add up to it", () => {
    for (const { amount } of Object.values(PLANS)) {
      const split = gstSplit(rupeesToPaise(amount));
      expect(split.taxablePaise + split.cgstPaise + split.sgstPaise).toBe(split.totalPaise);
      expect(Math.abs(split.taxablePaise * 1.18 - split.totalPaise)).toBeLessThan(1);
      expect(split.sgstPaise - split.cgstPaise).toBeGreaterThanOrEqual(0);
      expect(split.sgstPaise - split.cgstPaise).toBeLessThanOrEqual(1);
    }
  });

  it("splits ₹1111 as the invoice shows it", () => {
    expect(gstSplit(111100)).toEqual({ totalPaise: 111100, taxablePaise: 94153, cgstPaise: 8473, sgstPaise: 8474 });
  });

  it("takes only whole paise", () => {
    expect(() => gstSplit(10.5)).toThrow();
    expect(() => gstSplit(-1)).toThrow();
  });
});
