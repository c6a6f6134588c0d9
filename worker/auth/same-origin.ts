/**
 * True when the request provably comes from our own pages. Cookie-authenticated writes and
 * socket upgrades require it: browsers attach cookies to cross-site requests (and to
 * cross-site WebSocket upgrades, which have no CORS) but always say where they come from.
 */
export function isSameOriginRequest(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin !== null) return origin === new URL(request.url).origin;
  return request.headers.get("Sec-Fetch-Site") === "same-origin";
}
