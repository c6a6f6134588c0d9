// Signal strength scales of SPEC §9. Boxes report dBm; the admin bars use the modem's CSQ.

/** User view: above −70 dBm green, above −85 yellow, otherwise red. */
export function signalColour(dbm: number | null): "green" | "yellow" | "red" | null {
  if (dbm === null) return null;
  if (dbm > -70) return "green";
  if (dbm > -85) return "yellow";
  return "red";
}

/** 3GPP CSQ (0–31) from dBm: dBm = −113 + 2 × CSQ. */
export function csqFromDbm(dbm: number): number {
  return Math.max(0, Math.min(31, Math.round((dbm + 113) / 2)));
}

/** Admin view: CSQ 25 or more gives 4 bars, 18 → 3, 10 → 2, above 0 → 1, else 0. */
export function signalBars(dbm: number | null): 0 | 1 | 2 | 3 | 4 {
  if (dbm === null) return 0;
  const csq = csqFromDbm(dbm);
  if (csq >= 25) return 4;
  if (csq >= 18) return 3;
  if (csq >= 10) return 2;
  if (csq > 0) return 1;
  return 0;
}
