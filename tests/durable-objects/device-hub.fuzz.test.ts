// Fuzzing the two sockets of a DeviceHub (docs/security.md, "Fuzzing"): thousands of generated
// bad frames over real WebSockets. A box's bad frame gets the documented `error` frame
// (docs/device-protocol.md §2) and changes nothing; a browser's frame that is not a request
// (none has a `requestId`; requests are realtime.commands.test.ts) is ignored: no answer, no
// change, the socket stays open. Afterwards the hub still
// answers, has not restarted, and its state, its storage and D1 are exactly as before.
//
// The message types come from the protocol's zod unions, so a new type is fuzzed as soon as
// it is added (and must get a valid example below: the types make that a compile error).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEVICE_PROTOCOL_VERSION,
  type DeviceMessage,
  deviceMessageSchema,
  serverToDeviceMessageSchema,
} from "../../common/device-protocol.ts";
import { MAX_BROWSER_FRAME_BYTES, realtimeMessageSchema } from "../../common/realtime-protocol.ts";
import {
  baseSeed,
  brokenObject,
  d1Snapshot,
  extraKey,
  hubStorageSnapshot,
  junkObject,
  malformedJson,
  nastyString,
  nonObjectJson,
  parsesAsJson,
  seedFor,
  smallJson,
  toJsonText,
  utf8Length,
} from "../worker/fuzz-support.ts";
import { adminToken } from "../worker/helpers/accounts.ts";
import { farmerWithDevice } from "../worker/helpers/boxes.ts";
import { freshStorageForThisFile } from "../worker/helpers/fresh-storage.ts";
import { postJson } from "../worker/helpers/http.ts";
import { hubStub, liftFrameRateCap, snapshotWithoutClocks } from "../worker/helpers/hub-state.ts";
import { type BrowserPeer, browserWatching, connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";

freshStorageForThisFile();

const MIN_SOCKET_INPUTS = 4_000;
/** docs/device-protocol.md §2: one JSON object per text frame, at most 4,096 bytes. */
const MAX_FRAME_BYTES = 4096;
/** Runs per device message type once the box has said hello. */
const RUNS_PER_TYPE = 300;

const DEVICE_TYPES = deviceMessageSchema.options.map((option) => option.shape.type.value);
const SERVER_TYPES = serverToDeviceMessageSchema.options.map((option) => option.shape.type.value);
// Built with zod's small build (common/zod-mini.ts): its schemas keep their parts in `def`.
const REALTIME_TYPES = realtimeMessageSchema.def.options.map((option) => option.shape.type.def.values[0]!);

type DeviceType = DeviceMessage["type"];

/** A valid frame of every type with every optional field: the fuzzers break them. */
const EXAMPLES: { [T in DeviceType]: Extract<DeviceMessage, { type: T }> } = {
  hello: {
    type: "hello",
    protocol: DEVICE_PROTOCOL_VERSION,
    firmware: "test-1.0.0",
    kind: "3phase",
    relay: "on",
    connection: "sim",
    imei: "866000000000001",
    sim: "8991000000000000001",
    chipId: "A1B2C3",
    signal: -71,
    supply: true,
    phaseFault: false,
  },
  ack: { type: "ack", id: "6f1c0000-fuzz", ok: true, relay: "off", error: "Relay stuck", reason: "underVoltage" },
  power: { type: "power", current: 1.0, wattage: 575, voltages: [415, 413, 416], supply: true },
  relay: { type: "relay", relay: "off", cause: "manual" },
  health: {
    type: "health",
    uptime: 3600,
    signal: -79,
    relay: "on",
    chipId: "A1B2C3",
    imei: "866000000000001",
    connection: "connected",
    sim: "8991000000000000001",
    version: "2.1.0",
  },
  event: {
    type: "event",
    event: "dryRun",
    relay: "off",
    current: 3.1,
    voltages: [412, 409, 415],
    detail: "Phase Y missing",
    phase: "Y",
    battery: false,
  },
  log: { type: "log", line: "I (1234) relay=ON" },
  ota: { type: "ota", id: "ota-fuzz", stage: "downloading", progress: 50, error: "checksum mismatch" },
  testRunResult: {
    type: "testRunResult",
    id: "test-run-fuzz",
    ok: false,
    relay: "off",
    voltages: [412, 409, 415],
    surgeCurrent: 53.4,
    runningCurrent: 8.9,
    ranSeconds: 10,
    error: "Stopped by an OFF",
  },
  dryRunCheckResult: {
    type: "dryRunCheckResult",
    id: "dry-run-check-fuzz",
    ok: true,
    relay: "off",
    voltages: [412, 409, 415],
    tripped: true,
    current: 4.1,
    tripBelow: 6.23,
    ranSeconds: 17,
    error: "Stopped by an OFF",
  },
};

const fieldsOf = (type: DeviceType): string[] =>
  Object.keys(deviceMessageSchema.options.find((option) => option.shape.type.value === type)!.shape);

// ---- frames and what the hub must answer ---------------------------------------------------------

type Frame = { text: string } | { binary: number[] };

/** The text as the hub receives it: lone surrogates travel as U+FFFD; a BOM stays. */
const received = (text: string) =>
  new TextDecoder("utf-8", { ignoreBOM: true, fatal: false }).decode(new TextEncoder().encode(text));

/**
 * The error a box gets for this frame (docs/device-protocol.md §2, §3), or null when the frame
 * is valid: those change state by design and are never sent by the fuzzers.
 */
function expectedError(frame: Frame, saidHello: boolean): string | RegExp | null {
  if ("binary" in frame) return "Frames must be JSON text.";
  const text = received(frame.text);
  if (utf8Length(text) > MAX_FRAME_BYTES) return "Frame is too large.";
  if (!parsesAsJson(text)) return "Frame is not valid JSON.";
  const result = deviceMessageSchema.safeParse(JSON.parse(text));
  if (!result.success) return /^Invalid message( at [^:]+)?: ./;
  if (!saidHello && result.data.type !== "hello") return "Say hello first.";
  return null;
}

const textFrame = (value: unknown): Frame => ({ text: toJsonText(value) });

/** A pad that takes a frame past 4,096 bytes: sometimes only in UTF-8 (under 4,096 characters). */
const oversizedPad = fc
  .oneof(
    fc.tuple(fc.integer({ min: 1_400, max: 1_500 }), fc.constant("ऋ")), // 3 bytes each: > 4 KB, < 4,096 chars
    fc.tuple(fc.integer({ min: 1_030, max: 2_000 }), fc.constant("😀")), // 4 bytes, 2 UTF-16 units
    fc.tuple(fc.integer({ min: 4_097, max: 1_000_000 }), fc.constantFrom("x", " ")),
  )
  .map(([count, unit]) => unit.repeat(count));

/** Bad frames built around one message type: broken fields, junk fields, near-miss types, too big, cut short. */
function framesOfType(type: DeviceType): fc.Arbitrary<Frame> {
  const example = EXAMPLES[type] as Record<string, unknown>;
  const fields = fieldsOf(type);
  return fc.oneof(
    { weight: 10, arbitrary: brokenObject(example, fields).map(textFrame) },
    {
      weight: 3,
      arbitrary: junkObject(
        fields.filter((field) => field !== "type"),
        [["type", type]],
      ).map(textFrame),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          type.toUpperCase(),
          ` ${type}`,
          `${type} `,
          `${type}\u0000`,
          type[0]!.toUpperCase() + type.slice(1),
          `${type}s`,
          ...DEVICE_TYPES.filter((other) => other !== type),
        )
        .map((near) => textFrame({ ...example, type: near })),
    },
    { weight: 1, arbitrary: oversizedPad.map((padding) => textFrame({ ...example, padding })) },
    { weight: 1, arbitrary: malformedJson(JSON.stringify(example)).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.constant<Frame>({ binary: [...new TextEncoder().encode(JSON.stringify(example))] }) },
  );
}

