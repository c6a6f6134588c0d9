// The floor for a command over the open socket: one Durable Object holding a page's socket and
// a box's, relaying a command the way the hub's path is shaped and doing nothing else. A frame
// from the page is stored (as the hub stores cooldown and pending command) before it goes to
// the box; the box's ack is stored with a log row (as the hub stores the belief and the log
// entry) before the answer goes to the page. Four frames and two storage commits: what no hub
// can do without. No D1, no validation, no rooms.
//
// It is the fan-out's floor too: a box's reading (a frame with `"type":"power"`) goes to every
// `watcher` socket as it came, serialised by nobody and stored nowhere.
import { DurableObject } from "cloudflare:workers";

type Role = "page" | "box" | "watcher";
const ROLES: readonly string[] = ["page", "box", "watcher"] satisfies Role[];

export class RelayFloor extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    const asked = new URL(request.url).searchParams.get("role") ?? "page";
    const role = (ROLES.includes(asked) ? asked : "page") as Role;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [role]);
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, entry TEXT NOT NULL)");
    return new Response(null, { status: 101, webSocket: client });
  }

  override webSocketMessage(ws: WebSocket, frame: string | ArrayBuffer): void {
    const [role] = this.ctx.getTags(ws);
    const message = JSON.parse(String(frame)) as { type?: string; requestId?: string; id?: string; relay?: string };
    if (role === "box" && message.type === "power") {
      for (const watcher of this.ctx.getWebSockets("watcher")) watcher.send(frame);
      return;
    }
    if (role === "page") {
      this.ctx.storage.kv.put("pending", { id: message.requestId, sentAt: Date.now() });
      this.ctx.getWebSockets("box")[0]?.send(JSON.stringify({ type: "switch", id: message.requestId, relay: "on" }));
      return;
    }
    this.ctx.storage.kv.put("pending", null);
    this.ctx.storage.sql.exec("INSERT INTO log (entry) VALUES (?)", String(frame));
    const result = { type: "commandResult", requestId: message.id, result: { ok: true, status: message.relay } };
    this.ctx.getWebSockets("page")[0]?.send(JSON.stringify(result));
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    ws.close(code === 1005 || code === 1006 ? 1000 : code);
  }
}

export default {
  fetch(request: Request, env: { RELAY: DurableObjectNamespace<RelayFloor> }): Response | Promise<Response> {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("relay", { status: 200 });
    const name = new URL(request.url).searchParams.get("object") ?? "relay";
    return env.RELAY.get(env.RELAY.idFromName(name)).fetch(request);
  },
};
