// `npm run phone-sim`: the local telephony provider on its own, for `npm run dev` or a Worker
// started by hand (`npm start` runs one itself). It answers the Worker's SMS and calls as Twilio
// and Exotel would, prints them, and plays a farmer's side.
//
//   npm run phone-sim                                  on 127.0.0.1:8789 (TELEPHONY_LOCAL_URL's default)
//   npm run phone-sim -- --port 8790 --worker http://localhost:5173
//
// Type while it runs:
//   press 1 [callId]        a key on the newest call waiting for one (or on that call)
//   hangup [callId]         the farmer hangs up
//   phone 9876543210 off    that phone lets calls ring out unanswered (on: answers again)
//   sms 9876543210 STOP     a farmer's SMS to our number
//   missed 9876543210       a farmer's missed call to our number
//   list                    every SMS and call so far
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { localTelephony } from "../scripts/lib/local-telephony.ts";
import { PHONE_COMMANDS_HELP, runPhoneCommand } from "./commands.ts";
import { startLocalProvider } from "./local-provider.ts";

const { values: options } = parseArgs({
  options: {
    port: { type: "string", default: "8789" },
    worker: { type: "string", default: "http://localhost:8787" },
  },
});

const settings = await localTelephony();
const provider = await startLocalProvider({
  port: Number(options.port),
  credentials: settings.credentials,
  workerOrigin: options.worker,
  ourNumber: settings.ourNumber,
  lineNumbers: settings.lineNumbers,
  inboundProvider: settings.provider,
  log: (line) => console.log(line),
});
console.log(`Local telephony provider on ${provider.url}, the Worker at ${options.worker}.`);
console.log(`Type: ${PHONE_COMMANDS_HELP}`);

const input = createInterface({ input: process.stdin });
input.on("line", (line) => void runPhoneCommand(provider, line, (text) => console.log(text)));
const stop = () => void provider.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
