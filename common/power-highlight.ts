// SPEC §9 "Power log highlight": a reading 10 A or more above the average is red, 5 A or more
// above it orange. Used by the admin's power log dialog.

export type PowerHighlight = "high" | "raised" | null;

export function averageCurrent(samples: readonly { current: number }[]): number {
  return samples.length === 0 ? 0 : samples.reduce((sum, sample) => sum + sample.current, 0) / samples.length;
}

export function powerHighlight(current: number, average: number): PowerHighlight {
  if (current - average >= 10) return "high";
  if (current - average >= 5) return "raised";
  return null;
}
