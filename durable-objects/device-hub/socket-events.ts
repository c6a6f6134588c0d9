// What the platform's socket events bring (DeviceHub's webSocketMessage, webSocketClose and
// webSocketError): each frame handed to the room of its socket's role, the box's to device-frames.ts,
// a page's to browser-requests.ts, and a socket gone to the rooms that were waiting on it.
import type { BrowserRequests } from "./browser-requests.ts";
import type { Browsers } from "./browsers.ts";
import type { Commissioning } from "./commissioning.ts";
import type { DeviceFrames } from "./device-frames.ts";
import type { DeviceLink } from "./device-link.ts";
import { Room } from "./room.ts";

type SocketRooms = {
  link: DeviceLink;
  frames: DeviceFrames;
  requests: BrowserRequests;
  browsers: Browsers;
  commissioning: Commissioning;
};

export class SocketEvents extends Room<SocketRooms> {
  async message(ws: WebSocket, frame: string | ArrayBuffer): Promise<void> {
    const { link, requests, frames } = this.rooms;
    // A box cut off for flooding gets nothing more done: the frames it sent before our close
    // still arrive, and each must cost next to nothing. (Any other closing socket's last frames
    // count: a box reports "installing" and closes at once to restart.)
    if (link.isFlooding(ws)) {
      link.dropFlood();
      return;
    }
    const attachment = this.hub.sockets.attachmentOf(ws);
    // A socket the hub closed acts no more. Its peer may ignore our close frame and keep
    // sending: the runtime delivers those frames until the peer answers or the connection
    // dies (docs/security.md, "Closed sockets"), so they are dropped here, unread.
    if (attachment === null || attachment.closedWith !== undefined) return;
    // One bad frame must not take the hub down with it: what threw is logged with the hub's
    // identity, and the next frame, on this socket or another, is handled as usual.
    try {
      if (attachment.role === "browser") await requests.onFrame(ws, attachment, frame);
      else await frames.onFrame(ws, attachment, frame);
    } catch (error) {
      this.hub.logError(`webSocketMessage from a ${attachment.role} failed`, error);
    }
  }

  async closed(ws: WebSocket, code: number, reason: string): Promise<void> {
    // Reciprocate the close handshake; the peer may already be gone, which is fine. 1005 and
    // 1006 say no code was received and may not be sent back (RFC 6455 §7.4.1).
    this.hub.sockets.close(ws, code === 1005 || code === 1006 ? 1000 : code, reason);
    await this.#gone(ws);
  }

  async failed(ws: WebSocket, error: unknown): Promise<void> {
    this.hub.logError("socket error", error);
    await this.#gone(ws);
  }

  async #gone(ws: WebSocket): Promise<void> {
    const attachment = this.hub.sockets.attachmentOf(ws);
    if (attachment?.role === "device") {
      this.rooms.commissioning.linkLost();
      await this.rooms.link.socketGone(ws);
    } else if (attachment?.role === "browser") this.rooms.browsers.socketGone(ws);
  }
}
