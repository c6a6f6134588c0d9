// Switches still waiting for their ack that a newer one overtook (the state's `pendingSwitch`
// holds only the newest), kept in storage only while there are any: a hub stopped with them
// under way (a deploy, a crash) logs each as unconfirmed when it starts again (rooms.ts).
import type { PendingSwitch } from "./state.ts";

const OVERTAKEN_IN_FLIGHT_KEY = "overtaken-switches-in-flight";

/** The overtaken switches a stopped hub left waiting for their ack, taken from storage. */
export function takeOvertakenInFlight(storage: DurableObjectStorage): PendingSwitch[] {
  const overtaken = storage.kv.get<PendingSwitch[]>(OVERTAKEN_IN_FLIGHT_KEY) ?? [];
  if (overtaken.length > 0) storage.kv.delete(OVERTAKEN_IN_FLIGHT_KEY);
  return overtaken;
}

/** Stores the overtaken switches in flight, or clears the key when there are none; whether any are stored. */
export function storeOvertakenInFlight(storage: DurableObjectStorage, overtaken: PendingSwitch[]): boolean {
  if (overtaken.length > 0) storage.kv.put(OVERTAKEN_IN_FLIGHT_KEY, overtaken);
  else storage.kv.delete(OVERTAKEN_IN_FLIGHT_KEY);
  return overtaken.length > 0;
}
