// The local database as `npm start` serves it while an operator's command writes it (`npm run
// admin:create`, `npm run device`, the tests' own setup: they write the file in place,
// docs/decisions/030): workerd's SQLite waits for no lock, so the Worker's statement that meets
// the command's write lock is tried again until the lock is gone, and the farmer's request
// succeeds, a little later, instead of failing with a 500.
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { localD1File } from "../../scripts/lib/local-d1-file.ts";
import { sharedWorker, sharedWorkerLog } from "./shared-worker.ts";

const { worker } = sharedWorker();

describe("a write lock held beside the local Worker", () => {
  it("delays a registration until it is released, and the registration succeeds", async () => {
    const mobileNo = "9812345670";
    const command = new DatabaseSync(localD1File(worker.persistTo), { timeout: 10_000 });
    command.exec("BEGIN IMMEDIATE");
    const seen = sharedWorkerLog().length;
    const answer = fetch(`${worker.url}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: worker.url },
      body: JSON.stringify({ mobileNo, password: "a-long-enough-password" }),
    }).then((response) => response.status);
    // Released only once the Worker has met the lock, or has answered without waiting for it.
    const met = await Promise.race([
      answer.then(() => false),
      (async () => {
        while (!sharedWorkerLog().slice(seen).includes("the local database is locked")) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return true;
      })(),
    ]);
    command.exec("COMMIT");
    command.close();
    expect(met).toBe(true);
    expect(await answer).toBe(201);
    const reader = new DatabaseSync(localD1File(worker.persistTo), { readOnly: true });
    expect(reader.prepare("SELECT count(*) AS n FROM users WHERE mobile_no = ?").get(mobileNo)).toEqual({ n: 1 });
    reader.close();
  });
});
