// D1 round trips, counted where they are made: the Worker reports a request's own on its
// answer (`Server-Timing: d1;desc="queries=N";dur=…`, readable by any client and in DevTools), and
// each DeviceHub keeps its count in its stored stats. The benchmark prints them as "D1
// queries per command"; operators can read them the same way. Counting wraps the binding:
// every statement run (first, all, run, raw), every batch and every exec is one round trip.
//
// Their time is summed too. A Worker's clock only moves when I/O completes (Cloudflare's guard
// against timing attacks), which is exactly what a D1 round trip is, so each round trip's time
// is what it kept the request waiting; round trips made side by side (Promise.all) each count
// theirs, so the sum can exceed the wall time they took together.

export type QueryCount = {
  queries: number;
  milliseconds: number;
  /** Whether any statement run was a write (worker/db/reads-that-may-lag.ts gives the browser a bookmark then). */
  wrote?: boolean;
};

/** A statement that changes the database, by its first word (drizzle's and our own SQL alike). */
const WRITE = /^\s*(insert|update|delete|replace)\b/i;

/**
 * How long a statement that meets the local database's write lock is tried again. Locally the
 * operator commands (`npm run admin:create`, `npm run device`) and the tests' setup write the
 * file `wrangler dev` serves (docs/decisions/030), and workerd's SQLite waits for no lock: the
 * statement failed at once with SQLITE_BUSY and the farmer's request with a 500. Such a command
 * holds the lock for milliseconds, on a busy machine for longer. Deployed, D1 has no writer but
 * itself and never answers SQLITE_BUSY, so nothing is tried twice there. A statement that met
 * the lock ran not at all (its transaction never began), so trying it again is safe.
 */
const LOCKED_RETRY_MS = 30_000;

function isLocked(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause.message.includes("SQLITE_BUSY")) return true;
  }
  return false;
}

/** `run`, tried again while it meets a lock held by another process on the local database. */
async function whileLocked<T>(run: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + LOCKED_RETRY_MS;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      return await run();
    } catch (error) {
      if (!isLocked(error) || Date.now() > giveUpAt) throw error;
      if (wait === 5) console.warn("D1: the local database is locked by another process; trying again");
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** `d1` with every round trip it makes added to `count`, each tried again while the local database is locked. */
export function countingD1(d1: D1Database, count: QueryCount): D1Database {
  // A batch must be given the binding's own statements: each wrapper remembers the one it wraps.
  const unwrapped = new WeakMap<D1PreparedStatement, D1PreparedStatement>();
  /** One round trip: counted, and its time added. */
  const counted = <T>(run: () => Promise<T>): Promise<T> => {
    count.queries += 1;
    const started = performance.now();
    return whileLocked(run).finally(() => {
      count.milliseconds += performance.now() - started;
    });
  };
  const writes = new WeakSet<D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, writing: boolean): D1PreparedStatement => {
    const wrapper = new Proxy(statement, {
      get(target, property) {
        switch (property) {
          case "bind":
            return (...values: unknown[]) => wrap(target.bind(...values), writing);
          case "first":
          case "all":
          case "run":
          case "raw":
            if (writing) count.wrote = true;
            return (...args: unknown[]) =>
              counted(() => (target[property] as (...a: unknown[]) => Promise<unknown>).apply(target, args));
          default: {
            const value = Reflect.get(target, property, target);
            return typeof value === "function" ? value.bind(target) : value;
          }
        }
      },
    });
    unwrapped.set(wrapper, statement);
    if (writing) writes.add(wrapper);
    return wrapper;
  };
  return new Proxy(d1, {
    get(target, property) {
      switch (property) {
        case "prepare":
          return (query: string) => wrap(target.prepare(query), WRITE.test(query));
        case "batch":
          return (statements: D1PreparedStatement[]) => {
            if (statements.some((statement) => writes.has(statement))) count.wrote = true;
            return counted(() => target.batch(statements.map((statement) => unwrapped.get(statement) ?? statement)));
          };
        case "exec":
          return (query: string) => {
            count.wrote = true;
            return counted(() => target.exec(query));
          };
        // A session (reads that may lag, worker/db/reads-that-may-lag.ts) counts as the binding does.
        case "withSession":
          return (constraint?: string) => countingD1(target.withSession(constraint) as unknown as D1Database, count);
        default: {
          const value = Reflect.get(target, property, target);
          return typeof value === "function" ? value.bind(target) : value;
        }
      }
    },
  });
}

/**
 * The `Server-Timing` entries of an answer: how many D1 round trips it took and how long they
 * kept it waiting, and how long the Worker held the request (`worker`: from its arrival to the
 * answer's headers, the Durable Object's share included). What a client measures beyond
 * `worker` is the network, or, locally, wrangler's chain in front of the Worker.
 */
export function serverTiming(count: QueryCount, workerMilliseconds: number): string {
  const ms = (value: number) => Math.round(value * 10) / 10;
  return `d1;desc="queries=${count.queries}";dur=${ms(count.milliseconds)}, worker;dur=${ms(workerMilliseconds)}`;
}
