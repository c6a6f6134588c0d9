// Fan-out: one box's power reading reaching 100 browser sockets watching it.
import WebSocket from "ws";
import { logInFarmers, startFleet } from "./fleet.ts";

export async function measureFanOut(browsers: number, readings: number): Promise<number[]> {
  const fleet = await startFleet(1);
  const sockets: WebSocket[] = [];
  try {
    const [token] = await logInFarmers(fleet.worker, fleet.mobileNos);
    for (let index = 0; index < browsers; index++) {
      const socket = new WebSocket(`ws://localhost:${fleet.worker.port}/api/realtime?mobileNo=${fleet.mobileNos[0]}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      sockets.push(socket);
      await new Promise((resolve) => socket.once("message", resolve)); // initialData
    }
    const device = fleet.devices[0]!;
    await new Promise((resolve) => setTimeout(resolve, 500)); // the watch message has arrived
    const arrivals: number[] = [];
    for (let reading = 0; reading < readings; reading++) {
      const started = performance.now();
      const all = sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            const onMessage = (data: WebSocket.RawData) => {
              if (!data.toString().includes('"powerDataUpdate"')) return;
              socket.off("message", onMessage);
              arrivals.push(performance.now() - started);
              resolve();
            };
            socket.on("message", onMessage);
          }),
      );
      device.sendPowerReading();
      await Promise.all(all);
    }
    return arrivals;
  } finally {
    for (const socket of sockets) socket.close();
    await fleet.stop();
  }
}
