// `npm run sim`: simulated controller boxes against a Worker.
//
//   npm run sim                                   the demo device (after `npm start` seeded it)
//   npm run sim -- --mobile 9123456789            local mode: give that account a device, run it
//   npm run sim -- --count 1000                   local mode: a fleet of accounts with devices
//   npm run sim -- --credentials file.json        any device whose id and key you hold
//   npm run sim -- --url wss://host/api/device/connect --credentials file.json
//
// Faults: --fault dryRun@30 (at 30 s; repeatable), or type a fault name and Enter while it
// runs: dryRun overCurrent noLoad normal phaseLoss phaseRestore powerCut powerRestore tamper
// tamperClose lowVoltage highVoltage unbalancedVoltage normalVoltage networkDrop goSilent slowAck
// noAck ackNormally corruptDownload ignoreProtection contactorWelded contactorFreed. `status` prints the devices.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { type DeviceKind, deviceKindSchema } from "../common/device-protocol.ts";
import { DEFAULT_PERSIST_DIR } from "../scripts/lib/local-d1.ts";
import {
  type LocalDeviceCredentials,
  localDeviceFile,
  localDevicesDir,
  provisionLocalDevice,
  provisionLocalFleet,
  readLocalDeviceCredentials,
} from "../scripts/lib/local-devices.ts";
import { DEMO_DEVICE } from "../scripts/lib/seed.ts";
import { FAULTS, type Fault, simulateBox } from "./simulated-device.ts";

const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: "ws://localhost:8787/api/device/connect" },
    credentials: { type: "string" },
    mobile: { type: "string" },
    count: { type: "string" },
    kind: { type: "string", default: "3phase" },
    hp: { type: "string", default: "5" },
    fault: { type: "string", multiple: true, default: [] },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
    quiet: { type: "boolean", default: false },
  },
});

function isFault(name: string): name is Fault {
  return (FAULTS as readonly string[]).includes(name);
}

async function credentials(): Promise<LocalDeviceCredentials[]> {
  const persistTo = options["persist-to"];
  if (options.credentials) return [await readLocalDeviceCredentials(options.credentials)];
  const horsePower = Number(options.hp);
  if (!(horsePower >= 1 && horsePower <= 25)) throw new Error("--hp must be between 1 and 25");
  const kind: DeviceKind = deviceKindSchema.parse(options.kind);
  if (options.count) {
    const count = Number(options.count);
    if (!Number.isInteger(count) || count < 1 || count > 10_000) throw new Error("--count must be 1 to 10000");
    const fleet = await provisionLocalFleet(persistTo, { count, kind, horsePower });
    console.log(
      `Fleet of ${count} devices ready in local D1 (accounts 7000000001…, password in ${localDevicesDir(persistTo)}/fleet.json)`,
    );
    return fleet;
  }
  if (options.mobile) {
    const provisioned = await provisionLocalDevice(persistTo, { mobileNo: options.mobile, kind, horsePower });
    console.log(
      `Provisioned ${provisioned.deviceId} for ${options.mobile} (local D1); key saved in ${localDevicesDir(persistTo)}/`,
    );
    return [provisioned];
  }
  return [await readLocalDeviceCredentials(localDeviceFile(persistTo, DEMO_DEVICE.deviceId))];
}

const found = await credentials();
const fleet = found.length > 1;
const devices = found.map((credential) =>
  simulateBox(options.url, credential, { log: fleet || options.quiet ? undefined : (line) => console.log(line) }),
);
for (const device of devices) {
  device.on("refused", (status: number) => {
    if (status === 401) console.error(`${device.deviceId}: the server refused this device's credentials.`);
  });
}
// A fleet ramps up over a few seconds instead of opening every socket in the same instant.
for (const [index, device] of devices.entries()) setTimeout(() => device.start(), fleet ? Math.floor(index * 5) : 0);

function apply(fault: Fault) {
  for (const device of devices) device.inject(fault);
  console.log(`${fault} → ${devices.length} device(s)`);
}

function status() {
  const connected = devices.filter((device) => device.connected).length;
  const running = devices.filter((device) => device.relay === "on").length;
  const sent = devices.reduce((total, device) => total + device.counters.bytesSent, 0);
  const received = devices.reduce((total, device) => total + device.counters.bytesReceived, 0);
  console.log(`${connected}/${devices.length} connected, ${running} running, ${sent} B sent, ${received} B received`);
}

for (const spec of options.fault) {
  const [name, at = "0"] = spec.split("@");
  if (!name || !isFault(name)) throw new Error(`Unknown fault ${spec}. Faults: ${FAULTS.join(", ")}`);
  setTimeout(() => apply(name), Number(at) * 1000);
}
if (fleet) setInterval(status, 10_000).unref();

createInterface({ input: process.stdin }).on("line", (line) => {
  const command = line.trim();
  if (command === "status") status();
  else if (isFault(command)) apply(command);
  else if (command) console.log(`Unknown command. Faults: ${FAULTS.join(", ")}; or "status".`);
});

const stop = async () => {
  await Promise.all(devices.map((device) => device.stop()));
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
