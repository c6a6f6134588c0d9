// The simulator against a hub in this process that speaks the server's side of the protocol
// and checks every frame with the shared schemas, as the real hub does.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ratedCurrent } from "../../device-sim/motor-model.ts";
import type { SimulatedDevice, SimulatedDeviceOptions } from "../../device-sim/simulated-device.ts";
import { CONDITION_LIMIT_MS } from "../time-limits.ts";
import { type FakeHub, simulatedBox, startFakeHub, startFirmwareServer } from "./fake-hub.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function hub(options?: Parameters<typeof startFakeHub>[0]) {
  const started = await startFakeHub(options);
  cleanups.push(() => started.close());
  return started;
}

function simulator(fakeHub: FakeHub, overrides: Partial<SimulatedDeviceOptions> = {}) {
  const device = simulatedBox(fakeHub, { restartDelayMs: 100, ...overrides });
  cleanups.unshift(() => device.stop());
  return device;
}

async function connected(fakeHub: FakeHub, overrides: Partial<SimulatedDeviceOptions> = {}) {
  const device = simulator(fakeHub, overrides);
  device.start();
  await device.waitUntilConnected();
  await fakeHub.next("hello");
  return device;
}

/** A box on a hub of its own, whose motor the hub has switched ON (the ack taken). */
async function runningBox(overrides: Partial<SimulatedDeviceOptions> = {}) {
  const fakeHub = await hub();
  const device = await connected(fakeHub, overrides);
  fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
  await fakeHub.next("ack");
  return { fakeHub, device };
}

const basic = (deviceId: string, key: string) => `Basic ${Buffer.from(`${deviceId}:${key}`).toString("base64")}`;
const rated = ratedCurrent("3phase", 5);

/** A millisecond clock read twice may differ by a tick less than the timer's delay. */
const CLOCK_TICK_MS = 2;

/** Every frame `device` sends from now on, with when it sent it by its own clock. */
function framesSentBy(device: SimulatedDevice): { text: string; at: number }[] {
  const sent: { text: string; at: number }[] = [];
  device.on("sent", (text: string, at: number) => sent.push({ text, at }));
  return sent;
}

