// Command over the open socket: a farmer's page already watching its pump sends `switchMotor`
// on its realtime socket → DeviceHub → simulated box's ack → `commandResult` on the same
// socket. One command at a time, each to a different box (the 10 s cooldown is per box); the
// socket is opened (and its initialData read) before the clock starts, as a page has it open.
import type WebSocket from "ws";
import { ApiClient } from "../common/api-client.ts";
import { hubStatsResponseSchema } from "../common/api-responses/admin.ts";
import type { CommandCost } from "../common/hub-contract.ts";
import { type RealtimeMessage, realtimeMessageSchema } from "../common/realtime-protocol.ts";
import { benchAdminToken, type Fleet, logInFarmers, openPageSocket, startFleet } from "./fleet.ts";
import { cpuDuring, type FloorCall, localProcesses, type ProcessCpu } from "./lib.ts";

type CommandResult = Extract<RealtimeMessage, { type: "commandResult" }>;

/** The next message of `type` on `socket`, parsed with the protocol's schema as a page does. */
function nextMessage<T extends RealtimeMessage["type"]>(
  socket: WebSocket,
  type: T,
): Promise<Extract<RealtimeMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = realtimeMessageSchema.parse(JSON.parse(data.toString()));
      if (message.type !== type) return;
      socket.off("message", onMessage);
      resolve(message as Extract<RealtimeMessage, { type: T }>);
    };
    socket.on("message", onMessage);
    socket.once("error", reject);
  });
}

/**
 * What each hub says its command cost, step by step (its stats' `lastCommand`,
 * durable-objects/device-hub/command-meter.ts): the rows of the hub's breakdown.
 */
export async function hubCommandCosts(fleet: Fleet): Promise<CommandCost[]> {
  const admin = new ApiClient(fleet.worker.url, { token: await benchAdminToken(fleet.worker) });
  const costs: CommandCost[] = [];
  for (const { deviceId } of fleet.credentials) {
    const { lastCommand } = (await admin.get(`/api/admin/devices/${deviceId}/hub-stats`, hubStatsResponseSchema)).stats;
    if (lastCommand) costs.push(lastCommand);
  }
  return costs;
}

export type SocketCommands = {
  roundTrips: number[];
  errors: number;
  costs: CommandCost[];
  relayTimes: number[];
  /** What the local runtime's two processes spent on each command and each relay floor's, to the answer. */
  cpu: ProcessCpu[];
  relayCpu: ProcessCpu[];
};

/**
 * `floor`, when given, is measured once beside each command, in the pause before it: the relay
 * floor under the same load as the command (`relayTimes`).
 */
export async function measureSocketCommand(
  commands: number,
  floor?: () => Promise<FloorCall>,
): Promise<SocketCommands> {
  const fleet = await startFleet(commands);
  try {
    const processes = localProcesses(fleet.worker.process.pid!, fleet.worker.port);
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const roundTrips: number[] = [];
    const relayTimes: number[] = [];
    const cpu: ProcessCpu[] = [];
    const relayCpu: ProcessCpu[] = [];
    let errors = 0;
    for (const [index, token] of tokens.entries()) {
      const socket = openPageSocket(fleet.worker.port, fleet.mobileNos[index]!, token);
      await nextMessage(socket, "initialData");
      // A page has had its socket open a while before a tap: the box's answer to the first
      // watcher (fast readings) is not part of the command.
      const pause = new Promise((resolve) => setTimeout(resolve, 200));
      if (floor) {
        const relayed = await floor();
        relayTimes.push(relayed.ms);
        relayCpu.push(relayed.cpu);
      }
      await pause;
      const answered: Promise<CommandResult> = nextMessage(socket, "commandResult");
      const { result: answer, cpu: spent } = await cpuDuring(processes, async () => {
        const started = performance.now();
        socket.send(JSON.stringify({ type: "switchMotor", requestId: String(index), action: "on" }));
        const result = await answered;
        roundTrips.push(performance.now() - started);
        return result;
      });
      cpu.push(spent);
      if (!answer.result.ok) errors++;
      socket.close();
    }
    return { roundTrips, errors, costs: await hubCommandCosts(fleet), relayTimes, cpu, relayCpu };
  } finally {
    await fleet.stop();
  }
}
