// Commissioning's test run (docs/device-protocol.md, "Commissioning"; docs/decisions/033-installers.md):
// the installer asks, the hub checks its own way that the box is in that installer's hands (D1's
// installation, not handed over), and that the motor is known to be OFF; the box starts the
// motor, measures past the surge, stops it and answers with one `testRunResult`. One at a time.
// The waiter is memory only, as the installer's request that waits on it is: a hub that restarts
// mid-run loses the answer, and the box stops the motor by itself when the run's seconds are up.
import type { TestRunResultMessage } from "../../common/device-protocol.ts";
import type { SupplyOutcome, TestRunOutcome } from "../../common/hub-contract.ts";
import { getDb } from "../../worker/db/client.ts";
import { findInstallation } from "../../worker/db/installers.ts";
import type { MotorCommands } from "./commands.ts";
import { Room } from "./room.ts";

/** How long past the run's own seconds the hub waits for its result. */
const RESULT_GRACE_MS = 10_000;

type Waiting = { id: string; settle: (outcome: TestRunOutcome) => void };

export class Commissioning extends Room<{ commands: MotorCommands }> {
  #waiting: Waiting | null = null;

  /** Whether the box is in this installer's hands, by D1's installation (not handed over). */
  async #inHand(installerUserId: number): Promise<boolean> {
    const installation = await findInstallation(getDb(this.hub.env.DB), this.hub.deviceId);
    return installation?.installerUserId === installerUserId && installation.handedOverAt === null;
  }

  /**
   * The first step: the supply on every phase as the box reads it now. Always asked of the box
   * (a `request` for `power`), never the hub's latest: a confirmed OFF is a reading without volts.
   */
  async supply(installerUserId: number): Promise<SupplyOutcome> {
    if (!(await this.#inHand(installerUserId))) return { ok: false, code: "notAllowed" };
    const frame = await this.rooms.commands.requestFrame("power");
    if (!frame.ok) return { ok: false, code: frame.code === "offline" ? "offline" : "timeout" };
    const voltages = frame.message.voltages ?? [];
    return { ok: true, voltages, everyPhase: voltages.length > 0 && voltages.every((volts) => volts > 0) };
  }

  async testRun(installerUserId: number, seconds: number): Promise<TestRunOutcome> {
    if (!(await this.#inHand(installerUserId))) return { ok: false, code: "notAllowed" };
    const device = this.hub.sockets.device();
    if (!device) return { ok: false, code: "offline" };
    if (this.#waiting) return { ok: false, code: "busy" };
    if (this.hub.state.current.motor.status !== "off") return { ok: false, code: "motorRunning" };
    const id = `test-run-${crypto.randomUUID()}`;
    const outcome = new Promise<TestRunOutcome>((resolve) => {
      const timer = setTimeout(() => settle({ ok: false, code: "timeout" }), seconds * 1000 + RESULT_GRACE_MS);
      const settle = (result: TestRunOutcome) => {
        clearTimeout(timer);
        if (this.#waiting?.id === id) this.#waiting = null;
        resolve(result);
      };
      this.#waiting = { id, settle };
    });
    this.hub.sockets.sendToDevice(device, { type: "testRun", id, seconds });
    return outcome;
  }

  /** The box's answer: settles the run it answers; a late or unknown one changes nothing. */
  onResult(message: TestRunResultMessage): void {
    const waiting = this.#waiting;
    if (!waiting || waiting.id !== message.id) return;
    if (!message.ok || message.runningCurrent === undefined) {
      waiting.settle({ ok: false, code: "rejected", error: message.error, voltages: message.voltages });
      return;
    }
    waiting.settle({
      ok: true,
      voltages: message.voltages,
      surgeCurrent: message.surgeCurrent ?? message.runningCurrent,
      runningCurrent: message.runningCurrent,
      ranSeconds: message.ranSeconds ?? 0,
    });
  }

  /** The box's link dropped: the run's answer will not come on it. */
  linkLost(): void {
    this.#waiting?.settle({ ok: false, code: "linkLost" });
  }
}
