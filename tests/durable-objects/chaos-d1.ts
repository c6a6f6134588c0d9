// A D1 that hangs, for the chaos simulation (chaos-sim.ts). Hanging a real D1 needs a hand on
// its binding: the statements' and the database's own methods (the classes every binding in
// the isolate shares: the Worker's, the hub's and the tests') are wrapped once. While D1 hangs,
// each query still goes to the real D1 at once, from the context that made it, so what it
// writes may land; only its answer is held, until the hang ends and the simulation's next look
// into the hub hands it on. Nothing is invented: every answer is D1's own, late.
import { env } from "cloudflare:workers";

let hanging = false;
/** Set while the simulation itself asks D1 (its own reads, an outage's renames): those answer at once. */
let bypassing = false;
/** Queries whose answers are held back now. */
let held = 0;
/** Hands each held answer on, once the hang is over. */
const release: (() => void)[] = [];
let installed = false;

type Method = (this: unknown, ...args: unknown[]) => Promise<unknown>;

function holdAnswers(prototype: Record<string, unknown>, names: string[]): void {
  for (const name of names) {
    const original = prototype[name] as Method;
    prototype[name] = function (this: unknown, ...args: unknown[]) {
      const answer = original.apply(this, args);
      if (!hanging || bypassing) return answer;
      // Its failure is handed on with it when the hang ends, not reported as unhandled now.
      answer.catch(() => {});
      held += 1;
      return new Promise((resolve) => {
        release.push(() => {
          held -= 1;
          resolve(answer);
        });
      });
    };
  }
}

/** Wraps D1's methods once per isolate; until `hangD1`, they answer as they always do. */
export function installD1Hang(): void {
  if (installed) return;
  installed = true;
  holdAnswers(Object.getPrototypeOf(env.DB.prepare("SELECT 1")), ["first", "all", "run", "raw"]);
  holdAnswers(Object.getPrototypeOf(env.DB), ["batch", "exec"]);
}

/** `ask`'s queries, made as it is called (before its first await), are answered at once. */
export function unheld<T>(ask: () => Promise<T>): Promise<T> {
  bypassing = true;
  try {
    return ask();
  } finally {
    bypassing = false;
  }
}

export function hangD1(): void {
  hanging = true;
}

/** The hang ends: the answers held go to whoever asked at `handOnD1Answers`. */
export function endD1Hang(): void {
  hanging = false;
}

/**
 * Once the hang is over, hands every answer held to whoever asked. Called inside the hub (a
 * look of the simulation), where the hub's queries were asked. Held answers used to look for
 * the hang's end on the runtime's own timer, in the context that asked; a hello repeated
 * during a hang then never finished (its two queries' timer never fired again, though the
 * hub answered every look), and the run could not settle.
 */
export function handOnD1Answers(): void {
  if (hanging) return;
  for (const next of release.splice(0)) next();
}

/**
 * The hub's instance is lost: the answers its queries waited for are never handed on (handed
 * to the new instance, they are another object's I/O, which the runtime refuses).
 */
export function dropD1Answers(): void {
  held -= release.length;
  release.length = 0;
}

export function d1Hangs(): boolean {
  return hanging;
}

/** Queries asked while D1 hangs and not answered yet. */
export function heldD1Answers(): number {
  return held;
}
