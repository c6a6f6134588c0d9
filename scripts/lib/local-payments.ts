// What the local payment gateway (payments-sim/) must share with the local Worker: the key id of
// wrangler.toml's top level (local mode) and the key secret and webhook secret of .dev.vars; and
// where a running one listens, kept next to that Worker's local database
// (<persist dir>/sinchai-payments.json, git-ignored), so tests and scripts that did not start it
// can drive it (payments-sim/client.ts).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "../../common/zod.ts";
import type { GatewayCredentials } from "../../payments-sim/gateway-core.ts";
import { localSettings } from "./local-settings.ts";

export async function localPaymentCredentials(devVarsPath = ".dev.vars"): Promise<GatewayCredentials> {
  const { text } = await localSettings(devVarsPath);
  return {
    keyId: text("RAZORPAY_KEY_ID"),
    keySecret: text("RAZORPAY_KEY_SECRET"),
    webhookSecret: text("RAZORPAY_WEBHOOK_SECRET"),
  };
}

const fileSchema = z.object({ url: z.string() });

export function localPaymentsFile(persistTo: string): string {
  return join(persistTo, "sinchai-payments.json");
}

export async function writeLocalPaymentsUrl(persistTo: string, url: string): Promise<void> {
  const file = localPaymentsFile(persistTo);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ url })}\n`);
}

export async function readLocalPaymentsUrl(persistTo: string): Promise<string> {
  return fileSchema.parse(JSON.parse(await readFile(localPaymentsFile(persistTo), "utf8"))).url;
}
