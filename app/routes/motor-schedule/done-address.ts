// What the page's address says was just done (`?done=`), and the address a save goes to.

export const DONE = ["saved", "updated", "deleted"] as const;
export type Done = (typeof DONE)[number];

/** The list with the schedule just saved in view: the address names it and scrolls to it, with or without script. */
export function savedAddress(done: Done, id: number): string {
  return `/motor-schedule?done=${done}&saved=${id}#schedule-${id}`;
}
