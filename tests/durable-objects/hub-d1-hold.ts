// One hub's D1 held: its queries wait, unsent, until the test lets them go, while every other
// object's D1 answers as usual. A hold over the binding's shared prototypes (chaos-d1.ts) would
// also hold other hubs' queries made meanwhile (an alarm of an earlier test's hub), whose
// answers the runtime refuses to hand on from this hub's context.
import type { HubRooms } from "../../durable-objects/device-hub/rooms.ts";
import type { DeviceHub } from "../../durable-objects/device-hub.ts";

type Held = { real: D1Database; open: () => void };
const holds = new WeakMap<object, Held>();

const ANSWERING = new Set(["first", "all", "run", "raw"]);

function heldDatabase(real: D1Database, opened: Promise<void>): D1Database {
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (typeof value !== "function") return value;
        if (name === "bind") return (...args: unknown[]) => wrap(value.apply(target, args));
        if (ANSWERING.has(String(name))) return (...args: unknown[]) => opened.then(() => value.apply(target, args));
        return value.bind(target);
      },
    });
    unwrapped.set(proxy, statement);
    return proxy;
  };
  return new Proxy(real, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== "function") return value;
      if (name === "prepare") return (query: string) => wrap(value.call(target, query));
      if (name === "batch") {
        return (statements: D1PreparedStatement[]) =>
          opened.then(() =>
            value.call(
              target,
              statements.map((statement) => unwrapped.get(statement) ?? statement),
            ),
          );
      }
      if (name === "exec") return (query: string) => opened.then(() => value.call(target, query));
      return value.bind(target);
    },
  });
}

function contextOf(hub: DeviceHub) {
  return (hub as unknown as { rooms: HubRooms }).rooms.hub as { env: Env };
}

/** From now on, `hub`'s D1 queries wait until `releaseHubD1`; call inside the hub. */
export function holdHubD1(hub: DeviceHub): void {
  const context = contextOf(hub);
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  holds.set(hub, { real: context.env.DB, open });
  (context.env as { DB: D1Database }).DB = heldDatabase(context.env.DB, opened);
}

/** Sends what waited, and gives `hub` its D1 back; call inside the hub. */
export function releaseHubD1(hub: DeviceHub): void {
  const held = holds.get(hub);
  if (!held) return;
  holds.delete(hub);
  (contextOf(hub).env as { DB: D1Database }).DB = held.real;
  held.open();
}
