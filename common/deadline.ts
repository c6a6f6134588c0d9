// One way to give a promise a time limit, for the Worker, the hub and the tests alike.

/** The timer functions a deadline runs on: the runtime's, unless a caller whose clock is faked passes the real ones. */
export type DeadlineTimers = { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };

/**
 * `work`'s result, or what `late` returns (or throws) once `ms` have passed without it. The timer
 * is cleared either way. `work` itself is not stopped: what it brings later is its own business.
 * The timers are looked up when called, so a clock faked in a test drives the deadline too.
 */
export async function withDeadline<T, Late = never>(
  work: Promise<T>,
  ms: number,
  late: () => Late,
  timers: DeadlineTimers = globalThis,
): Promise<T | Late> {
  // Called unbound, as the runtime's own timers must be (a foreign `this` is refused).
  const { setTimeout: start, clearTimeout: clear } = timers;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<Late>((resolve, reject) => {
    timer = start(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    if (timer !== undefined) clear(timer);
  }
}