/** Frames that belong to no type: binary, not JSON, not an object, unknown or missing types, huge. */
const shapelessFrames: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ binary: [...bytes] })) },
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: "binary", maxLength: 80 })
      .filter((text) => !parsesAsJson(text))
      .map((text) => ({ text })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("PING", " ping", "ping\n", "Ping", "pong", "ping ping", "", "\u0000")
      .map((text) => ({ text })),
  },
  { weight: 2, arbitrary: nonObjectJson.map((text) => ({ text })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(nastyString, fc.constantFrom(...SERVER_TYPES, ...REALTIME_TYPES, "Hello", "HELLO", "__proto__")),
        fc.dictionary(extraKey, smallJson, { maxKeys: 4 }),
      )
      .map(([type, rest]) => textFrame({ ...rest, type })),
  },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(extraKey, smallJson, { maxKeys: 4 })
      .map((rest) => textFrame({ ...rest, type: undefined })),
  },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()))
      .map((type) => textFrame({ type, relay: "on" })),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: MAX_FRAME_BYTES + 1, max: 1_000_000 }).map((size) => ({ text: "x".repeat(size) })),
  },
);

// ---- the hub and what must not change ------------------------------------------------------------

let sentFrames = 0;

async function watchedHub() {
  const farmer = await farmerWithDevice();
  await liftFrameRateCap(farmer.device.deviceId);
  const box = (await connectDevice(farmer.device)).autoAck({ runningCurrent: 1.0 });
  const browser = await browserWatching(farmer.user.mobileNo, { token: farmer.token });
  const admin = await browserWatching(farmer.user.mobileNo, { token: await adminToken() });
  // Something worth protecting: the motor running, a reading, a health report, a log line.
  expect((await postJson("/api/devices/motor", { action: "on" }, farmer.token)).status).toBe(200);
  box.send(EXAMPLES.health);
  await browser.next("healthData");
  await admin.next("healthData");
  await settle(browser, admin);
  return { ...farmer, box, browser, admin };
}