describe("connection", () => {
  it("connects with Basic device credentials and says hello with its identity and relay", async () => {
    const fakeHub = await hub();
    const device = simulator(fakeHub);
    device.start();
    await device.waitUntilConnected();
    expect(fakeHub.authorizations[0]).toBe(basic("SNC-TESTPUMP", "secret-key"));
    expect(await fakeHub.next("hello")).toMatchObject({
      protocol: 1,
      kind: "3phase",
      relay: "off",
      firmware: "sim-1.0.0",
      connection: "sim",
      supply: true,
      phaseFault: false,
    });
    expect(device.config.defaultCurrent).toBe(9); // taken from the welcome
  });

  it("sends heartbeats at the interval the hub asks for", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    const sent = framesSentBy(device);
    const hello = device.lastFrameSentAt!;
    await expect.poll(() => sent.length).toBeGreaterThanOrEqual(2);
    // With nothing else to say, each frame is a ping, a full interval (1 s) after the one before,
    // by the box's own clock: a slow machine delays them, never brings them forward.
    expect(sent.slice(0, 2).map((frame) => frame.text)).toEqual(["ping", "ping"]);
    expect(sent[0]!.at - hello).toBeGreaterThanOrEqual(1_000 - CLOCK_TICK_MS);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(1_000 - CLOCK_TICK_MS);
    await expect.poll(() => fakeHub.rawIn.filter((text) => text === "ping").length).toBe(2);
  });

  it("sends no heartbeat while other frames already prove it is alive", async () => {
    const fakeHub = await hub();
    fakeHub.heartbeatSeconds = 2;
    const device = await connected(fakeHub);
    const sent = [{ text: "hello", at: device.lastFrameSentAt! }];
    device.on("sent", (text: string, at: number) => sent.push({ text, at }));
    fakeHub.send({ type: "watch", watched: true, intervalSeconds: 1 }); // a power frame every second
    await expect.poll(() => sent.filter((frame) => frame.text.includes('"power"')).length).toBeGreaterThanOrEqual(4);
    // A ping only after 2 s without a frame: with a power frame every second, none (a machine so
    // slow that a second's frame came 2 s late may send one, and only then).
    sent.forEach((frame, index) => {
      if (frame.text === "ping") expect(frame.at - sent[index - 1]!.at).toBeGreaterThanOrEqual(2_000 - CLOCK_TICK_MS);
    });
  });

  it("reconnects after the connection drops, says hello again and keeps its relay", async () => {
    const { fakeHub, device } = await runningBox();
    const reconnected = device.waitFor("welcome");
    fakeHub.dropConnection();
    await reconnected;
    expect(fakeHub.connections).toBe(2);
    expect(await fakeHub.next("hello")).toMatchObject({ relay: "on" });
  });

  it("can go silent on a link nobody closed, and speaks again on its next connection", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    device.inject("goSilent");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    await fakeHub.expectNone("ack", 300);
    expect(device.relay).toBe("on"); // it still acts; only what it says is lost
    const reconnected = device.waitFor("welcome");
    fakeHub.dropConnection();
    await reconnected;
    expect(await fakeHub.next("hello")).toMatchObject({ relay: "on" });
  });

  it("backs off with jitter while the server refuses it", async () => {
    const fakeHub = await hub({ refuseWith: 401 });
    const device = simulator(fakeHub, { reconnectBaseMs: 20, reconnectMaxMs: 100 });
    const refusals: number[] = [];
    const waits: { delayMs: number; ceilingMs: number }[] = [];
    device.on("refused", (status: number) => refusals.push(status));
    device.on("reconnecting", (wait: { delayMs: number; ceilingMs: number }) => waits.push(wait));
    device.start();
    // However slow the machine, the sixth try is as far as the ceiling's doubling needs.
    await expect.poll(() => waits.length, { timeout: CONDITION_LIMIT_MS }).toBeGreaterThanOrEqual(6);
    expect(refusals.length).toBeGreaterThanOrEqual(5);
    expect(refusals.every((status) => status === 401)).toBe(true);
    // The ceiling doubles from the base up to the maximum; each wait is drawn below it.
    expect(waits.slice(0, 6).map((wait) => wait.ceilingMs)).toEqual([20, 40, 80, 100, 100, 100]);
    for (const wait of waits) expect(wait.delayMs).toBeLessThanOrEqual(wait.ceilingMs);
    expect(new Set(waits.map((wait) => wait.delayMs)).size).toBeGreaterThan(1);
  });

  it("counts payload and framing bytes both ways", async () => {
    const fakeHub = await hub();
    await connected(fakeHub).then((device) => {
      // Client frames: 2-byte header (+2 when the payload is 126 bytes or more) + 4-byte mask.
      const framing = (bytes: number, masked: boolean) => 2 + (bytes >= 126 ? 2 : 0) + (masked ? 4 : 0);
      const sent = fakeHub.rawIn.reduce((total, text) => total + text.length + framing(text.length, true), 0);
      const received = fakeHub.rawOut.reduce((total, text) => total + text.length + framing(text.length, false), 0);
      expect(device.counters).toEqual({ framesSent: 1, framesReceived: 1, bytesSent: sent, bytesReceived: received });
      expect(sent).toBeGreaterThan(100);
    });
  });
});

