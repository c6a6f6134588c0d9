/**
 * Headers the Worker sets on the upgrade requests it forwards to a DeviceHub, after it has
 * authenticated the socket. A DeviceHub is reachable only through its binding, never from
 * the internet, and the Worker builds these requests from scratch, so clients cannot set them.
 */
export const HUB_HEADERS = {
  socketRole: "X-Hub-Socket-Role",
  viewerId: "X-Hub-Viewer-Id",
  viewerRole: "X-Hub-Viewer-Role",
  /** The session that opened a browser socket, and when it runs out: the socket ends with it. */
  sessionId: "X-Hub-Session-Id",
  sessionExpiresAt: "X-Hub-Session-Expires-At",
} as const;