/** A watched hub whose box has gone offline (both browsers told, then emptied), and its state then. */
async function watchedHubWithoutBox() {
  const { box, ...hub } = await watchedHub();
  box.close();
  await hub.admin.next("deviceStatusUpdate");
  await settle(hub.browser, hub.admin);
  return { ...hub, before: await hubState(hub.device.deviceId) };
}

/** Waits until the hub has handled everything sent so far, then forgets what the browsers got. */
async function settle(...browsers: BrowserPeer[]) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const peer of browsers) peer.received.splice(0);
}

/** The hub's answer-giving state, its storage, its counters and all of D1. */
async function hubState(deviceId: string) {
  const stub = hubStub(deviceId);
  const { wakes, deviceFrames } = await stub.hubStats();
  return {
    snapshot: await snapshotWithoutClocks(deviceId),
    storage: await hubStorageSnapshot(deviceId),
    wakes,
    deviceFrames,
    d1: await d1Snapshot(),
  };
}

/** Sends a frame from the box and checks the documented error comes back. */
async function sendFromBox(box: DevicePeer, frame: Frame, saidHello: boolean) {
  const expected = expectedError(frame, saidHello);
  if (expected === null) throw new Error("a valid frame reached sendFromBox");
  sentFrames += 1;
  if ("binary" in frame) box.ws.send(new Uint8Array(frame.binary));
  else box.sendRaw(frame.text);
  const answer = await box.next("error");
  const shown = "binary" in frame ? `${frame.binary.length} bytes` : JSON.stringify(frame.text.slice(0, 200));
  if (typeof expected === "string") expect(answer.message, shown).toBe(expected);
  else expect(answer.message, shown).toMatch(expected);
  expect(box.closed, shown).toBeNull();
  // A heartbeat now and then: it proves the socket still works, and keeps a watched box
  // (20 s liveness limit) from being marked offline while the fuzzer sends only bad frames.
  if (sentFrames % 50 === 0) {
    const pongs = box.raw.filter((text) => text === "pong").length;
    box.sendRaw("ping");
    await expect.poll(() => box.raw.filter((text) => text === "pong").length).toBe(pongs + 1);
  }
}

/** Never send a frame the hub must act on. */
const invalidFor = (saidHello: boolean) => (frame: Frame) =>
  !("text" in frame && frame.text === "ping") && expectedError(frame, saidHello) !== null;