describe("relay and readings", () => {
  it("acknowledges a switch, draws inrush current at start and its rated current after", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    expect(await fakeHub.next("ack")).toEqual({ type: "ack", id: "cmd-1", ok: true, relay: "on" });
    const atStart = await fakeHub.next("power");
    expect(atStart.current).toBeGreaterThan(rated * 4); // inrush
    expect(atStart.voltages).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    fakeHub.received.length = 0; // the falling inrush was reported as it changed
    fakeHub.send({ type: "request", id: "req-1", what: "power" });
    expect(await fakeHub.next("ack")).toMatchObject({ id: "req-1", ok: true });
    const running = await fakeHub.next("power");
    expect(running.current).toBeGreaterThan(rated * 0.97);
    expect(running.current).toBeLessThan(rated * 1.03);
    expect(running.supply).toBe(true);
    expect(device.relay).toBe("on");

    fakeHub.send({ type: "switch", id: "cmd-2", relay: "off" });
    expect(await fakeHub.next("ack")).toEqual({ type: "ack", id: "cmd-2", ok: true, relay: "off" });
    expect(await fakeHub.next("power")).toMatchObject({ current: 0, wattage: 0 });
  });

  it("reports power every interval while watched, and stops when nobody watches", async () => {
    const fakeHub = await hub();
    await connected(fakeHub);
    fakeHub.send({ type: "watch", watched: true, intervalSeconds: 1 });
    await fakeHub.next("power");
    await fakeHub.next("power");
    fakeHub.send({ type: "watch", watched: false, intervalSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    fakeHub.received.length = 0;
    await fakeHub.expectNone("power", 1_300);
  });

  it("while running unwatched, reports power only when the current moves by more than 10 %", async () => {
    const { fakeHub, device } = await runningBox({ protectionSampleMs: 50, protectionGraceMs: 60_000 });
    // The inrush fades, reported as it falls; then steady: ±2 % noise is not news.
    await fakeHub.untilQuiet("power", 800, 8_000);
    device.inject("dryRun"); // the current drops to 45 %
    const report = await fakeHub.next("power", 1_000);
    expect(report.current).toBeLessThan(rated * 0.5);
  });

  it("while running unwatched, reports power when a phase's voltage moves by more than 10 %", async () => {
    const { fakeHub, device } = await runningBox({ protectionSampleMs: 50, protectionGraceMs: 60_000 });
    await fakeHub.untilQuiet("power", 800, 8_000);
    device.inject("lowVoltage"); // about 77 % of 415 V, the current unchanged
    const report = await fakeHub.next("power", 1_000);
    expect(Math.max(...(report.voltages ?? []))).toBeLessThan(415 * 0.8);
  });

  it("sends a health report on request", async () => {
    const fakeHub = await hub();
    await connected(fakeHub, { connection: "wifi" });
    fakeHub.send({ type: "request", id: "req-1", what: "health" });
    expect(await fakeHub.next("ack")).toMatchObject({ id: "req-1", ok: true });
    const health = await fakeHub.next("health");
    expect(health).toMatchObject({ relay: "off", connection: "connected", version: "sim-1.0.0", chipId: "TESTPUMP" });
    expect(health.uptime).toBeGreaterThanOrEqual(0);
    expect(health.signal).toBeLessThan(-59);
    expect(health.sim).toBeUndefined(); // a Wi-Fi box has no SIM
  });

  it("takes new settings from a config command", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    const config = {
      defaultCurrent: 12.5,
      dryRunThreshold: 20,
      overCurrentThreshold: 25,
      debug: false,
      mobileNo: "9123456789",
    };
    fakeHub.send({ type: "config", id: "cfg-1", config });
    expect(await fakeHub.next("ack")).toMatchObject({ id: "cfg-1", ok: true });
    expect(device.config).toEqual(config);
  });
});

