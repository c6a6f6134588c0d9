// The admin's debug console: while debug mode is on the box streams its log lines; the hub
// keeps the last DEBUG_LINE_LIMIT in its SQLite (`debug_lines`), sends each to admin sockets
// only, and replays the kept ones to an admin who opens the console.
import type { RealtimeMessage } from "../../common/realtime-protocol.ts";
import type { HubContext } from "./context.ts";
import { DebugLinesTable } from "./debug-lines-table.ts";
import { Room } from "./room.ts";

export class DebugLines extends Room {
  readonly #lines: DebugLinesTable;

  constructor(hub: HubContext) {
    super(hub);
    this.#lines = new DebugLinesTable(hub.ctx.storage.sql);
  }

  /** A `log` frame from the box. */
  onLine(line: string, now: number): void {
    if (!this.hub.state.current.config.debug) return; // a box should not send these; never store them unasked
    this.#lines.add(now, line);
    this.hub.sockets.broadcast(this.#message(now, line), "admins");
  }

  /** The kept lines, oldest first, to an admin's socket that just opened. */
  replayTo(ws: WebSocket): void {
    for (const { at, line } of this.#lines.all()) this.hub.sockets.sendToBrowser(ws, this.#message(at, line));
  }

  #message(at: number, line: string): RealtimeMessage {
    return {
      type: "debugLog",
      log: line,
      timestamp: new Date(at).toISOString(),
      mobileNo: this.hub.state.current.owner?.mobileNo ?? null,
    };
  }
}
