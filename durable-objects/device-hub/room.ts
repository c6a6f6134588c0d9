import type { HubContext } from "./context.ts";

/**
 * What every room holds: the hub's context, and the rooms built before it that it works with
 * (rooms.ts wires them in order, so no room imports one that imports it back).
 */
export abstract class Room<Rooms extends object = Record<never, never>> {
  protected readonly hub: HubContext;
  protected readonly rooms: Rooms;

  // A room that works with no other room is built with the context alone.
  constructor(hub: HubContext, ...[rooms]: Record<never, never> extends Rooms ? [rooms?: Rooms] : [rooms: Rooms]) {
    this.hub = hub;
    this.rooms = rooms ?? ({} as Rooms);
  }
}
