// The browsers watching the pump (docs/pump-state.md, "Sockets follow the session"): each
// socket is accepted for a viewer the Worker authenticated, tagged with its role, session and
// user, capped per viewer and per pump (docs/security.md, "Caps"), fed the snapshot and every
// update, and closed with a code the page words when its right to watch ends. What a page asks
// on its socket is browser-requests.ts; the first socket makes the box report fast readings,
// the last one leaving stops them.
import {
  ACCESS_UNCONFIRMED_CLOSE,
  BROWSER_CLOSE,
  type BrowserCloseReason,
  FRAME_TOO_BIG_CLOSE,
  HUB_HEADERS,
  type HubSocketRefusal,
} from "../../common/hub-contract.ts";
import {
  BROWSER_SOCKETS_PER_DEVICE,
  BROWSER_SOCKETS_PER_VIEWER,
  MAX_BROWSER_FRAME_BYTES,
} from "../../common/realtime-protocol.ts";
import type { DebugLines } from "./debug-lines.ts";
import type { DeviceLink } from "./device-link.ts";
import { mayWatch, roleOf } from "./owner.ts";
import type { PumpView } from "./pump-view.ts";
import { Room } from "./room.ts";
import { BROWSER_TAG, sessionTag, USER_VIEWER_TAG, userTag } from "./sockets.ts";
import { TIMERS } from "./timers.ts";

/** Which browser sockets to close: those of some sessions, or an account's (of one role, or both). */
export type ViewerTarget = { sessionIds: string[] } | { userId: number; viewerRole?: "user" | "admin" };

/**
 * Room for a viewer's new socket: its own oldest sockets make room first (tabs left open), so
 * one account can never lock another out; a pump full of other viewers refuses. `open`: the
 * pump's open sockets with their viewer and when each was opened.
 */
export function browserCaps<Socket>(
  open: { socket: Socket; viewerId: number | null; openedAt: number }[],
  viewerId: number,
): { evict: Socket[]; refuse: boolean; othersLeft: number } {
  const mine = open.filter((entry) => entry.viewerId === viewerId).sort((a, b) => a.openedAt - b.openedAt);
  const evict = mine.slice(0, Math.max(0, mine.length - BROWSER_SOCKETS_PER_VIEWER + 1)).map((entry) => entry.socket);
  const othersLeft = open.length - evict.length;
  return { evict, refuse: othersLeft >= BROWSER_SOCKETS_PER_DEVICE, othersLeft };
}

/** A frame's size in bytes. */
export function frameBytes(frame: string | ArrayBuffer): number {
  if (typeof frame !== "string") return frame.byteLength;
  // UTF-8 takes one to three bytes per UTF-16 unit: encode only when the length cannot decide.
  if (frame.length > MAX_BROWSER_FRAME_BYTES || frame.length * 3 <= MAX_BROWSER_FRAME_BYTES) return frame.length;
  return new TextEncoder().encode(frame).byteLength;
}

export type BrowserRooms = { view: PumpView; debug: DebugLines; link: DeviceLink };