const options = (label: string, numRuns: number) => ({ numRuns, seed: seedFor(label), endOnFailure: true });

// ---- device frames -----------------------------------------------------------------------------------

describe("device frames", () => {
  it("every message type of the protocol has a valid example naming all its fields", () => {
    console.log(`socket fuzzing: base seed ${baseSeed()} (set FUZZ_SEED to change it)`);
    expect(Object.keys(EXAMPLES).sort()).toEqual([...DEVICE_TYPES].sort());
    for (const type of DEVICE_TYPES) {
      expect(deviceMessageSchema.safeParse(EXAMPLES[type]).success, type).toBe(true);
      expect(Object.keys(EXAMPLES[type]).sort(), type).toEqual(fieldsOf(type).sort());
    }
  });

  it("after hello: bad frames of every type and of none get an error frame and change nothing", async () => {
    const { user, token, device, box, browser, admin } = await watchedHub();
    const before = await hubState(device.deviceId);
    for (const type of DEVICE_TYPES) {
      await fc.assert(
        fc.asyncProperty(framesOfType(type).filter(invalidFor(true)), (frame) => sendFromBox(box, frame, true)),
        options(`device after hello: ${type}`, RUNS_PER_TYPE),
      );
    }
    await fc.assert(
      fc.asyncProperty(shapelessFrames.filter(invalidFor(true)), (frame) => sendFromBox(box, frame, true)),
      options("device after hello: shapeless", 500),
    );
    await settle();
    expect(browser.received, "browsers were told nothing").toEqual([]);
    expect(admin.received, "admins were told nothing").toEqual([]);
    expect(await hubState(device.deviceId)).toEqual(before);

    // Still working: a reading reaches the browsers, a request is answered through the box.
    box.send({ type: "power", current: 1.1, wattage: 630 });
    expect((await browser.next("powerDataUpdate")).powerData).toEqual({ current: 1.1, wattage: 630 });
    expect((await admin.next("powerDataUpdate")).powerData).toEqual({ current: 1.1, wattage: 630 });
    const health = await postJson(`/api/devices/motor/health/${user.mobileNo}`, {}, token);
    expect(health.status).toBe(200);
    for (const peer of [box, browser, admin]) peer.close();
  });

  it("before hello: every frame is refused, valid ones of every type too, and nothing changes", async () => {
    const { device, browser, admin, before } = await watchedHubWithoutBox();
    const early = await connectDevice(device, { hello: false });
    // Each valid non-hello frame counts as handled (it parsed) before it is refused.
    let parsed = 0;
    const anyType = fc.oneof(
      ...DEVICE_TYPES.filter((type) => type !== "hello").map((type) => fc.constant<Frame>(textFrame(EXAMPLES[type]))),
      ...DEVICE_TYPES.map((type) => framesOfType(type)),
      shapelessFrames,
    );
    await fc.assert(
      fc.asyncProperty(anyType.filter(invalidFor(false)), async (frame) => {
        if (expectedError(frame, false) === "Say hello first.") parsed += 1;
        await sendFromBox(early, frame, false);
      }),
      options("device before hello", 500),
    );
    await settle();
    expect(browser.received).toEqual([]);
    expect(admin.received).toEqual([]);
    expect(await hubState(device.deviceId)).toEqual({ ...before, deviceFrames: before.deviceFrames + parsed });

    // The same socket can still say hello.
    early.send({ ...EXAMPLES.hello, relay: "on" });
    expect((await early.next("welcome")).protocol).toBe(DEVICE_PROTOCOL_VERSION);
    expect((await browser.next("deviceStatusUpdate")).deviceStatus).toBe("online");
    for (const peer of [early, browser, admin]) peer.close();
  });

  it("a hello of another protocol version: error frame, close 4002, nothing else changes", async () => {
    const { device, browser, admin, before } = await watchedHubWithoutBox();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 2, max: 2 ** 31 }), fc.constantFrom(2, 10, 2 ** 53 - 1)),
        async (protocol) => {
          runs += 1;
          sentFrames += 1;
          const socket = await connectDevice(device, { hello: false });
          socket.send({ ...EXAMPLES.hello, protocol });
          expect(await socket.next("error")).toEqual({
            type: "error",
            message: `Unsupported protocol version ${protocol}; this server speaks ${DEVICE_PROTOCOL_VERSION}.`,
          });
          expect((await socket.waitForClose()).code).toBe(4002);
        },
      ),
      options("device hello protocol", 25),
    );
    await settle();
    expect(browser.received).toEqual([]);
    expect(admin.received).toEqual([]);
    // The hellos parsed, so they count as frames handled; nothing else moves.
    expect(await hubState(device.deviceId)).toEqual({ ...before, deviceFrames: before.deviceFrames + runs });

    // A box that speaks version 1 is welcome as before.
    const fresh = await connectDevice(device);
    expect((await browser.next("deviceStatusUpdate")).deviceStatus).toBe("online");
    for (const peer of [fresh, browser, admin]) peer.close();
  });
});

