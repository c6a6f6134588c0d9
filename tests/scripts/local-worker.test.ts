// The local Worker the scripts, the tests and the bench start: on a port nothing else can be given
// meanwhile, and only called ready when the Worker itself answers there.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, startLocalWorker, THROWAWAY_JWT_SECRET } from "../../scripts/lib/local-worker.ts";

describe("the local Worker's port", () => {
  it("is picked below the ports the system gives a server started on port 0", async () => {
    const firstForPortZero = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0]);
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(firstForPortZero);
    expect(new Set(ports).size).toBeGreaterThan(1);
  });

  it("is not called ready when another server answers there", async () => {
    // What a telephony provider on the same port answers: a 404 of its own for any other path.
    const other: Server = createServer((_request, response) => {
      response.writeHead(404, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ error: "The local provider has no GET /api/no-such-route." }));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, "localhost", resolve));
    const persistTo = await mkdtemp(join(tmpdir(), "sinchai-taken-port-"));
    try {
      await expect(startLocalWorker({ kind: "api", persistTo, port, jwtSecret: THROWAWAY_JWT_SECRET })).rejects.toThrow(
        `port ${port} is answered by another server, not this Worker`,
      );
    } finally {
      await new Promise((resolve) => other.close(resolve));
      await rm(persistTo, { recursive: true, force: true });
    }
  });
});
