// `npm run load`: the local production build under load. 1,000 simulated boxes, 100 browser
// sockets watching, 10 motor commands a second for 5 minutes. Prints errors, latency
// percentiles, and motor logs written against logs expected (target: 0 errors, 0 lost).
//
//   npm run load -- [--devices 1000] [--browsers 100] [--rate 10] [--minutes 5]
//                   [--command-devices 200] [--skip-build]
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { ApiClient, ApiContractError } from "../common/api-client.ts";
import { localDeviceSocketUrl, type SimulatedDevice, simulateBox } from "../device-sim/simulated-device.ts";
import { buildApp } from "./lib/build-app.ts";
import { FLEET_PASSWORD, provisionLocalFleet } from "./lib/local-devices.ts";
import { hubLogsSince } from "./lib/local-hubs.ts";
import { freePort, freshPersistDir, startLocalWorker, THROWAWAY_JWT_SECRET } from "./lib/local-worker.ts";

const { values } = parseArgs({
  options: {
    devices: { type: "string", default: "1000" },
    browsers: { type: "string", default: "100" },
    rate: { type: "string", default: "10" },
    minutes: { type: "string", default: "5" },
    "command-devices": { type: "string", default: "200" },
    "skip-build": { type: "boolean", default: false },
  },
});
const deviceCount = Number(values.devices);
const browserCount = Number(values.browsers);
const rate = Number(values.rate);
const minutes = Number(values.minutes);
// Each commanded box gets a command every commandDevices / rate seconds: keep that above the
// 10 s cooldown, or the load test measures the cooldown instead of the system.
const commandDevices = Math.min(deviceCount, Number(values["command-devices"]));
if (commandDevices / rate <= 10) throw new Error("--command-devices / --rate must be more than 10 s (the cooldown)");
if (browserCount > commandDevices) throw new Error("--browsers must not exceed --command-devices");

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Resident memory of a process and all its descendants, in MB (Linux /proc). */
export function treeRssMb(rootPid: number): number {
  const children = new Map<number, number[]>();
  let total = 0;
  const rss = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), kb);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const visit = (pid: number) => {
    total += rss.get(pid) ?? 0;
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  return Math.round(total / 1024);
}

async function main() {
  if (!values["skip-build"]) {
    console.log("• Building the app...");
    buildApp();
  }
  const persistTo = await freshPersistDir();
  const worker = await startLocalWorker({
    kind: "build",
    persistTo,
    port: await freePort(),
    jwtSecret: THROWAWAY_JWT_SECRET,
  });
  const devices: SimulatedDevice[] = [];
  const browsers: WebSocket[] = [];
  try {
    console.log(`• Provisioning ${deviceCount} accounts with devices...`);
    const fleet = await provisionLocalFleet(persistTo, { count: deviceCount, kind: "3phase", horsePower: 5 });
    console.log(`• Connecting ${deviceCount} simulated boxes...`);
    for (const [index, credentials] of fleet.entries()) {
      const device = simulateBox(localDeviceSocketUrl(worker.port), credentials);
      devices.push(device);
      setTimeout(() => device.start(), index * 5);
    }
    await Promise.all(devices.map((device) => device.waitUntilConnected(180_000)));
    console.log(`• Logging in ${commandDevices} farmers...`);
    const farmers: ApiClient[] = [];
    for (const { ownerMobileNo } of fleet.slice(0, commandDevices)) {
      const farmer = new ApiClient(worker.url);
      await farmer.logIn(ownerMobileNo, FLEET_PASSWORD);
      farmers.push(farmer);
    }
    console.log(`• Opening ${browserCount} browser sockets...`);
    let browserMessages = 0;
    let browserErrors = 0;
    for (let index = 0; index < browserCount; index++) {
      const socket = new WebSocket(
        `ws://localhost:${worker.port}/api/realtime?mobileNo=${fleet[index]!.ownerMobileNo}`,
        {
          headers: { Authorization: `Bearer ${farmers[index]!.token}` },
        },
      );
      socket.on("message", () => browserMessages++);
      socket.on("error", () => browserErrors++);
      browsers.push(socket);
    }
    await Promise.all(browsers.map((socket) => new Promise((resolve) => socket.once("open", resolve))));

    const total = Math.round(rate * minutes * 60);
    console.log(`• Sending ${total} commands at ${rate}/s for ${minutes} min...`);
    const latencies: number[] = [];
    const errors = new Map<string, number>();
    const relay = new Array<"on" | "off">(commandDevices).fill("off");
    const inFlight: Promise<void>[] = [];
    const rssSamples: number[] = [];
    const startedAt = performance.now();
    for (let sent = 0; sent < total; sent++) {
      const target = sent % commandDevices;
      const action = relay[target] === "on" ? "off" : "on";
      relay[target] = action;
      const began = performance.now();
      inFlight.push(
        farmers[target]!.switchMotor(action)
          .then((answer) => {
            latencies.push(performance.now() - began);
            if (!answer.ok) {
              const key = `${answer.status} ${answer.error.message}`;
              errors.set(key, (errors.get(key) ?? 0) + 1);
            }
          })
          .catch((error: Error) => {
            const key = `${error instanceof ApiContractError ? "unexpected answer" : "network"} ${error.message}`;
            errors.set(key, (errors.get(key) ?? 0) + 1);
          }),
      );
      if (sent % (rate * 10) === 0) {
        rssSamples.push(treeRssMb(worker.process.pid!));
        process.stdout.write(`\r  ${sent}/${total} sent, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors`);
      }
      const due = startedAt + ((sent + 1) * 1000) / rate;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
    await Promise.all(inFlight);
    process.stdout.write("\n");
    const succeeded = total - [...errors.values()].reduce((a, b) => a + b, 0);
    // Each hub writes its log in the step that switched; read in place, from every hub's file.
    const logs = hubLogsSince(persistTo, 0).rows;
    const sorted = latencies.sort((a, b) => a - b);
    const connected = devices.filter((device) => device.connected).length;
    const relaysRight = relay.every((state, index) => devices[index]!.relay === state);

    console.log("\nLoad test results");
    console.table({
      commands: { value: total },
      "succeeded (device confirmed)": { value: succeeded },
      errors: { value: total - succeeded },
      "latency p50 ms": { value: Math.round(percentile(sorted, 50)) },
      "latency p95 ms": { value: Math.round(percentile(sorted, 95)) },
      "latency p99 ms": { value: Math.round(percentile(sorted, 99)) },
      "latency max ms": { value: Math.round(sorted.at(-1) ?? NaN) },
      "motor logs expected": { value: succeeded },
      "motor logs written": { value: logs },
      "lost logs": { value: succeeded - logs },
      "boxes still connected": { value: `${connected}/${deviceCount}` },
      "relays as commanded": { value: relaysRight ? "yes" : "NO" },
      "browser messages received": { value: browserMessages },
      "browser socket errors": { value: browserErrors },
      "workerd + wrangler RSS MB (max)": { value: Math.max(...rssSamples) },
    });
    for (const [error, count] of errors) console.log(`  ${count} × ${error}`);
    const ok =
      succeeded === total && logs === succeeded && connected === deviceCount && relaysRight && browserErrors === 0;
    console.log(ok ? "PASS: 0 errors, 0 lost" : "FAIL: see above");
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const socket of browsers) socket.close();
    await Promise.all(devices.map((device) => device.stop()));
    await worker.stop();
  }
}

await main();