describe("protection", () => {
  const fast = { protectionGraceMs: 1_700, protectionSustainMs: 300, protectionSampleMs: 50 };

  it("trips on a dry run that lasts, and says so", async () => {
    const { fakeHub, device } = await runningBox(fast);
    device.inject("dryRun");
    const event = await fakeHub.next("event", 4_000);
    expect(event).toMatchObject({ event: "dryRun", relay: "off" });
    expect(event.current).toBeLessThan(9 * 0.7);
    expect(device.relay).toBe("off");
  });

  it("trips on overcurrent, but never on the inrush of a start", async () => {
    const { fakeHub, device } = await runningBox(fast);
    await fakeHub.expectNone("event", 2_200); // 6× inrush, then healthy running current
    expect(device.relay).toBe("on");
    device.inject("overCurrent");
    expect(await fakeHub.next("event", 2_000)).toMatchObject({ event: "overCurrent", relay: "off" });
  });

  it("does not trip when its protection is broken (the hub's safety net must)", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub, fast);
    device.inject("ignoreProtection");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    await fakeHub.next("ack");
    device.inject("overCurrent");
    await fakeHub.expectNone("event", 2_500);
    expect(device.relay).toBe("on");
  });

  it("with no load (a tripped overload relay in the starter) closes its relay and reads no current", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    device.inject("noLoad");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ ok: true, relay: "on" });
    expect(device.relay).toBe("on");
    expect(device.reading().current).toBe(0);
  });

  it("stops on a missing phase and holds the motor off until the phase is back (3-phase)", async () => {
    const { fakeHub, device } = await runningBox();
    device.inject("phaseLoss");
    expect(await fakeHub.next("event")).toMatchObject({ event: "phaseFault", relay: "off", detail: "Phase Y missing" });
    fakeHub.send({ type: "switch", id: "cmd-2", relay: "on" });
    expect(await fakeHub.next("ack")).toEqual({
      type: "ack",
      id: "cmd-2",
      ok: false,
      relay: "off",
      error: "Phase fault: motor held off",
    });
    device.inject("phaseRestore");
    expect(await fakeHub.next("event")).toMatchObject({ event: "phaseOk", relay: "off" });
    fakeHub.send({ type: "switch", id: "cmd-3", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ id: "cmd-3", ok: true, relay: "on" });
  });

  it("has no phase faults on a 1-phase box", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub, { kind: "1phase", horsePower: 1 });
    device.inject("phaseLoss");
    await fakeHub.expectNone("event", 200);
  });

  it.each([
    ["lowVoltage", "underVoltage"],
    ["highVoltage", "overVoltage"],
    ["unbalancedVoltage", "voltageUnbalance"],
  ] as const)("trips on %s once it lasts past the grace, and sends the voltages (%s)", async (fault, event) => {
    const { fakeHub, device } = await runningBox(fast);
    device.inject(fault);
    await fakeHub.expectNone("event", 1_200); // still within the start-up grace
    expect(device.relay).toBe("on");
    const tripped = await fakeHub.next("event", 3_000);
    expect(tripped).toMatchObject({ event, relay: "off" });
    expect(tripped.voltages).toHaveLength(3);
    expect(device.relay).toBe("off");
  });

  it("does not trip on a voltage that only dips for a moment", async () => {
    const { fakeHub, device } = await runningBox({ ...fast, protectionSustainMs: 1_000 });
    await fakeHub.expectNone("event", 1_900); // past the start-up grace
    device.inject("lowVoltage");
    await fakeHub.expectNone("event", 400);
    device.inject("normalVoltage");
    await fakeHub.expectNone("event", 1_300);
    expect(device.relay).toBe("on");
  });

  it("refuses to start on a supply out of its limits, saying which as a code, and starts once it is back", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub, { kind: "1phase", horsePower: 1 });
    device.inject("lowVoltage");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ ok: false, relay: "off", reason: "underVoltage" });
    device.inject("normalVoltage");
    fakeHub.send({ type: "switch", id: "cmd-2", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ ok: true, relay: "on" });
  });

  it("judges the supply by the limits the hub sent", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    device.inject("lowVoltage"); // about 320 V
    const config = { ...device.config, underVoltage: 300 };
    fakeHub.send({ type: "config", id: "cfg-1", config });
    await fakeHub.next("ack");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ ok: true, relay: "on" });
  });

  it("reports a power cut and stays OFF when power returns", async () => {
    const { fakeHub, device } = await runningBox();
    device.inject("powerCut");
    expect(await fakeHub.next("event")).toMatchObject({ event: "powerLost", relay: "off" });
    fakeHub.send({ type: "switch", id: "cmd-2", relay: "on" });
    expect(await fakeHub.next("ack")).toMatchObject({ ok: false, error: "No mains power" });
    device.inject("powerRestore");
    expect(await fakeHub.next("event")).toMatchObject({ event: "powerRestored", relay: "off" });
    expect(device.relay).toBe("off");
  });
});