// ---- browser frames ----------------------------------------------------------------------------------

/** Anything a browser could send: a box's frames valid or not, the server's own messages, junk. */
const browserFrames: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DEVICE_TYPES).map((type) => textFrame(EXAMPLES[type])) },
  { weight: 3, arbitrary: fc.constantFrom(...DEVICE_TYPES).chain((type) => framesOfType(type)) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...REALTIME_TYPES, ...SERVER_TYPES),
        fc.dictionary(extraKey, fc.oneof(smallJson, fc.constantFrom("on", "off", "online", true))),
      )
      .map(([type, rest]) => textFrame({ ...rest, type })),
  },
  { weight: 1, arbitrary: fc.constant(textFrame({ type: "motorStatusUpdate", status: "on" })) },
  { weight: 3, arbitrary: shapelessFrames },
  { weight: 1, arbitrary: fc.constant({ text: "ping" }) },
);

/** A browser frame is at most 4 KB (bigger ones close the socket: caps.test.ts). */
const browserFrameWithinCap = browserFrames.filter((frame) =>
  "binary" in frame
    ? frame.binary.length <= MAX_BROWSER_FRAME_BYTES
    : utf8Length(frame.text) <= MAX_BROWSER_FRAME_BYTES,
);

describe("browser frames", () => {
  for (const who of ["user", "admin"] as const) {
    it(`${who === "user" ? "a farmer" : "an admin"}'s socket: every frame is ignored, nothing answers, nothing changes`, async () => {
      const { device, box, browser, admin } = await watchedHub();
      const sender = who === "user" ? browser : admin;
      const before = await hubState(device.deviceId);
      await fc.assert(
        fc.asyncProperty(browserFrameWithinCap, async (frame) => {
          sentFrames += 1;
          if ("binary" in frame) sender.ws.send(new Uint8Array(frame.binary));
          else sender.sendRaw(frame.text);
          expect(sender.closed).toBeNull();
        }),
        options(`browser ${who}`, 600),
      );
      // The hub handles one event at a time: once the box's bad frame is answered, every
      // browser frame sent before it has been handled too.
      await sendFromBox(box, { text: "not json" }, true);
      await settle();
      expect(browser.received, "nothing was sent to the user").toEqual([]);
      expect(admin.received, "nothing was sent to the admin").toEqual([]);
      expect(browser.closed ?? admin.closed).toBeNull();
      expect(await hubState(device.deviceId)).toEqual(before);

      box.send({ type: "power", current: 1.2, wattage: 690 });
      expect((await browser.next("powerDataUpdate")).powerData).toEqual({ current: 1.2, wattage: 690 });
      expect((await admin.next("powerDataUpdate")).powerData).toEqual({ current: 1.2, wattage: 690 });
      for (const peer of [box, browser, admin]) peer.close();
    });
  }
});

it(`sent at least ${MIN_SOCKET_INPUTS.toLocaleString("en")} socket frames`, () => {
  console.log(`socket fuzzing: ${sentFrames} frames`);
  expect(sentFrames).toBeGreaterThanOrEqual(MIN_SOCKET_INPUTS);
});
