// Commissioning's test run and dry-run check (docs/device-protocol.md, "Commissioning";
// docs/decisions/033-installers.md): the installer asks, the hub checks its own way that the box
// is in that installer's hands (D1's installation, not handed over), and that the motor is known
// to be OFF; the box starts the motor, measures (or lets its dry-run protection decide), stops it
// and answers with one result frame. One at a time, a test run or a check. The waiter is memory
// only, as the installer's request that waits on it is: a hub that restarts mid-run loses the
// answer, and the box stops the motor by itself when the run's seconds are up.
import type { DryRunCheckResultMessage, TestRunResultMessage } from "../../common/device-protocol.ts";
import type { DryRunCheckOutcome, SupplyOutcome, TestRunOutcome } from "../../common/hub-contract.ts";
import { protectionLimits } from "../../common/protection.ts";
import { getDb } from "../../worker/db/client.ts";
import { installationInHandsOf } from "../../worker/db/installers.ts";
import type { MotorCommands } from "./commands.ts";
import type { FreshReadings } from "./fresh-readings.ts";
import { Room } from "./room.ts";

/** How long past the run's own seconds the hub waits for its result. */
const RESULT_GRACE_MS = 10_000;

type Failure = Exclude<TestRunOutcome, { ok: true }>;
type ResultFrame = TestRunResultMessage | DryRunCheckResultMessage;

/** The run under way: its id, the frame type that answers it, and how it ends. */
type Waiting = {
  id: string;
  answer: ResultFrame["type"];
  onResult: (message: ResultFrame) => void;
  fail: (failure: Failure) => void;
};

export class Commissioning extends Room<{ commands: MotorCommands; readings: FreshReadings }> {
  #waiting: Waiting | null = null;

  /** Whether the box is in this installer's hands, by D1's installation (not handed over, its farmer the owner). */
  async #inHand(installerUserId: number): Promise<boolean> {
    return (await installationInHandsOf(getDb(this.hub.env.DB), installerUserId, this.hub.deviceId)) !== undefined;
  }

  /**
   * The first step: the supply on every phase as the box reads it now. Always asked of the box
   * (a `request` for `power`), never the hub's latest: a confirmed OFF is a reading without volts.
   */
  async supply(installerUserId: number): Promise<SupplyOutcome> {
    if (!(await this.#inHand(installerUserId))) return { ok: false, code: "notAllowed" };
    // On the farmer's power call's budget: each request costs the box's SIM and queues a frame.
    const read = await this.rooms.readings.boxPower();
    if (!read.ok) {
      if (read.code === "tooSoon")
        return { ok: false, code: "tooSoon", retryAfterSeconds: Math.ceil(read.retryAfterMs / 1000) };
      return { ok: false, code: read.code === "offline" ? "offline" : "timeout" };
    }
    const voltages = read.reading.voltages ?? [];
    return { ok: true, voltages, everyPhase: voltages.length > 0 && voltages.every((volts) => volts > 0) };
  }

  testRun(installerUserId: number, seconds: number): Promise<TestRunOutcome> {
    return this.#run<TestRunOutcome>(installerUserId, seconds, "testRun", (message) => {
      if (message.type !== "testRunResult") return null;
      if (!message.ok || message.runningCurrent === undefined) {
        return { ok: false, code: "rejected", error: message.error, voltages: message.voltages };
      }
      return {
        ok: true,
        voltages: message.voltages,
        surgeCurrent: message.surgeCurrent ?? message.runningCurrent,
        runningCurrent: message.runningCurrent,
        ranSeconds: message.ranSeconds ?? 0,
      };
    });
  }

  /**
   * The dry-run check: the box runs the motor with its own protection while the installer
   * closes the valve, and says whether its dry-run protection stopped it. The hub adds the limit
   * its own settings give, so that a box still holding other settings is seen.
   */
  dryRunCheck(installerUserId: number, seconds: number): Promise<DryRunCheckOutcome> {
    return this.#run<DryRunCheckOutcome>(installerUserId, seconds, "dryRunCheck", (message) => {
      if (message.type !== "dryRunCheckResult") return null;
      const { tripped, current, tripBelow } = message;
      if (!message.ok || tripped === undefined || current === undefined || tripBelow === undefined) {
        return { ok: false, code: "rejected", error: message.error, voltages: message.voltages };
      }
      const expectedTripBelow = protectionLimits(this.hub.state.current.config).dryRunBelow;
      return {
        ok: true,
        voltages: message.voltages,
        tripped,
        current,
        tripBelow,
        expectedTripBelow: Math.round(expectedTripBelow * 100) / 100,
        ranSeconds: message.ranSeconds ?? 0,
      };
    });
  }

  /**
   * One run of the box's (`frame` the command sent): the preconditions, the frame, and the wait
   * for its answer (`read` turns the box's result into the outcome; null for a frame of another run).
   */
  async #run<Outcome extends TestRunOutcome | DryRunCheckOutcome>(
    installerUserId: number,
    seconds: number,
    frame: "testRun" | "dryRunCheck",
    read: (message: ResultFrame) => Outcome | null,
  ): Promise<Outcome> {
    const refused = (failure: Failure) => failure as Outcome;
    if (!(await this.#inHand(installerUserId))) return refused({ ok: false, code: "notAllowed" });
    const device = this.hub.sockets.device();
    if (!device) return refused({ ok: false, code: "offline" });
    if (this.#waiting) return refused({ ok: false, code: "busy" });
    if (this.hub.state.current.motor.status !== "off") return refused({ ok: false, code: "motorRunning" });
    const id = `${frame === "testRun" ? "test-run" : "dry-run-check"}-${crypto.randomUUID()}`;
    const outcome = new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => settle(refused({ ok: false, code: "timeout" })), seconds * 1000 + RESULT_GRACE_MS);
      const settle = (result: Outcome) => {
        clearTimeout(timer);
        if (this.#waiting?.id === id) this.#waiting = null;
        resolve(result);
      };
      this.#waiting = {
        id,
        answer: frame === "testRun" ? "testRunResult" : "dryRunCheckResult",
        onResult: (message) => {
          const result = read(message);
          if (result) settle(result);
        },
        fail: (failure) => settle(refused(failure)),
      };
    });
    this.hub.sockets.sendToDevice(device, { type: frame, id, seconds });
    return outcome;
  }

  /** The box's answer: settles the run it answers; a late, unknown or mismatched one changes nothing. */
  onResult(message: ResultFrame): void {
    const waiting = this.#waiting;
    if (!waiting || waiting.id !== message.id || waiting.answer !== message.type) return;
    waiting.onResult(message);
  }

  /** The box's link dropped: the run's answer will not come on it. */
  linkLost(): void {
    this.#waiting?.fail({ ok: false, code: "linkLost" });
  }
}
