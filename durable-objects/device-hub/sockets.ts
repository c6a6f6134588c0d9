// The hub's sockets: one box and any number of browsers, accepted with the hibernation API.
// Each is tagged by role so getWebSockets() finds it after the hub wakes, and carries its own
// data as an attachment (both survive hibernation with the socket). Every message leaves here
// typed, and becomes a frame in one place.
import type { ServerToDeviceMessage } from "../../common/device-protocol.ts";
import { SEND_FAILED_CLOSE } from "../../common/hub-contract.ts";
import type { RealtimeMessage } from "../../common/realtime-protocol.ts";
import type { CommandMeter } from "./command-meter.ts";

/**
 * Set once the hub has closed the socket, with the code it sent. Kept in the attachment, not in
 * memory: the runtime keeps delivering a peer's frames until the peer answers the close (or the
 * connection dies), and a hub woken from hibernation must still know to drop them.
 */
type ClosedByHub = { closedWith?: number };

export type DeviceAttachment = ClosedByHub & { role: "device"; connectedAt: number; helloAt: number | null };
export type BrowserAttachment = ClosedByHub & {
  role: "browser";
  viewerId: number;
  viewerRole: "user" | "admin";
  /** The HTTP session that opened the socket: when it ends, so does the socket. */
  sessionId: string;
  sessionExpiresAt: number;
  /** When the hub accepted it: the per-viewer cap closes the oldest first. */
  openedAt?: number;
};
export type SocketAttachment = DeviceAttachment | BrowserAttachment;

/** Tags let getWebSockets() find sockets by role after hibernation. */
export const DEVICE_TAG = "device";
export const BROWSER_TAG = "browser";
export const ADMIN_VIEWER_TAG = "viewer:admin";
export const USER_VIEWER_TAG = "viewer:user";
export const sessionTag = (sessionId: string) => `session:${sessionId}`;
export const userTag = (userId: number) => `user:${userId}`;

/** Who gets a broadcast: every browser, or only admins' (debug lines and debug mode). */
export type Audience = "browsers" | "admins";
const AUDIENCE_TAG: Record<Audience, string> = { browsers: BROWSER_TAG, admins: ADMIN_VIEWER_TAG };

/** The attachment as the runtime stores it (HubSockets keeps a copy per socket, read once). */
export function attachmentOf(ws: WebSocket): SocketAttachment | null {
  return ws.deserializeAttachment() as SocketAttachment | null;
}

/**
 * Whether the hub may still act for this socket and send to it: open, and not closed by the hub.
 * After our close the runtime may still show the socket OPEN (the peer has not answered), and
 * after hibernation every socket is a new object: only the attachment remembers.
 */
export function isLive(ws: WebSocket, attachment: SocketAttachment | null = attachmentOf(ws)): boolean {
  return ws.readyState === WebSocket.OPEN && attachment?.closedWith === undefined;
}

/** The one place a message becomes a frame. */
function frameOf(message: ServerToDeviceMessage | RealtimeMessage): string {
  return JSON.stringify(message);
}

export class HubSockets {
  readonly #ctx: DurableObjectState;
  readonly #meter: CommandMeter;
  /**
   * Each socket's attachment as last written or read, in memory: reading it back from the
   * runtime is a deserialisation, which a broadcast would otherwise pay once per socket. Every
   * attachment the hub writes goes through `attach`; after hibernation every socket is a new
   * object, whose attachment is read once.
   */
  readonly #attachments = new WeakMap<WebSocket, SocketAttachment | null>();

  constructor(ctx: DurableObjectState, meter: CommandMeter) {
    this.#ctx = ctx;
    this.#meter = meter;
  }

