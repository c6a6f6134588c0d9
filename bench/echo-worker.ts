// The floor for the latency benchmarks: a bare WebSocket echo in the same local runtime,
// nothing else (no D1, no Durable Object, no JSON).
export default {
  fetch(request: Request): Response {
    if (request.headers.get("Upgrade") !== "websocket") return new Response("echo", { status: 200 });
    const { 0: client, 1: server } = new WebSocketPair();
    server.accept();
    server.addEventListener("message", (event) => server.send(event.data));
    return new Response(null, { status: 101, webSocket: client });
  },
};
