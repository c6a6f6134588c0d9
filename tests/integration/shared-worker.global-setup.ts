// Once per vitest run for the integration project: one real local Worker (`wrangler dev` on a
// migrated database of its own) with the local telephony provider as its Twilio and as the
// farmers' phones, shared by every file that can share it (decision 041); its admin is made in
// the database before the Worker starts. A file that restarts its Worker or measures its
// database (the simulator's restart, the fleet's day) starts one of its own.
import { appendFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { hashPassword } from "../../common/credentials.ts";
import { startLocalGateway } from "../../payments-sim/local-gateway.ts";
import { executeLocalSql, sqlText } from "../../scripts/lib/local-d1.ts";
import { freePort, freshPersistDir, startLocalWorker, THROWAWAY_JWT_SECRET } from "../../scripts/lib/local-worker.ts";
import { startLocalProvider } from "../../telephony-sim/local-provider.ts";
import { ACCOUNT_SID, OUR_NUMBER } from "./worker-with-phone.ts";

/** What a test file gets of the shared Worker (`inject("sharedWorker")`). */
export type SharedWorker = {
  url: string;
  port: number;
  persistTo: string;
  /** The local provider's address (telephony-sim/client.ts). */
  phoneUrl: string;
  /** The local payment gateway's address (payments-sim/client.ts) and the secrets it shares with the Worker. */
  gatewayUrl: string;
  razorpayKeySecret: string;
  razorpayWebhookSecret: string;
  /** The secrets the Worker and the provider share: a test signs its own webhooks with them. */
  token: string;
  webhookSecret: string;
  adminAccount: { mobileNo: string; password: string };
  /** Everything the Worker has logged, as it logs it. */
  logFile: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    sharedWorker: SharedWorker;
  }
}

const TOKEN = "integration-shared-telephony-token-0123456789";
const WEBHOOK_SECRET = "integration-shared-webhook-secret-0123456789abcdef";
const RAZORPAY_KEY_ID = "rzp_test_sinchailocal";
const RAZORPAY_KEY_SECRET = "integration-shared-razorpay-key-secret-0123456789";
const RAZORPAY_WEBHOOK_SECRET = "integration-shared-razorpay-webhook-secret-0123456789";
const ADMIN = { mobileNo: "9000000009", password: "integration-admin-password" };

export default async function setup(project: TestProject) {
  const persistTo = await freshPersistDir();
  const logs = await mkdtemp(join(tmpdir(), "sinchai-shared-worker-"));
  const logFile = join(logs, "worker.log");
  writeFileSync(logFile, "");
  await executeLocalSql(
    persistTo,
    `INSERT INTO users (mobile_no, password_hash, is_admin, created_at) VALUES (${sqlText(ADMIN.mobileNo)}, ${sqlText(await hashPassword(ADMIN.password))}, 1, ${Date.now()});`,
  );
  const port = await freePort();
  const phone = await startLocalProvider({
    credentials: { accountSid: ACCOUNT_SID, apiKey: "", apiToken: TOKEN, webhookSecret: WEBHOOK_SECRET },
    workerOrigin: `http://localhost:${port}`,
    ourNumber: OUR_NUMBER,
    inboundProvider: "twilio",
    log: (line) => appendFileSync(logFile, `[phone] ${line}\n`),
  });
  const gateway = await startLocalGateway({
    credentials: { keyId: RAZORPAY_KEY_ID, keySecret: RAZORPAY_KEY_SECRET, webhookSecret: RAZORPAY_WEBHOOK_SECRET },
    workerOrigin: `http://localhost:${port}`,
    log: (line) => appendFileSync(logFile, `[pay] ${line}\n`),
  });
  const worker = await startLocalWorker({
    kind: "api",
    persistTo,
    port,
    jwtSecret: THROWAWAY_JWT_SECRET,
    vars: {
      TELEPHONY_API_TOKEN: TOKEN,
      TELEPHONY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEPHONY_LOCAL_URL: phone.url,
      TELEPHONY_WEBHOOK_ORIGIN: `http://localhost:${port}`,
      RAZORPAY_KEY_SECRET,
      RAZORPAY_WEBHOOK_SECRET,
      PAYMENT_LOCAL_URL: gateway.url,
    },
    onOutput: (text) => appendFileSync(logFile, text),
  }).catch(async (error) => {
    await phone.stop();
    await gateway.stop();
    throw error;
  });
  project.provide("sharedWorker", {
    url: worker.url,
    port,
    persistTo,
    phoneUrl: phone.url,
    gatewayUrl: gateway.url,
    razorpayKeySecret: RAZORPAY_KEY_SECRET,
    razorpayWebhookSecret: RAZORPAY_WEBHOOK_SECRET,
    token: TOKEN,
    webhookSecret: WEBHOOK_SECRET,
    adminAccount: ADMIN,
    logFile,
  });
  return async () => {
    await worker.stop();
    await phone.stop();
    await gateway.stop();
    await Promise.all([persistTo, logs].map((path) => rm(path, { recursive: true, force: true })));
  };
}
