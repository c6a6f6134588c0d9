// The floor for a command over the open socket: one Durable Object holding a page's socket and
// a box's, relaying a command the way the hub's path is shaped and doing nothing else. A frame
// from the page is stored (as the hub stores cooldown and pending command) before it goes to
// the box; the box's ack is stored with a log row (as the hub stores the belief and the log
// entry) before the answer goes to the page. Four frames and two storage commits: what no hub
// can do without. No D1, no validation, no rooms.
//
// The floor for a command over HTTP is the same relay reached as the API reaches a hub:
// `POST /command?object=N` calls the object over RPC, which stores, sends the switch to the box,
// waits for its ack, stores again and returns; the Worker answers a fixed JSON body. With `d1=1`
// the Worker first makes one D1 round trip, as the API reads the session and the box in one
// query before it calls the hub. No token, no checks, no state beyond the two writes.
//
// It is the fan-out's floor too: a box's reading (a frame with `"type":"power"`) goes to every
// `watcher` socket as it came, serialised by nobody and stored nowhere.
import { DurableObject } from "cloudflare:workers";

type Role = "page" | "box" | "watcher";
const ROLES: readonly string[] = ["page", "box", "watcher"] satisfies Role[];

type Env = { RELAY: DurableObjectNamespace<RelayFloor>; DB: D1Database };

export class RelayFloor extends DurableObject<Env> {
  /** Commands over RPC waiting for the box's ack, by id: in memory, as the hub keeps its caller's. */
  readonly #waiting = new Map<string, (relay: string) => void>();

  override async fetch(request: Request): Promise<Response> {
    const asked = new URL(request.url).searchParams.get("role") ?? "page";
    const role = (ROLES.includes(asked) ? asked : "page") as Role;
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [role]);
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, entry TEXT NOT NULL)");
    return new Response(null, { status: 101, webSocket: client });
  }

  /** A switch over RPC: the HTTP command's floor. Answers once the box has acknowledged. */
  async command(id: string): Promise<{ ok: boolean; status: string }> {
    const box = this.ctx.getWebSockets("box")[0];
    if (!box) return { ok: false, status: "unreachable" };
    this.ctx.storage.kv.put("pending", { id, sentAt: Date.now() });
    const acknowledged = new Promise<string>((resolve) => this.#waiting.set(id, resolve));
    box.send(JSON.stringify({ type: "switch", id, relay: "on" }));
    return { ok: true, status: await acknowledged };
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
    const waiting = this.#waiting.get(message.id ?? "");
    if (waiting) {
      this.#waiting.delete(message.id!);
      waiting(message.relay ?? "");
      return;
    }
    const result = { type: "commandResult", requestId: message.id, result: { ok: true, status: message.relay } };
    this.ctx.getWebSockets("page")[0]?.send(JSON.stringify(result));
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    ws.close(code === 1005 || code === 1006 ? 1000 : code);
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const relay = env.RELAY.get(env.RELAY.idFromName(url.searchParams.get("object") ?? "relay"));
    if (url.pathname === "/command" && request.method === "POST") {
      const id = url.searchParams.get("id") ?? "";
      if (url.searchParams.get("d1") === "1") await env.DB.prepare("SELECT ?1 AS id").bind(id).first();
      const { ok, status } = await relay.command(id);
      return Response.json({ success: ok, status }, { status: ok ? 200 : 503 });
    }
    if (request.headers.get("Upgrade") !== "websocket") return new Response("relay", { status: 200 });
    return relay.fetch(request);
  },
};
