// `npm run phone -- <command>`: a farmer's phone against the local provider that `npm start` runs
// (its address is kept beside the local database, scripts/lib/local-phone.ts), from another
// terminal. Prints what the phone sent and what came back: the Worker's answer, and every SMS and
// call the local provider received meanwhile.
//
//   npm run phone -- sms 9876543210 "चालू 30"    an SMS command to our number
//   npm run phone -- missed 9876543210 [start]    a missed call to the stop (or start) number
//   npm run phone -- call 9876543210              a call to the voice menu; then:
//   npm run phone -- press 1                      a key on the call waiting for one
//   npm run phone -- list                         every SMS and call so far
import { parseArgs } from "node:util";
import { DEFAULT_PERSIST_DIR } from "../scripts/lib/local-d1.ts";
import { readLocalPhoneUrl } from "../scripts/lib/local-phone.ts";
import { localProviderClient } from "./client.ts";
import { type SimRecords, spacedNumber } from "./phone-log.ts";

const USAGE = `npm run phone -- sms <number> "<text>" | missed <number> [start] | call <number> | press <key> [callId] | list`;

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR } },
});

const url = await readLocalPhoneUrl(options["persist-to"]).catch(() => {
  console.error("No local provider found: start the product first with `npm start`.");
  process.exit(1);
});
const phone = localProviderClient(url);
const [verb = "", first = "", ...rest] = positionals;

/** Every SMS and call line that is new since `before`, as the local provider keeps them. */
function printNew(before: SimRecords, after: SimRecords) {
  for (const sms of after.sms.slice(before.sms.length)) console.log(`SMS to ${spacedNumber(sms.to)}: ${sms.text}`);
  for (const call of after.calls) {
    const earlier = before.calls.find((candidate) => candidate.id === call.id);
    const said = call.spoken.slice(earlier?.spoken.length ?? 0);
    const who = call.from.length === 10 ? `from ${spacedNumber(call.from)}` : `to ${spacedNumber(call.to)}`;
    for (const line of said) console.log(`Call ${who} (${call.id}) says: ${line}`);
    if (said.length > 0 || !earlier) {
      console.log(
        `  ${call.waitingForKey ? "waiting for a key: npm run phone -- press <key>" : `call ${call.status}`}`,
      );
    }
  }
}

const mobileNo = /^[1-9][0-9]{9}$/;
const before = await phone.records();
switch (verb) {
  case "sms":
    if (!mobileNo.test(first) || rest.length === 0) throw new Error(USAGE);
    console.log(`SMS from ${spacedNumber(first)} to us: ${rest.join(" ")}`);
    console.log(`  the Worker answered ${await phone.inboundSms(first, rest.join(" "))}`);
    break;
  case "missed": {
    if (!mobileNo.test(first)) throw new Error(USAGE);
    const line = rest[0] === "start" ? "start" : "stop";
    console.log(`Missed call from ${spacedNumber(first)} to the ${line} number`);
    console.log(`  the Worker answered ${await phone.missedCall(first, line)}`);
    break;
  }
  case "call":
    if (!mobileNo.test(first)) throw new Error(USAGE);
    console.log(`Call from ${spacedNumber(first)} to the voice menu`);
    await phone.callMenu(first);
    break;
  case "press":
    console.log(`Key ${first || "1"} pressed`);
    await phone.press(first || "1", rest[0]);
    break;
  case "list":
    printNew({ sms: [], calls: [] }, before);
    process.exit(0);
    break;
  default:
    console.error(USAGE);
    process.exit(1);
}
await phone.settled();
printNew(before, await phone.records());
