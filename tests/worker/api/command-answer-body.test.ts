// Where the HTTP command's body waits after its headers (docs/benchmarks.md, "The HTTP
// command's body"): in this pool wrangler's local chain is absent, and the answer is a fixed
// JSON body the Worker built (Hono's c.json, headers added in place or on a copy of the same
// bytes). The gap here is printed, never asserted: 0-4 ms for a command, after which the hub
// still works on the same thread (its log, the box's reading), and 0-1 ms for a refusal.
import { describe, expect, it } from "vitest";
import { farmerWithBox } from "../helpers/boxes.ts";
import { postJson } from "../helpers/http.ts";

describe("the command's answer over HTTP", () => {
  it("a command's answer is read whole, and how long after its headers it came is printed", async () => {
    const { box, token } = await farmerWithBox({ autoAck: true });
    const started = performance.now();
    const response = await postJson("/api/devices/motor", { action: "on" }, token);
    const headersAt = performance.now();
    expect(await response.json()).toMatchObject({ success: true, status: "on" });
    const bodyAt = performance.now();
    // Refused in the cooldown: an answer after which the hub has nothing left to do.
    const refusedAt = performance.now();
    const refusal = await postJson("/api/devices/motor", { action: "on" }, token);
    const refusalHeadersAt = performance.now();
    expect(refusal.status).toBe(429);
    await refusal.json();
    console.log(
      `command: headers after ${headersAt - started} ms, body ${bodyAt - headersAt} ms after them; ` +
        `refusal: ${refusalHeadersAt - refusedAt} ms, body ${performance.now() - refusalHeadersAt} ms after`,
    );
    box.close();
  });
});
