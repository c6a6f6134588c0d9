// What a page asks on its open socket (common/realtime-protocol.ts, `browserRequestSchema`):
// a switch of the motor, answered on the same socket by a `commandResult` with the request's
// id once the hub has the box's answer. Who asks is the socket's viewer, whose right to the
// socket the session rules keep true (docs/pump-state.md, "Sockets follow the session"); what
// they may do is checked by the same method the HTTP API calls (person-switch.ts).
import { DEVICE_CLOSE } from "../../common/hub-contract.ts";
import {
  BROWSER_REQUEST_BURST,
  BROWSER_REQUESTS_PER_SECOND,
  browserRequestSchema,
  REQUEST_ID_MAX_LENGTH,
  type RealtimeMessage,
} from "../../common/realtime-protocol.ts";
import type { Browsers } from "./browsers.ts";
import type { PersonSwitch } from "./person-switch.ts";
import { NOT_ALLOWED } from "./pump-model.ts";
import { Room } from "./room.ts";
import { FrameBudget } from "./socket-caps.ts";
import type { BrowserAttachment } from "./sockets.ts";

type CommandResult = Extract<RealtimeMessage, { type: "commandResult" }>;

/** The id of a frame that claims to be a request, if it has one we can answer to; else null. */
function requestIdOf(json: unknown): string | null {
  if (typeof json !== "object" || json === null || !("requestId" in json)) return null;
  const { requestId } = json;
  return typeof requestId === "string" && requestId.length > 0 && requestId.length <= REQUEST_ID_MAX_LENGTH
    ? requestId
    : null;
}

export class BrowserRequests extends Room<{ browsers: Browsers; person: PersonSwitch }> {
  /**
   * Each socket's request allowance. In memory only: a hub woken from hibernation gets new
   * socket objects, and with them full allowances, which is what an idle page deserves.
   */
  readonly #budgets = new WeakMap<WebSocket, FrameBudget>();

  /** A frame from a page: a request is answered; anything else (a frame of no request) is ignored. */
  async onFrame(ws: WebSocket, viewer: BrowserAttachment, frame: string | ArrayBuffer): Promise<void> {
    if (!this.rooms.browsers.frameFits(ws, frame) || typeof frame !== "string") return;
    const { meter, stats } = this.hub;
    meter.begin();
    try {
      await this.#request(ws, viewer, frame);
    } finally {
      const cost = meter.end();
      if (cost) stats.recordCommand(cost);
    }
  }

  async #request(ws: WebSocket, viewer: BrowserAttachment, frame: string): Promise<void> {
    const { meter } = this.hub;
    let json: unknown;
    try {
      json = JSON.parse(frame);
    } catch {
      return meter.cancel();
    }
    const requestId = requestIdOf(json);
    if (requestId === null) return meter.cancel();
    if (!this.#allow(ws)) {
      this.hub.sockets.close(ws, DEVICE_CLOSE.tooManyFrames, "Too many requests");
      return meter.cancel();
    }
    // The session may have run out a moment before its timer closes the socket: it asks nothing.
    if (viewer.sessionExpiresAt <= Date.now()) {
      this.rooms.browsers.closeExpiredSessions(Date.now());
      return meter.cancel();
    }
    const parsed = browserRequestSchema.safeParse(json);
    meter.step("parse");
    if (!parsed.success) {
      this.#answer(ws, { type: "commandResult", requestId, result: { ok: false, code: "invalidRequest" } });
      return;
    }
    const request = parsed.data;
    switch (request.type) {
      case "switchMotor": {
        const person = await this.rooms.person.personOfSocket(viewer);
        // Reading the person may have waited on D1, and the session may have ended meanwhile:
        // a socket the hub closed switches nothing, whatever it asked before the close.
        if (!this.hub.sockets.isLive(ws)) return;
        const result = person ? await this.rooms.person.handleSwitchRequest(person, request.action) : NOT_ALLOWED;
        this.#answer(ws, { type: "commandResult", requestId, result });
        meter.step("answer");
        return;
      }
      default: {
        const unreachable: never = request.type;
        return unreachable;
      }
    }
  }

  #allow(ws: WebSocket): boolean {
    let budget = this.#budgets.get(ws);
    if (!budget) {
      budget = new FrameBudget(BROWSER_REQUEST_BURST, BROWSER_REQUESTS_PER_SECOND);
      this.#budgets.set(ws, budget);
    }
    return budget.take();
  }

  /** To the asking socket only, if it is still open (a page that left gets its state on return). */
  #answer(ws: WebSocket, message: CommandResult): void {
    if (this.hub.sockets.isLive(ws)) this.hub.sockets.sendToBrowser(ws, message);
  }
}
