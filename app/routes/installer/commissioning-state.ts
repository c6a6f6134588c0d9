// What a commissioning step answered, carried from the action to the page: the supply read, the
// test run's measures with the settings suggested from them, the settings set, or the dry-run
// check's result as the box gave it.
export type Commissioning =
  | { step: "supply"; deviceId: string; voltages: number[]; everyPhase: boolean }
  | {
      step: "testRun";
      deviceId: string;
      measured: { voltages: number[]; surgeCurrent: number; runningCurrent: number };
      suggested: { defaultCurrent: number; dryRunThreshold: number; overCurrentThreshold: number; horsePower: number };
    }
  | {
      step: "done";
      deviceId: string;
      set: { defaultCurrent: number; dryRunThreshold: number; overCurrentThreshold: number };
    }
  | {
      step: "dryRunCheck";
      deviceId: string;
      check: { tripped: boolean; current: number; tripBelow: number; ranSeconds: number };
    };