  attachmentOf(ws: WebSocket): SocketAttachment | null {
    if (this.#attachments.has(ws)) return this.#attachments.get(ws)!;
    const attachment = attachmentOf(ws);
    this.#attachments.set(ws, attachment);
    return attachment;
  }

  browserAttachmentOf(ws: WebSocket): BrowserAttachment | null {
    return this.attachmentOf(ws) as BrowserAttachment | null;
  }

  /** The one way the hub writes a socket's attachment (it survives hibernation with the socket). */
  attach(ws: WebSocket, attachment: SocketAttachment): void {
    ws.serializeAttachment(attachment);
    this.#attachments.set(ws, attachment);
  }

  /** Whether the hub may still act for this socket (`isLive`), from the attachment in memory. */
  isLive(ws: WebSocket): boolean {
    return isLive(ws, this.attachmentOf(ws));
  }

  /** The box's open socket that has said hello, ignoring `except` (a socket being closed). */
  device(except?: WebSocket): WebSocket | null {
    for (const ws of this.#ctx.getWebSockets(DEVICE_TAG)) {
      if (ws === except || !this.isLive(ws)) continue;
      if ((this.attachmentOf(ws) as DeviceAttachment | null)?.helloAt) return ws;
    }
    return null;
  }

  /** Every box socket, open or not, said hello or not. */
  allDevices(): WebSocket[] {
    return this.#ctx.getWebSockets(DEVICE_TAG);
  }

  /** The open browser sockets, ignoring `except` (a socket being closed). */
  browsers(except?: WebSocket): WebSocket[] {
    return this.#ctx.getWebSockets(BROWSER_TAG).filter((ws) => ws !== except && this.isLive(ws));
  }

  /** Sockets with `tag`, open or not. */
  tagged(tag: string): WebSocket[] {
    return this.#ctx.getWebSockets(tag);
  }

  sendToDevice(ws: WebSocket, message: ServerToDeviceMessage): void {
    this.#sendFrame(ws, frameOf(message));
  }

  sendToBrowser(ws: WebSocket, message: RealtimeMessage): void {
    this.#sendFrame(ws, frameOf(message));
  }

  /** Sends to every open browser socket of `audience`, serialised once for all of them; how many it went to. */
  broadcast(message: RealtimeMessage, audience: Audience = "browsers"): number {
    const frame = frameOf(message);
    let sent = 0;
    for (const ws of this.#ctx.getWebSockets(AUDIENCE_TAG[audience])) {
      if (!this.isLive(ws)) continue;
      this.#sendFrame(ws, frame);
      sent++;
    }
    return sent;
  }

  /** The box's last frame (`lastFrameAt`, from the hub's state) or heartbeat on `device`, the later. */
  lastHeardFrom(device: WebSocket, lastFrameAt: number | null): number | null {
    const heartbeat = this.heartbeatAt(device);
    if (heartbeat === null) return lastFrameAt;
    return lastFrameAt === null ? heartbeat : Math.max(lastFrameAt, heartbeat);
  }

  /** The last heartbeat the runtime answered on `ws` without waking us. */
  heartbeatAt(ws: WebSocket): number | null {
    return this.#ctx.getWebSocketAutoResponseTimestamp(ws)?.getTime() ?? null;
  }

  /**
   * The one way the hub closes a socket. The mark comes first: whatever the peer sends after this
   * is dropped unread (webSocketMessage), even if it never answers the close.
   */
  close(ws: WebSocket, code: number, reason: string): void {
    const attachment = this.attachmentOf(ws);
    if (attachment && attachment.closedWith === undefined) {
      try {
        this.attach(ws, { ...attachment, closedWith: code });
      } catch (error) {
        console.error(`DeviceHub ${this.#ctx.id.name}: could not mark a socket closed`, error);
      }
    }
    try {
      ws.close(code, reason);
    } catch {
      // Already closed.
    }
  }

  #sendFrame(ws: WebSocket, frame: string): void {
    try {
      ws.send(frame);
      this.#meter.sent();
    } catch (error) {
      // A socket that cannot take a frame is broken: close it so the peer reconnects.
      console.error(`DeviceHub ${this.#ctx.id.name}: send failed`, error);
      this.close(ws, SEND_FAILED_CLOSE, "Send failed");
    }
  }
}
