// `npm run pay-sim`: the local payment gateway on its own, for `npm run dev` or a Worker started
// by hand (`npm start` runs one itself). It answers the Worker's Razorpay calls, serves the
// checkout page at /pay/<link id>, and sends the webhooks to the Worker.
//
//   npm run pay-sim                                  on 127.0.0.1:8790 (PAYMENT_LOCAL_URL's default)
//   npm run pay-sim -- --port 8791 --worker http://localhost:5173
import { parseArgs } from "node:util";
import { localPaymentCredentials } from "../scripts/lib/local-payments.ts";
import { startLocalGateway } from "./local-gateway.ts";

const { values: options } = parseArgs({
  options: {
    port: { type: "string", default: "8790" },
    worker: { type: "string", default: "http://localhost:8787" },
  },
});

const gateway = await startLocalGateway({
  port: Number(options.port),
  credentials: await localPaymentCredentials(),
  workerOrigin: options.worker,
  log: (line) => console.log(line),
});
console.log(`Local payment gateway on ${gateway.url}, the Worker at ${options.worker}.`);
const stop = () => void gateway.stop().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
