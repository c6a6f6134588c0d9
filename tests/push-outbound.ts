// The worker tests' outbound requests (miniflare's outboundService, in Node): `https://push.test`
// plays a push service, everything else goes out as usual and is noted. Paths: /ok/<id> takes
// the message (201), /gone/<id> answers 410, /hang/<id> never answers in time, /redirect/<id>
// answers 307 to /ok/<id>-followed (which a sender must not follow). GET /count/<id> says how
// many messages reached /ok/<id> or /hang/<id> and the RFC 8030 Topic of each; GET
// /elsewhere?contains=<text> lists the addresses outside push.test the Worker asked that
// contain the text. The e2e tests use a real one that also decrypts (tests/e2e/push-service/).
const received = new Map<string, { count: number; topics: (string | null)[] }>();
const elsewhere: string[] = [];

export async function pushTestOutbound(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname !== "push.test") {
    elsewhere.push(request.url);
    return fetch(request);
  }
  const [, route, id = ""] = url.pathname.split("/");
  if (request.method === "GET" && route === "count") {
    const seen = received.get(id);
    return Response.json({ count: seen?.count ?? 0, topics: seen?.topics ?? [] });
  }
  if (request.method === "GET" && route === "elsewhere") {
    const text = url.searchParams.get("contains") ?? "";
    return Response.json({ addresses: elsewhere.filter((address) => address.includes(text)) });
  }
  if (request.method !== "POST") return new Response(null, { status: 405 });
  if (route === "gone") return new Response(null, { status: 410 });
  if (route === "redirect") {
    return new Response(null, { status: 307, headers: { Location: `https://push.test/ok/${id}-followed` } });
  }
  const seen = received.get(id) ?? { count: 0, topics: [] };
  received.set(id, { count: seen.count + 1, topics: [...seen.topics, request.headers.get("Topic")] });
  if (route === "hang") {
    await new Promise((resolve) => setTimeout(resolve, 30_000).unref());
  }
  return new Response(null, { status: 201 });
}
