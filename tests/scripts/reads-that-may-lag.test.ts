// Which reads may lag is decided per read (decision 044): a replica answers only the modules
// listed here, each read a few seconds' lag cannot make wrong. A new caller is a decision to
// write down, not an import to add in passing; what decides who may do what never is one.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/** Each module that reads through a replica, and what it reads there. */
const CALLERS: Record<string, string> = {
  "worker/services/admin-activity.ts":
    "the admin's dashboard counts, which boxes a farmer's motor log reads, the audit trail",
  "worker/services/admin-accounts.ts": "the admin's list of accounts and boxes (fleetOf only)",
  "worker/services/admin-installers.ts": "the admin's list of installers",
  "worker/services/recharge-requests.ts": "the admin's recharge queue, a farmer's plan card",
  "worker/services/telephony-usage.ts": "the month's SMS and calls per account",
  "worker/api/admin/audit-trail.ts": "GET /api/admin/audit",
  "worker/api/admin/devices.ts": "GET /api/admin/devices",
  "worker/api/admin/recharges.ts": "GET /api/admin/recharge-requests",
  "worker/api/admin/stats.ts": "GET /api/admin/dashboard-stats",
  "worker/api/admin/users.ts": "GET /api/admin/users and /device-statuses",
  "worker/api/recharges.ts": "GET /api/recharge/plan (the plan, not whose box it is)",
  "worker/fetch-handler.ts": "none: it hands out and takes back the browser's bookmark",
};

/** Where who may do what is decided, and the hub's path to the switch: always the primary. */
const NEVER = [
  /^worker\/auth\//,
  /^worker\/api\/require-auth\.ts$/,
  /^worker\/api\/device-/,
  /^worker\/services\/pump-access\.ts$/,
  /^durable-objects\//,
];

async function sources(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("reads that may lag", () => {
  it("are made by the listed modules only", async () => {
    const importers: string[] = [];
    for (const folder of ["worker", "durable-objects", "app", "common"]) {
      for (const file of await sources(folder)) {
        if (file === "worker/db/reads-that-may-lag.ts") continue;
        if (/from "[./]+(\/db)?\/reads-that-may-lag\.ts"/.test(await readFile(file, "utf8"))) importers.push(file);
      }
    }
    expect(importers.sort()).toEqual(Object.keys(CALLERS).sort());
    for (const file of importers) for (const never of NEVER) expect(file).not.toMatch(never);
  });
});
