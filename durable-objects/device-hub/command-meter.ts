// What one person's switch costs the hub, step by step, kept in its stats for operators and the
// benchmark (`lastCommand` in GET /api/admin/devices/{id}/hub-stats, docs/benchmarks.md). Each
// step gets the time since the step before it, and the storage writes, bytes written and frames
// sent in it. Deployed, a Worker's clock moves only when I/O completes (the runtime's Spectre
// mitigation), so a step that is pure CPU reads 0 ms however long it ran; locally it moves in whole
// milliseconds. Either way its counts are what can be compared.
import type { CommandCost, CommandStep, StepCost } from "../../common/hub-contract.ts";

const nothing = (): StepCost => ({ ms: 0, writes: 0, bytes: 0, frames: 0 });

/** Bytes a stored value takes, roughly: its JSON length (storage's own encoding is not exposed). */
function bytesOf(value: unknown): number {
  return typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);
}

export class CommandMeter {
  /** The command being metered, if any: at most one at a time (a second command is refused in flight). */
  #steps: Partial<Record<CommandStep, StepCost>> | null = null;
  #since = 0;
  #open: StepCost = nothing();

  /** A person's switch request reached the hub: its steps are counted from here. */
  begin(now = performance.now()): void {
    this.#steps = {};
    this.#since = now;
    this.#open = nothing();
  }

  /** Whatever the hub did since the last step is `step`'s (added to it, if it came before). */
  step(step: CommandStep): void {
    const steps = this.#steps;
    if (!steps) return;
    const now = performance.now();
    const cost = steps[step] ?? nothing();
    steps[step] = {
      ms: cost.ms + (now - this.#since),
      writes: cost.writes + this.#open.writes,
      bytes: cost.bytes + this.#open.bytes,
      frames: cost.frames + this.#open.frames,
    };
    this.#since = now;
    this.#open = nothing();
  }

  /** A storage write: `value` is measured only while a command is metered. */
  wrote(value: unknown): void {
    if (!this.#steps) return;
    this.#open.writes += 1;
    this.#open.bytes += bytesOf(value);
  }

  sent(): void {
    if (this.#steps) this.#open.frames += 1;
  }

  /** The command's answer is on its way: its cost, or null if none was metered. */
  end(): CommandCost | null {
    const steps = this.#steps;
    if (!steps) return null;
    this.#steps = null;
    const total = Object.values(steps).reduce<StepCost>(
      (sum, cost) => ({
        ms: sum.ms + cost.ms,
        writes: sum.writes + cost.writes,
        bytes: sum.bytes + cost.bytes,
        frames: sum.frames + cost.frames,
      }),
      nothing(),
    );
    return { steps, total };
  }

  /** A frame that was not a switch request after all. */
  cancel(): void {
    this.#steps = null;
  }
}