describe("acknowledgements", () => {
  it("can be made to never acknowledge, or to acknowledge late", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub, { slowAckMs: 400 });
    device.inject("noAck");
    fakeHub.send({ type: "switch", id: "cmd-1", relay: "on" });
    await fakeHub.expectNone("ack", 600);
    device.inject("slowAck");
    fakeHub.send({ type: "switch", id: "cmd-2", relay: "off" });
    await fakeHub.expectNone("ack", 200);
    expect(await fakeHub.next("ack")).toMatchObject({ id: "cmd-2", ok: true });
  });
});

describe("restart and firmware update", () => {
  it("restarts on command: relay OFF, away for a moment, hello again", async () => {
    const { fakeHub, device } = await runningBox();
    fakeHub.send({ type: "restart", id: "rst-1" });
    expect(await fakeHub.next("ack")).toMatchObject({ id: "rst-1", ok: true });
    expect(await fakeHub.next("hello")).toMatchObject({ relay: "off" });
    expect(fakeHub.connections).toBe(2);
    expect(device.relay).toBe("off");
  });

  it("downloads firmware with its own credentials, checks the hash, installs and comes back with the new version", async () => {
    const image = Buffer.from("firmware image 2.0.0 ".repeat(1000));
    const files = await startFirmwareServer(image, basic("SNC-TESTPUMP", "secret-key"));
    cleanups.push(() => void files.server.close());
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    fakeHub.send({
      type: "ota",
      id: "ota-1",
      version: "2.0.0",
      url: `${files.url}/firmware/1`,
      sha256: createHash("sha256").update(image).digest("hex"),
      size: image.length,
    });
    expect(await fakeHub.next("ack")).toMatchObject({ id: "ota-1", ok: true });
    const stages: string[] = [];
    for (let index = 0; index < 3; index++) stages.push((await fakeHub.next("ota")).stage);
    expect(stages).toEqual(["downloading", "verifying", "installing"]);
    expect(await fakeHub.next("hello")).toMatchObject({ firmware: "2.0.0" });
    expect(device.firmware).toBe("2.0.0");
  });

  it.each([
    ["a hash that does not match", "wrong-hash", "SHA-256 mismatch"],
    ["a corrupted download", "corrupt", "SHA-256 mismatch"],
    ["a missing file", "missing", "download failed with HTTP 404"],
  ])("reports failure for %s and keeps its firmware", async (_, variant, error) => {
    const image = Buffer.from("firmware image 2.0.0");
    const files = await startFirmwareServer(image, basic("SNC-TESTPUMP", "secret-key"));
    cleanups.push(() => void files.server.close());
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    if (variant === "corrupt") device.inject("corruptDownload");
    const rightHash = createHash("sha256").update(image).digest("hex");
    fakeHub.send({
      type: "ota",
      id: "ota-1",
      version: "2.0.0",
      url: `${files.url}/firmware/${variant === "missing" ? 9 : 1}`,
      sha256: variant === "wrong-hash" ? "0".repeat(64) : rightHash,
      size: image.length,
    });
    await fakeHub.next("ack");
    const failed = await waitForStage(fakeHub, "failed");
    expect(failed.error).toBe(error);
    expect(device.firmware).toBe("sim-1.0.0");
    expect(fakeHub.connections).toBe(1);
  });
});

describe("debug mode", () => {
  it("streams log lines only while debug mode is on", async () => {
    const fakeHub = await hub();
    const device = await connected(fakeHub);
    device.inject("normal");
    await fakeHub.expectNone("log", 300);
    fakeHub.send({ type: "config", id: "cfg-1", config: { ...fakeHub.config, debug: true } });
    await fakeHub.next("ack");
    expect((await fakeHub.next("log", 3_000)).line).toMatch(/^(config: |relay=)/);
    fakeHub.send({ type: "config", id: "cfg-2", config: { ...fakeHub.config, debug: false } });
    await fakeHub.next("ack");
    await new Promise((resolve) => setTimeout(resolve, 100));
    fakeHub.received.length = 0;
    await fakeHub.expectNone("log", 2_500);
  });
});

async function waitForStage(fakeHub: FakeHub, stage: string) {
  for (;;) {
    const message = await fakeHub.next("ota");
    if (message.stage === stage) return message;
  }
}
