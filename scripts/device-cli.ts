// `npm run device -- <command>`: provision controller boxes against local or remote D1.
//
//   npm run device -- provision --kind 3phase [--owner 9876543210 | --region <district or block>]   prints the id and key (once)
//   npm run device -- rotate SNC-XXXXXXXX                             prints a new key (once)
//   npm run device -- assign SNC-XXXXXXXX 9876543210 | none [--url https://…]
//   npm run device -- list
//   npm run device -- label SNC-XXXXXXXX [--out sticker.svg]          a sticker with a new claim code
//
// Add --remote --env staging|production for that environment's deployed database (wrangler
// login or CLOUDFLARE_API_TOKEN), or --persist-to DIR for another local one. A key rotated here stops working at the box's next
// connection; the admin API (POST /api/admin/devices/{id}/rotate-key) also drops the live one.
// An assignment is the admin API's own change (the old owner's people go too); the box's hub is
// then told through the Worker at --url (default for local D1: http://localhost:8787), else by
// the Worker's cron trigger within a minute. It prints which happened.
// A label is the box's sticker (docs/decisions/033-installers.md): its QR code holds the box id and
// a new one-time claim code (the one before stops working), D1 keeps only the code's hash; the
// SVG goes to --out, or to the standard output.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { deviceKindSchema } from "../common/device-protocol.ts";
import { assignDevice, labelDevice, listDevices, provisionDevice, rotateDeviceKey } from "./lib/device-admin.ts";
import { groupedClaimCode, labelSvg } from "./lib/device-label.ts";
import { d1TargetFrom, readWranglerToml } from "./lib/environments.ts";
import { type D1Target, DEFAULT_PERSIST_DIR, describeTarget } from "./lib/local-d1.ts";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    kind: { type: "string" },
    owner: { type: "string" },
    region: { type: "string" },
    url: { type: "string" },
    out: { type: "string" },
    remote: { type: "boolean", default: false },
    env: { type: "string" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
  },
});
const [command, ...rest] = positionals;
/** Where `npm start` serves the local Worker. */
const LOCAL_WORKER_URL = "http://localhost:8787";

try {
  const target: D1Target = d1TargetFrom(
    { remote: options.remote, env: options.env, persistTo: options["persist-to"] },
    options.remote ? await readWranglerToml() : undefined,
  );
  const where = describeTarget(target);
  switch (command) {
    case "provision": {
      const kind = deviceKindSchema.parse(options.kind ?? "3phase");
      const { deviceId, key } = await provisionDevice(target, {
        kind,
        ownerMobileNo: options.owner,
        region: options.region,
      });
      console.log(
        `Provisioned in ${where}:\n  device id: ${deviceId}\n  key:       ${key}\nWrite the key into the box now: it is not shown again.`,
      );
      break;
    }
    case "rotate": {
      const key = await rotateDeviceKey(target, rest[0] ?? "");
      console.log(`New key for ${rest[0]} in ${where}: ${key}\nIt is not shown again.`);
      break;
    }
    case "assign": {
      const owner = rest[1] === "none" ? null : (rest[1] ?? "");
      const workerUrl = options.url ?? (target.remote ? null : LOCAL_WORKER_URL);
      const hub = await assignDevice(target, rest[0] ?? "", owner, workerUrl);
      console.log(owner ? `${rest[0]} now belongs to ${owner} in ${where}.` : `${rest[0]} is unassigned in ${where}.`);
      console.log(
        hub.told
          ? "Its hub confirmed: the previous owner's and their people's open pages are closed."
          : `Its hub has not confirmed yet: ${hub.why}. The Worker's cron trigger delivers the change within a minute, and every minute until the hub confirms.`,
      );
      break;
    }
    case "label": {
      const deviceId = rest[0] ?? "";
      const code = await labelDevice(target, deviceId);
      const svg = labelSvg(deviceId, code);
      if (options.out) {
        await writeFile(options.out, svg);
        console.log(
          `Sticker for ${deviceId} in ${where} written to ${options.out}; claim code ${groupedClaimCode(code)}.`,
        );
      } else {
        process.stdout.write(svg);
      }
      break;
    }
    case "list":
      console.table(await listDevices(target));
      break;
    default:
      console.log(
        "Commands: provision --kind 1phase|3phase [--owner <mobile> | --region <name>], rotate <id>, assign <id> <mobile|none> [--url <Worker>], list, label <id> [--out <file.svg>]. " +
          "Add --remote --env staging|production for that environment's deployed D1.",
      );
      process.exitCode = command ? 1 : 0;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
