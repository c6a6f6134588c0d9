/** `/api/*` and every WebSocket upgrade belong to the API; everything else to React Router. */
export function isApiRequest(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return (
    pathname === "/api" || pathname.startsWith("/api/") || request.headers.get("Upgrade")?.toLowerCase() === "websocket"
  );
}
