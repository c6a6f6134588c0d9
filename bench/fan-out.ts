// Fan-out: one box's power reading reaching 100 browser sockets watching it.
import type WebSocket from "ws";
import { DEVICE_FRAMES_PER_SECOND } from "../common/device-protocol.ts";
import { BROWSER_SOCKETS_PER_VIEWER } from "../common/realtime-protocol.ts";
import { benchAdminToken, logInFarmers, openPageSocket, startFleet } from "./fleet.ts";
import { timeFanOut } from "./lib.ts";

export async function measureFanOut(browsers: number, readings: number): Promise<number[]> {
  const fleet = await startFleet(1);
  const sockets: WebSocket[] = [];
  try {
    // One account may keep 10 sockets on a pump (docs/security.md, "Caps"): the farmer and
    // admins share the 100.
    const [farmerToken] = await logInFarmers(fleet.worker, fleet.mobileNos);
    const tokens = [farmerToken!];
    while (tokens.length * BROWSER_SOCKETS_PER_VIEWER < browsers) {
      tokens.push(await benchAdminToken(fleet.worker, String(9_000_000_100 + tokens.length)));
    }
    for (let index = 0; index < browsers; index++) {
      const token = tokens[Math.floor(index / BROWSER_SOCKETS_PER_VIEWER)]!;
      const socket = openPageSocket(fleet.worker.port, fleet.mobileNos[0]!, token);
      sockets.push(socket);
      await new Promise((resolve) => socket.once("message", resolve)); // initialData
    }
    const device = fleet.devices[0]!;
    await new Promise((resolve) => setTimeout(resolve, 500)); // the watch message has arrived
    // Within a box's frame rate, as a real one reports.
    return await timeFanOut(
      sockets,
      readings,
      1_000 / DEVICE_FRAMES_PER_SECOND,
      () => device.sendPowerReading(),
      (frame) => frame.includes('"powerDataUpdate"'),
    );
  } finally {
    for (const socket of sockets) socket.close();
    await fleet.stop();
  }
}
