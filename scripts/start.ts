// `npm start`: the whole product on this machine, no account and no network. Builds the app,
// migrates the local D1 and seeds the demo on the first start (kept after that; --reset-demo
// seeds it again, --fresh forgets everything), serves the production build with `wrangler dev`
// (workerd: Worker, D1 and Durable Objects), runs the local telephony provider that takes its
// SMS and calls, and connects a simulated pump for the demo farmer. Lines typed here go to the
// phone (`press 1`, ...) or, as `pump <fault>`, to the simulated pump.
import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  FAULTS,
  type Fault,
  localDeviceSocketUrl,
  type SimulatedDevice,
  simulateBox,
} from "../device-sim/simulated-device.ts";
import { type LocalGateway, startLocalGateway } from "../payments-sim/local-gateway.ts";
import { PHONE_COMMANDS_HELP, runPhoneCommand } from "../telephony-sim/commands.ts";
import { type LocalProvider, startLocalProvider } from "../telephony-sim/local-provider.ts";
import { DEFAULT_PERSIST_DIR } from "./lib/local-d1.ts";
import { localPaymentCredentials, writeLocalPaymentsUrl } from "./lib/local-payments.ts";
import { writeLocalPhoneUrl } from "./lib/local-phone.ts";
import { localTelephony } from "./lib/local-telephony.ts";
import { startLocalWorker } from "./lib/local-worker.ts";
import { prepareLocal } from "./lib/prepare-local.ts";
import { DEMO_ADMIN, DEMO_USER } from "./lib/seed.ts";
import { LOCAL_ENV } from "./lib/wrangler.ts";

const { values: options } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
    fresh: { type: "boolean", default: false },
    "reset-demo": { type: "boolean", default: false },
    "skip-build": { type: "boolean", default: false },
    "no-sim": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    // The e2e tests' push service on loopback (playwright.config.ts); a farmer's subscription to
    // any other address outside the real push services is refused.
    "test-push-hosts": { type: "string" },
  },
});
const port = Number(options.port);
const persistTo = options["persist-to"];
const origin = `http://localhost:${port}`;
const children: ChildProcess[] = [];
let device: SimulatedDevice | null = null;
let phone: LocalProvider | null = null;
let gateway: LocalGateway | null = null;

function step(label: string) {
  const started = performance.now();
  console.log(`• ${label}...`);
  // Steps can overlap, so the line that ends one names it.
  return () => console.log(`  ${label}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, ...LOCAL_ENV },
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited ${code}`))));
  });
}

async function shutDown(code: number): Promise<never> {
  await device?.stop();
  await phone?.stop();
  await gateway?.stop();
  // wrangler stops its workerd children itself on SIGTERM. It shares our process group, so
  // a supervisor that kills the group (Playwright, a terminal's Ctrl+C) reaches it too.
  for (const child of children) child.kill("SIGTERM");
  process.exit(code);
}
process.on("SIGINT", () => void shutDown(0));
process.on("SIGTERM", () => void shutDown(0));

