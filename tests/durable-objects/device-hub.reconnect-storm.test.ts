// Every deploy restarts every Durable Object and drops every socket at once. 100 boxes
// coming back together must all be welcomed and end up online, with their relay state.
import { abortAllDurableObjects } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../worker/db/client.ts";
import { devices } from "../../worker/db/schema.ts";
import { createUser } from "../worker/helpers/accounts.ts";
import { provisionDevice } from "../worker/helpers/boxes.ts";
import { freshStorageForThisFile } from "../worker/helpers/fresh-storage.ts";
import { hubStub } from "../worker/helpers/hub-state.ts";
import type { TestDevice } from "../worker/helpers/sockets.ts";
import { connectDevice, type DevicePeer } from "../worker/helpers/sockets.ts";

freshStorageForThisFile();

const COUNT = 100;

describe("100 devices reconnecting at once", () => {
  it("are all welcomed back and online", async () => {
    const fleet: TestDevice[] = [];
    for (let index = 0; index < COUNT; index++) fleet.push(await provisionDevice((await createUser()).id));
    let boxes: DevicePeer[] = await Promise.all(
      fleet.map((device, index) => connectDevice(device, { relay: index % 2 === 0 ? "on" : "off" })),
    );

    await abortAllDurableObjects(); // what a deploy does to every hub
    await Promise.all(boxes.map((box) => box.waitForClose()));

    boxes = await Promise.all(
      fleet.map((device, index) => connectDevice(device, { relay: index % 2 === 0 ? "on" : "off" })),
    );
    const snapshots = await Promise.all(fleet.map((device) => hubStub(device.deviceId).getSnapshot()));
    expect(snapshots.filter((snapshot) => snapshot.deviceStatus === "online")).toHaveLength(COUNT);
    expect(snapshots.filter((snapshot) => snapshot.motorStatus === "on")).toHaveLength(COUNT / 2);
    const online = await getDb(env.DB).select().from(devices).where(eq(devices.online, true));
    expect(online).toHaveLength(COUNT);
    for (const box of boxes) box.close();
  });
});
