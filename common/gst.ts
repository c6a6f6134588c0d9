// GST on a recharge, in one place: every plan's price is GST-inclusive at 18% (SAC 9984, telecom
// connectivity), split into the taxable value and the tax as the invoice shows them. Sinchai
// bills from one state and a farmer's place of supply is not known to the checkout, so the tax
// is shown as CGST and SGST halves (intra-state); an inter-state invoice reads the same total as
// IGST (docs/payments.md, "GST"). Integer paise throughout: no rupee fraction is ever rounded
// twice.

/** 18%, as a fraction of the taxable value: the tax is 18/118 of a GST-inclusive price. */
export const GST_RATE_PERCENT = 18;

export type GstSplit = {
  /** What the farmer pays. */
  totalPaise: number;
  /** The price before tax: total × 100 / 118, rounded to the nearest paisa. */
  taxablePaise: number;
  /** Half the tax, rounded down; SGST takes the odd paisa, so the parts always add up to the total. */
  cgstPaise: number;
  sgstPaise: number;
};

export function gstSplit(totalPaise: number): GstSplit {
  if (!Number.isSafeInteger(totalPaise) || totalPaise < 0) throw new Error("An amount in paise is a whole number.");
  const taxablePaise = Math.round((totalPaise * 100) / (100 + GST_RATE_PERCENT));
  const tax = totalPaise - taxablePaise;
  const cgstPaise = Math.floor(tax / 2);
  return { totalPaise, taxablePaise, cgstPaise, sgstPaise: tax - cgstPaise };
}

/** Rupees (the plans' prices, SPEC §9) in paise. */
export function rupeesToPaise(rupees: number): number {
  if (!Number.isSafeInteger(rupees)) throw new Error("A plan's price is whole rupees.");
  return rupees * 100;
}