async function main() {
  const startedAt = performance.now();
  // Read while the app builds (reading wrangler.toml loads wrangler, about a second).
  const telephony = localTelephony();
  const paymentCredentials = localPaymentCredentials();
  if (options.fresh) await rm(persistTo, { recursive: true, force: true });
  // The local database is made ready while the app builds: one is wrangler's workerd applying
  // SQL, the other Vite bundling, and on a 2-core machine they overlap (about 7 of the 22 s
  // before the Worker answers). prepareLocal writes .dev.vars before it awaits anything, and
  // the build, which copies .dev.vars beside the Worker it writes, starts after that.
  const prepared = prepareLocal(persistTo, step, { resetDemo: options["reset-demo"] });
  // Its failure is reported where it is awaited, after the build, not as an unhandled rejection.
  prepared.catch(() => {});
  if (!options["skip-build"]) {
    const done = step("Building the app");
    await run(process.execPath, [
      fileURLToPath(new URL("../node_modules/@react-router/dev/bin.cjs", import.meta.url)),
      "build",
    ]);
    done();
  }
  const demoDevice = await prepared;

  let done = step("Starting the local telephony provider");
  const { credentials, ourNumber, lineNumbers, provider } = await telephony;
  phone = await startLocalProvider({
    credentials,
    workerOrigin: origin,
    ourNumber,
    lineNumbers,
    inboundProvider: provider,
    log: options.quiet ? undefined : (line) => console.log(`  [phone] ${line}`),
  });
  createInterface({ input: process.stdin }).on("line", (line) => {
    // `pump dryRun`: a fault at the demo pump, as `npm run sim` takes them; anything else is the phone's.
    const [first, fault = ""] = line.trim().split(/\s+/);
    if (first === "pump") {
      if (!device) return console.log("  [device] no simulated pump (--no-sim)");
      if (!(FAULTS as readonly string[]).includes(fault)) return console.log(`  [device] faults: ${FAULTS.join(" ")}`);
      return device.inject(fault as Fault);
    }
    if (phone) void runPhoneCommand(phone, line, (text) => console.log(`  [phone] ${text}`));
  });
  // For tests and scripts that read what it received (the e2e tests read the codes sent).
  await writeLocalPhoneUrl(persistTo, phone.url);
  done();

  done = step("Starting the local payment gateway");
  gateway = await startLocalGateway({
    credentials: await paymentCredentials,
    workerOrigin: origin,
    log: options.quiet ? undefined : (line) => console.log(`  [pay] ${line}`),
  });
  // For tests and scripts that pay in it (payments-sim/client.ts).
  await writeLocalPaymentsUrl(persistTo, gateway.url);
  done();

  done = step(`Starting the Worker on ${origin}`);
  const worker = await startLocalWorker({
    kind: "build",
    persistTo,
    port,
    vars: {
      // The Worker's SMS and calls go to the local provider; providers' webhooks come back here.
      TELEPHONY_LOCAL_URL: phone.url,
      TELEPHONY_WEBHOOK_ORIGIN: origin,
      // Recharges are paid at the local gateway, whose webhooks come back here.
      PAYMENT_LOCAL_URL: gateway.url,
      // The tests' own push services Web Push may reach; never set by a plain `npm start`.
      ...(options["test-push-hosts"] ? { PUSH_TEST_HOSTS: options["test-push-hosts"] } : {}),
    },
    // Quiet (the e2e tests' Worker), the Worker's errors are still shown: a test that met a 500
    // says why in the same output.
    onOutput: (chunk) => {
      if (!options.quiet || chunk.includes("[ERROR]")) process.stdout.write(chunk.replace(/^(?=.)/gm, "  [worker] "));
    },
  });
  children.push(worker.process);
  worker.process.on("close", (code) => {
    console.error(`wrangler dev exited (${code})`);
    void shutDown(code ?? 1);
  });
  done();

  if (!options["no-sim"]) {
    done = step(`Connecting the simulated pump ${demoDevice.deviceId}`);
    device = simulateBox(localDeviceSocketUrl(port), demoDevice, {
      log: options.quiet ? undefined : (line) => console.log(`  [device] ${line}`),
    });
    device.start();
    await device.waitUntilConnected(30_000);
    done();
  }

  console.log(`
Sinchai is running at ${origin}  (ready in ${((performance.now() - startedAt) / 1000).toFixed(1)} s)

  Farmer (user area):   ${DEMO_USER.mobileNo} / ${DEMO_USER.password}   → ${origin}/login
  Admin:                ${DEMO_ADMIN.mobileNo} / ${DEMO_ADMIN.password}   → ${origin}/admin/login
  Simulated device:     ${demoDevice.deviceId} (${demoDevice.kind}, ${demoDevice.horsePower} HP) for ${demoDevice.ownerMobileNo}
  Phone (SMS, calls):   ${phone.url}, printed here as [phone]; type ${PHONE_COMMANDS_HELP}
  Payment gateway:      ${gateway.url} (Razorpay's API, checkout pages at /pay/<link>), printed here as [pay]
  Faults at the pump:   type pump dryRun (or pump normal, pump phaseLoss, pump powerCut, pump tamper, ...)

Another simulated device for any account:  npm run sim -- --mobile <10-digit number>
Press Ctrl+C to stop.
`);
}

main().catch(async (error) => {
  console.error(`\nnpm start failed: ${error instanceof Error ? error.message : error}`);
  await shutDown(1);
});
