// Settings and debug mode (durable-objects/device-hub/settings.ts) without a box: settings wait
// for the next welcome, debug mode cannot start without the box confirming, and switching it
// off, by hand or by its 30-minute timer, always works and is safe twice.
import { describe, expect, it } from "vitest";
import { TIMERS } from "../../durable-objects/device-hub/timers.ts";
import { withRooms } from "./room-support.ts";

describe("settings without a box", () => {
  it("are kept for the next welcome", async () => {
    const { result, config } = await withRooms(async ({ hub, settings }) => ({
      result: await settings.updateConfig({ defaultCurrent: 9, dryRunThreshold: 25 }),
      config: hub.state.current.config,
    }));
    expect(result).toEqual({ delivered: false });
    expect(config).toMatchObject({ defaultCurrent: 9, dryRunThreshold: 25, debug: false });
  });

  it("debug mode does not start: offline, and no timer left behind", async () => {
    const { result, debug, timer } = await withRooms(async ({ hub, settings }) => ({
      result: await settings.setDebug(true),
      debug: hub.state.current.config.debug,
      timer: hub.timers.dueAt(TIMERS.debugOff),
    }));
    expect(result).toEqual({ ok: false, code: "offline" });
    expect(debug).toBe(false);
    expect(timer).toBeNull();
  });

  it("debug mode ends by hand or by its timer, however often", async () => {
    const { byHand, byTimer } = await withRooms(async ({ hub, settings }) => {
      hub.state.save({ config: { ...hub.state.current.config, debug: true } });
      hub.timers.set(TIMERS.debugOff, Date.now() + 60_000);
      const byHand = {
        result: await settings.setDebug(false),
        debug: hub.state.current.config.debug,
        timer: hub.timers.dueAt(TIMERS.debugOff),
      };
      hub.state.save({ config: { ...hub.state.current.config, debug: true } });
      await settings.debugOff();
      await settings.debugOff();
      return { byHand, byTimer: hub.state.current.config.debug };
    });
    expect(byHand).toEqual({ result: { ok: true, delivered: false }, debug: false, timer: null });
    expect(byTimer).toBe(false);
  });
});
