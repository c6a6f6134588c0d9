// What a commissioning step answered, carried from the action to the page: the supply read, the
// test run's measures with the settings suggested from them, or the settings set.
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
    };
