// `npm run sim`: run a simulated controller box against a Worker.
//
//   npm run sim                                  the demo device (after `npm start` seeded it)
//   npm run sim -- --mobile 9123456789           local mode: give that account a device, run it
//   npm run sim -- --credentials file.json       any device whose id and key you hold
//   npm run sim -- --url wss://example.com/api/device/connect --credentials file.json
import { parseArgs } from "node:util";
import { deviceKindSchema } from "../common/device-protocol.ts";
import { DEFAULT_PERSIST_DIR } from "../scripts/lib/local-d1.ts";
import {
  localDeviceFile,
  localDevicesDir,
  provisionLocalDevice,
  readLocalDeviceCredentials,
  type LocalDeviceCredentials,
} from "../scripts/lib/local-devices.ts";
import { DEMO_DEVICE } from "../scripts/lib/seed.ts";
import { SimulatedDevice } from "./simulated-device.ts";

const { values: options } = parseArgs({
  options: {
    url: { type: "string", default: "ws://localhost:8787/api/device/connect" },
    credentials: { type: "string" },
    mobile: { type: "string" },
    kind: { type: "string", default: "3phase" },
    hp: { type: "string", default: "5" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
  },
});

async function credentials(): Promise<LocalDeviceCredentials> {
  if (options.credentials) return readLocalDeviceCredentials(options.credentials);
  if (options.mobile) {
    const kind = deviceKindSchema.parse(options.kind);
    const horsePower = Number(options.hp);
    if (!(horsePower >= 1 && horsePower <= 25)) throw new Error("--hp must be between 1 and 25");
    const provisioned = await provisionLocalDevice(options["persist-to"], {
      mobileNo: options.mobile,
      kind,
      horsePower,
    });
    console.log(`Provisioned ${provisioned.deviceId} for ${options.mobile} (local D1); key saved in ${localDevicesDir(options["persist-to"])}/`);
    return provisioned;
  }
  return readLocalDeviceCredentials(localDeviceFile(options["persist-to"], DEMO_DEVICE.deviceId));
}

const found = await credentials();
const device = new SimulatedDevice({
  url: options.url,
  deviceId: found.deviceId,
  key: found.key,
  kind: found.kind,
  horsePower: found.horsePower,
  log: (line) => console.log(line),
});
device.on("refused", (status: number) => {
  if (status === 401) console.error("The server refused this device's credentials.");
});
device.start();
const stop = async () => {
  await device.stop();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
