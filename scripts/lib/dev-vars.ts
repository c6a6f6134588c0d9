// Local secrets live in .dev.vars (git-ignored), created with a random JWT secret on first use.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export function ensureDevVars(path = ".dev.vars"): void {
  const existing = existsSync(path) ? readFileSync(path, "utf8") : "";
  if (/^JWT_SECRET=.{32,}$/m.test(existing)) return;
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(path, `${existing}${existing && !existing.endsWith("\n") ? "\n" : ""}JWT_SECRET=${secret}\n`);
  console.log(`Wrote a new local JWT secret to ${path}`);
}

if (import.meta.main) ensureDevVars();
