// A WebSocket client on a bare TCP socket, for tests that play an attacker. It speaks just enough
// of RFC 6455 to open a connection, send masked text frames and read the server's frames, and
// it never answers a close frame: the hostile or broken phone that keeps talking after the hub
// closed it. Node's global WebSocket and `ws` both answer a close at once, so they cannot play it.
import { createHash, randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

const OPCODE = { text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export type RawFrame = { opcode: number; payload: Buffer };

export class RawWebSocket {
  /** Text frames from the server, in order. */
  readonly texts: string[] = [];
  /** The server's close frame, when it came (the client never answers it). */
  closeFrame: { code: number; reason: string; at: number } | null = null;
  /** When the TCP connection ended, whoever ended it. */
  endedAt: number | null = null;
  /** Frames this client sent after the server's close frame reached it. */
  sentAfterClose = 0;
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #waiters: (() => void)[] = [];

  private constructor(socket: Socket, rest: Buffer) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => this.#take(chunk));
    socket.on("close", () => {
      this.endedAt = Date.now();
      this.#notify();
    });
    socket.on("error", () => {});
    if (rest.length > 0) this.#take(rest);
  }

  /** Opens `url` (ws://host:port/path?query) with `headers`; rejects with the status line and body when refused. */
  static open(url: string, headers: Record<string, string> = {}): Promise<RawWebSocket> {
    const target = new URL(url);
    const key = randomBytes(16).toString("base64");
    const request = [
      `GET ${target.pathname}${target.search} HTTP/1.1`,
      `Host: ${target.host}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      `Sec-WebSocket-Key: ${key}`,
      "Sec-WebSocket-Version: 13",
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      "",
      "",
    ].join("\r\n");
    const accept = createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
    return new Promise((resolve, reject) => {
      const socket = connect(Number(target.port), target.hostname, () => socket.write(request));
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n");
        if (end === -1) return;
        socket.off("data", onData);
        socket.off("error", reject);
        const lines = head.subarray(0, end).toString("latin1").split("\r\n");
        const rest = head.subarray(end + 4);
        if (
          !lines[0]?.includes(" 101 ") ||
          !lines.some((line) => line.toLowerCase() === `sec-websocket-accept: ${accept.toLowerCase()}`)
        ) {
          socket.destroy();
          reject(new Error(`upgrade refused: ${lines[0]} ${rest.toString("utf8")}`));
          return;
        }
        resolve(new RawWebSocket(socket, rest));
      };
      socket.on("data", onData);
      socket.once("error", reject);
    });
  }

  /** Sends a masked text frame, as a client must. False once the TCP connection has ended. */
  sendText(text: string): boolean {
    if (this.endedAt !== null || this.#socket.destroyed) return false;
    if (this.closeFrame) this.sentAfterClose += 1;
    this.#socket.write(frameOf(OPCODE.text, Buffer.from(text, "utf8")));
    return true;
  }

  /** Resolves once `until()` holds or `timeoutMs` passed; answers whether it held. */
  async waitFor(until: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!until()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  /** Ends the TCP connection without a close frame. */
  destroy(): void {
    this.#socket.destroy();
  }

  #take(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const frame = readFrame(this.#buffer);
      if (!frame) break;
      this.#buffer = this.#buffer.subarray(frame.length);
      if (frame.opcode === OPCODE.text) this.texts.push(frame.payload.toString("utf8"));
      else if (frame.opcode === OPCODE.close && !this.closeFrame) {
        const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005;
        this.closeFrame = { code, reason: frame.payload.subarray(2).toString("utf8"), at: Date.now() };
      }
      // Pings go unanswered too: this client is as unhelpful as it gets.
    }
    this.#notify();
  }

  #notify(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}

function frameOf(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const length = payload.length;
  const header =
    length < 126
      ? Buffer.from([0x80 | opcode, 0x80 | length])
      : length < 65_536
        ? Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff])
        : (() => {
            const big = Buffer.alloc(10);
            big[0] = 0x80 | opcode;
            big[1] = 0x80 | 127;
            big.writeBigUInt64BE(BigInt(length), 2);
            return big;
          })();
  const masked = Buffer.alloc(length);
  for (let index = 0; index < length; index++) masked[index] = payload[index]! ^ mask[index % 4]!;
  return Buffer.concat([header, mask, masked]);
}

/** One whole server frame at the start of `buffer` (servers do not mask), or null if it has not all arrived. */
function readFrame(buffer: Buffer): (RawFrame & { length: number }) | null {
  if (buffer.length < 2) return null;
  const opcode = buffer[0]! & 0x0f;
  let length = buffer[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    offset = 10;
  }
  if (buffer.length < offset + length) return null;
  return { opcode, payload: buffer.subarray(offset, offset + length), length: offset + length };
}
