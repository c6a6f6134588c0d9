// Cable cut or power cut (docs/device-protocol.md §7, "Theft and tamper"): the decisions as plain
// functions. A box whose supply goes while its motor runs, and which says so on its backup
// battery, is compared with the boxes of its feeder tag: if they lost supply too, or none can
// say, it was a power cut; if some still have supply and none lost it, the cable was cut.

/** What a neighbour's hub can tell about its own box's supply since a cut began. */
export type NeighbourSupply = "present" | "lost" | "unknown";

export type SupplyCutVerdict = "cableCut" | "powerCut";

/**
 * How long after the cut the neighbours are asked: their own `powerLost` frames, sent in the
 * same second over other links, must have arrived first.
 */
export const SUPPLY_CUT_SETTLE_MS = 15_000;

/** A neighbour's supply lost within this of the cut went with it: the feeder, not our cable. */
export const SAME_CUT_WINDOW_MS = 2 * 60_000;

/** At most this many neighbours are asked, whatever the size of the feeder. */
export const NEIGHBOURS_ASKED = 8;

/**
 * The verdict over the neighbours' answers. One neighbour that lost supply with the cut makes it
 * a power cut whatever the others say; without a neighbour that can vouch for its supply (no
 * feeder tag, nobody online, nobody answered) it is a power cut too: a theft alert must not ring
 * a whole village at every feeder trip.
 */
export function supplyCutVerdict(neighbours: readonly NeighbourSupply[]): SupplyCutVerdict {
  if (neighbours.includes("lost")) return "powerCut";
  return neighbours.includes("present") ? "cableCut" : "powerCut";
}

/** What a hub knows of its own box, to answer a neighbour's question. */
export type OwnSupplyView = {
  supply: boolean;
  supplyLostAt: number | null;
  /** The box's socket is open. */
  connected: boolean;
  /** The last sign of life after which the box still had supply: a frame or a heartbeat. */
  heardAt: number | null;
};

/**
 * A hub's answer about its own supply since `cutAt`. Supply counts only with a sign of life
 * after the cut: a box without a battery that lost supply says nothing, and its hub believes it
 * has supply until it misses its heartbeats.
 */
export function ownSupplySince(view: OwnSupplyView, cutAt: number): NeighbourSupply {
  if (!view.supply)
    return view.supplyLostAt !== null && Math.abs(view.supplyLostAt - cutAt) <= SAME_CUT_WINDOW_MS ? "lost" : "unknown";
  return view.connected && view.heardAt !== null && view.heardAt >= cutAt ? "present" : "unknown";
}