export class Browsers extends Room<BrowserRooms> {
  /** A browser's upgrade, already authenticated by the Worker (its identity in HUB_HEADERS). */
  async accept(request: Request): Promise<Response> {
    const { ctx, sockets, timers } = this.hub;
    const viewerId = Number(request.headers.get(HUB_HEADERS.viewerId));
    const viewerRole = request.headers.get(HUB_HEADERS.viewerRole) === "admin" ? "admin" : "user";
    const sessionId = request.headers.get(HUB_HEADERS.sessionId) ?? "";
    const sessionExpiresAt = Number(request.headers.get(HUB_HEADERS.sessionExpiresAt)) || Date.now();
    const { 0: client, 1: server } = new WebSocketPair();
    // The Worker found this farmer's access in D1 a moment ago, but an admin may have relinked
    // the pump or its owner removed them since: accepted only to be closed with the reason,
    // so the page stops and says why.
    if (viewerRole === "user" && !(await mayWatch(this.hub, viewerId))) {
      server.accept();
      if (this.hub.state.current.accessConfirmed) sockets.close(server, BROWSER_CLOSE.deviceUnlinked, "deviceUnlinked");
      else sockets.close(server, ACCESS_UNCONFIRMED_CLOSE, "accessUnconfirmed");
      return new Response(null, { status: 101, webSocket: client });
    }
    const open = sockets.browsers();
    const caps = browserCaps(
      open.map((socket) => ({
        socket,
        viewerId: sockets.browserAttachmentOf(socket)?.viewerId ?? null,
        openedAt: sockets.browserAttachmentOf(socket)?.openedAt ?? 0,
      })),
      viewerId,
    );
    if (caps.refuse)
      return Response.json({ code: "tooManyViewers", seconds: 60 } satisfies HubSocketRefusal, { status: 429 });
    for (const ws of caps.evict) sockets.close(ws, BROWSER_CLOSE.tooManyTabs, "tooManyTabs");
    const wasWatched = caps.othersLeft > 0;
    ctx.acceptWebSocket(server, [BROWSER_TAG, `viewer:${viewerRole}`, sessionTag(sessionId), userTag(viewerId)]);
    sockets.attach(server, {
      role: "browser",
      viewerId,
      viewerRole,
      sessionId,
      sessionExpiresAt,
      openedAt: Date.now(),
    });
    sockets.sendToBrowser(server, {
      type: "initialData",
      ...(await this.rooms.view.snapshot({ everything: viewerRole === "admin" })),
    });
    if (viewerRole === "admin") this.rooms.debug.replayTo(server);
    // The session's own end closes the socket even if nobody revokes it.
    const expiryDue = timers.dueAt(TIMERS.sessionExpiry);
    if (expiryDue === null || sessionExpiresAt < expiryDue) timers.set(TIMERS.sessionExpiry, sessionExpiresAt);
    if (!wasWatched) this.rooms.link.setWatched(true);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * A page sends heartbeats (answered without waking us) and small requests
   * (browser-requests.ts): a big frame is abuse, and closes its socket. False when it did.
   */
  frameFits(ws: WebSocket, frame: string | ArrayBuffer): boolean {
    if (frameBytes(frame) <= MAX_BROWSER_FRAME_BYTES) return true;
    this.hub.sockets.close(ws, FRAME_TOO_BIG_CLOSE, "Frame too large");
    return false;
  }

  /** A browser's socket closed or failed: the last one stops the fast readings. */
  socketGone(ws: WebSocket): void {
    if (this.hub.sockets.browsers(ws).length === 0) this.rooms.link.setWatched(false);
  }

  /**
   * Sessions ended or an account lost access (worker/auth/session-sockets.ts): the browser
   * sockets they opened close now, with the reason as a close code. Returns how many closed.
   */
  closeViewerSockets(target: ViewerTarget, reason: BrowserCloseReason): number {
    const { sockets } = this.hub;
    const closing = (
      "sessionIds" in target
        ? target.sessionIds.flatMap((sessionId) => sockets.tagged(sessionTag(sessionId)))
        : sockets
            .tagged(userTag(target.userId))
            .filter(
              (ws) =>
                target.viewerRole === undefined || sockets.browserAttachmentOf(ws)?.viewerRole === target.viewerRole,
            )
    ).filter((ws) => sockets.isLive(ws));
    for (const ws of closing) this.#close(ws, reason);
    return closing.length;
  }

  /**
   * No farmer keeps watching a pump that is no longer theirs or shared with them; admins may
   * watch any. A hub that cannot confirm who may use the pump closes every farmer's socket, with
   * a code that makes the page try again (ACCESS_UNCONFIRMED_CLOSE).
   */
  closeWithoutAccess(): void {
    const { state, sockets } = this.hub;
    for (const ws of sockets.tagged(USER_VIEWER_TAG).filter((socket) => sockets.isLive(socket))) {
      const viewerId = sockets.browserAttachmentOf(ws)?.viewerId;
      if (!state.current.accessConfirmed) this.#closeUnconfirmed(ws);
      else if (viewerId === undefined || roleOf(state.current, viewerId) === null) this.#close(ws, "deviceUnlinked");
    }
  }

  /** The session-expiry timer: closes the sockets whose session has run out, and waits for the next one to. */
  closeExpiredSessions(now: number): void {
    const { sockets } = this.hub;
    let next: number | null = null;
    for (const ws of sockets.tagged(BROWSER_TAG)) {
      const attachment = sockets.browserAttachmentOf(ws);
      if (!attachment || !sockets.isLive(ws)) continue;
      if (attachment.sessionExpiresAt <= now) this.#close(ws, "sessionExpired");
      else next = Math.min(next ?? Infinity, attachment.sessionExpiresAt);
    }
    if (next !== null) this.hub.timers.set(TIMERS.sessionExpiry, next);
  }

  #close(ws: WebSocket, reason: BrowserCloseReason): void {
    this.#closeWith(ws, BROWSER_CLOSE[reason], reason);
  }

  #closeUnconfirmed(ws: WebSocket): void {
    this.#closeWith(ws, ACCESS_UNCONFIRMED_CLOSE, "accessUnconfirmed");
  }

  #closeWith(ws: WebSocket, code: number, reason: string): void {
    this.hub.sockets.close(ws, code, reason);
    if (this.hub.sockets.browsers(ws).length === 0 && this.hub.state.current.watchedSince !== null)
      this.rooms.link.setWatched(false);
  }
}
