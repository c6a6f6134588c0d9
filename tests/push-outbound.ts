// The worker tests' outbound requests (miniflare's outboundService, in Node): `https://push.test`
// plays a push service, everything else goes out as usual. Paths: /ok/<id> takes the message
// (201), /gone/<id> answers 410, /hang/<id> never answers in time; GET /count/<id> says how many
// messages reached /ok/<id> or /hang/<id>. The e2e tests use a real one that also decrypts
// (tests/e2e/push-service/).
const received = new Map<string, number>();

export async function pushTestOutbound(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname !== "push.test") return fetch(request);
  const [, route, id = ""] = url.pathname.split("/");
  if (request.method === "GET" && route === "count") return Response.json({ count: received.get(id) ?? 0 });
  if (request.method !== "POST") return new Response(null, { status: 405 });
  if (route === "gone") return new Response(null, { status: 410 });
  received.set(id, (received.get(id) ?? 0) + 1);
  if (route === "hang") {
    await new Promise((resolve) => setTimeout(resolve, 30_000).unref());
  }
  return new Response(null, { status: 201 });
}
