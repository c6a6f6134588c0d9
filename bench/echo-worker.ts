// The floor for the latency benchmarks: a bare WebSocket echo in the same local runtime,
// nothing else (no D1, no Durable Object, no JSON). `GET /after?ms=N` answers a fixed JSON body
// after N ms: what the local chain does with an answer's body when the Worker held it that long.
export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/after") {
      await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get("ms") ?? 0)));
      return Response.json({ success: true, status: "on" });
    }
    if (request.headers.get("Upgrade") !== "websocket") return new Response("echo", { status: 200 });
    const { 0: client, 1: server } = new WebSocketPair();
    server.accept();
    server.addEventListener("message", (event) => server.send(event.data));
    return new Response(null, { status: 101, webSocket: client });
  },
};
