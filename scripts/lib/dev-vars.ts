// Local secrets live in .dev.vars (git-ignored), created on first use: a random JWT secret, a
// VAPID key pair for Web Push, the local telephony provider's token and webhook secret, and the
// local payment gateway's key secret and webhook secret. A file from before any of them existed
// gets it added.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { generateVapidKeys } from "./vapid.ts";

export function ensureDevVars(path = ".dev.vars"): void {
  let text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const add = (lines: string) => {
    text = `${text}${text && !text.endsWith("\n") ? "\n" : ""}${lines}\n`;
  };
  const added: string[] = [];
  if (!/^JWT_SECRET=.{32,}$/m.test(text)) {
    add(`JWT_SECRET=${randomBytes(48).toString("base64url")}`);
    added.push("a JWT secret");
  }
  if (!/^VAPID_PUBLIC_KEY=\S+$/m.test(text) || !/^VAPID_PRIVATE_KEY=\S+$/m.test(text)) {
    // A pair, always: half of an old one would sign what browsers cannot check.
    text = text.replace(/^VAPID_(PUBLIC|PRIVATE)_KEY=.*\n?/gm, "");
    const keys = generateVapidKeys();
    add(`VAPID_PUBLIC_KEY=${keys.publicKey}\nVAPID_PRIVATE_KEY=${keys.privateKey}`);
    added.push("a VAPID key pair for Web Push");
  }
  for (const name of ["TELEPHONY_API_TOKEN", "TELEPHONY_WEBHOOK_SECRET"]) {
    if (!new RegExp(`^${name}=.{32,}$`, "m").test(text)) {
      text = text.replace(new RegExp(`^${name}=.*\n?`, "gm"), "");
      add(`${name}=${randomBytes(32).toString("base64url")}`);
      added.push(
        `a ${name === "TELEPHONY_API_TOKEN" ? "telephony token" : "telephony webhook secret"} for the local provider`,
      );
    }
  }
  for (const name of ["RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"]) {
    if (!new RegExp(`^${name}=.{32,}$`, "m").test(text)) {
      text = text.replace(new RegExp(`^${name}=.*\n?`, "gm"), "");
      add(`${name}=${randomBytes(32).toString("base64url")}`);
      added.push(
        `a ${name === "RAZORPAY_KEY_SECRET" ? "payment gateway key secret" : "payment webhook secret"} for the local gateway`,
      );
    }
  }
  if (added.length === 0) return;
  writeFileSync(path, text);
  console.log(`Wrote ${added.join(" and ")} to ${path}`);
}

/** The values in .dev.vars, by name (KEY=VALUE lines; nothing else is written there). */
export function readDevVars(path = ".dev.vars"): Record<string, string> {
  if (!existsSync(path)) return {};
  const values: Record<string, string> = {};
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

if (import.meta.main) ensureDevVars();
