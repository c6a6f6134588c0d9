// `npm run admin:create -- --mobile <10 digits> [--remote --env staging|production] [--persist-to DIR]`:
// makes an admin. Production has no default admin; this is how the first one comes to be.
//
// The password comes from SINCHAI_ADMIN_PASSWORD, or is asked for (hidden, twice) on a
// terminal, or is the first line of standard input. An account that exists already is
// promoted and keeps its password. --remote --env reaches that environment's deployed D1
// (wrangler login or CLOUDFLARE_API_TOKEN; its migrations must be applied); local mode applies
// the migrations first, so it works before the first `npm start`.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { createOrPromoteAdmin, mobileNoProblem, PASSWORD_ENV } from "./lib/admin-account.ts";
import { d1TargetFrom, readWranglerToml } from "./lib/environments.ts";
import { applyLocalMigrations, DEFAULT_PERSIST_DIR, describeTarget } from "./lib/local-d1.ts";

/** Reads one line from a terminal without echoing it. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const input = process.stdin;
    process.stdout.write(question);
    let value = "";
    input.setRawMode(true);
    input.resume();
    input.setEncoding("utf8");
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          finish();
          resolve(value);
          return;
        }
        if (char === "\u0003") {
          finish();
          reject(new Error("Cancelled."));
          return;
        }
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
      }
    };
    const finish = () => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      process.stdout.write("\n");
    };
    input.on("data", onData);
  });
}

/** The first line of a piped standard input. */
function readFirstLine(): Promise<string> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    let answered = false;
    lines.once("line", (line) => {
      answered = true;
      resolve(line);
      lines.close();
    });
    lines.once("close", () => {
      if (!answered) resolve("");
    });
  });
}

async function password(): Promise<string> {
  const fromEnv = process.env[PASSWORD_ENV];
  if (fromEnv !== undefined) return fromEnv;
  if (!process.stdin.isTTY) return readFirstLine();
  const first = await askHidden("Password for the new admin (8 to 128 characters): ");
  const second = await askHidden("Repeat the password: ");
  if (first !== second) throw new Error("The passwords do not match.");
  return first;
}

const { values: options } = parseArgs({
  options: {
    mobile: { type: "string" },
    remote: { type: "boolean", default: false },
    env: { type: "string" },
    "persist-to": { type: "string", default: DEFAULT_PERSIST_DIR },
  },
});

const USAGE =
  "Usage: npm run admin:create -- --mobile <10 digits> [--remote --env staging|production] [--persist-to DIR]";

try {
  const mobileNo = (options.mobile ?? "").trim();
  const problem = mobileNoProblem(mobileNo);
  if (problem) {
    throw new Error(`${problem}\n${USAGE}`);
  }
  const target = d1TargetFrom(
    { remote: options.remote, env: options.env, persistTo: options["persist-to"] },
    options.remote ? await readWranglerToml() : undefined,
  );
  const where = describeTarget(target);
  if (!target.remote) await applyLocalMigrations(target.persistTo);
  const result = await createOrPromoteAdmin(target, mobileNo, password);
  const said = {
    created: `Created admin ${mobileNo} in ${where}. Log in at /admin/login.`,
    promoted: `${mobileNo} already had an account in ${where}: it is now an admin and keeps its password.`,
    alreadyAdmin: `${mobileNo} is already an admin in ${where}. Nothing changed.`,
  };
  console.log(said[result]);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
