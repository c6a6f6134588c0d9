// The browsers watching a pump (durable-objects/device-hub/browsers.ts and sockets.ts), with
// socket pairs the hub holds and no Worker in front: the caps per viewer and per pump, frame
// sizes in bytes, broadcasts to their audience as the typed message, and sockets closed by
// session, by account and by a change of owner, each with its close code.
import { describe, expect, it } from "vitest";
import { BROWSER_CLOSE } from "../../common/hub-contract.ts";
import {
  BROWSER_SOCKETS_PER_DEVICE,
  BROWSER_SOCKETS_PER_VIEWER,
  MAX_BROWSER_FRAME_BYTES,
} from "../../common/realtime-protocol.ts";
import { browserCaps, frameBytes } from "../../durable-objects/device-hub/browsers.ts";
import type { BrowserAttachment } from "../../durable-objects/device-hub/sockets.ts";
import { openSocket, withRooms } from "./room-support.ts";

function viewer(
  viewerId: number,
  viewerRole: "user" | "admin",
  sessionId: string,
): { tags: string[]; attachment: BrowserAttachment } {
  return {
    tags: ["browser", `viewer:${viewerRole}`, `session:${sessionId}`, `user:${viewerId}`],
    attachment: {
      role: "browser",
      viewerId,
      viewerRole,
      sessionId,
      sessionExpiresAt: Date.now() + 3_600_000,
      openedAt: Date.now(),
    },
  };
}

describe("caps", () => {
  it("a viewer at its cap makes room by closing its own oldest socket, never another viewer's", () => {
    const mine = Array.from({ length: BROWSER_SOCKETS_PER_VIEWER }, (_, index) => ({
      socket: `mine-${index}`,
      viewerId: 7,
      openedAt: 100 - index,
    }));
    const theirs = [{ socket: "theirs", viewerId: 8, openedAt: 1 }];
    const caps = browserCaps([...theirs, ...mine], 7);
    expect(caps.evict).toEqual([`mine-${BROWSER_SOCKETS_PER_VIEWER - 1}`]);
    expect(caps.refuse).toBe(false);
    expect(caps.othersLeft).toBe(BROWSER_SOCKETS_PER_VIEWER);
  });

  it("a pump full of other viewers refuses the next one and closes nobody", () => {
    const others = Array.from({ length: BROWSER_SOCKETS_PER_DEVICE }, (_, index) => ({
      socket: index,
      viewerId: 1_000 + index,
      openedAt: index,
    }));
    expect(browserCaps(others, 7)).toEqual({ evict: [], refuse: true, othersLeft: BROWSER_SOCKETS_PER_DEVICE });
    expect(browserCaps([], 7)).toEqual({ evict: [], refuse: false, othersLeft: 0 });
  });

  it("counts a frame in bytes: Devanagari takes three a letter", () => {
    expect(frameBytes("a".repeat(MAX_BROWSER_FRAME_BYTES))).toBe(MAX_BROWSER_FRAME_BYTES);
    expect(frameBytes("प".repeat(1_400))).toBe(4_200);
    expect(frameBytes(new ArrayBuffer(10))).toBe(10);
  });
});

describe("sends and closes", () => {
  it("a broadcast reaches its audience as the message itself; debug lines reach admins only", async () => {
    const { farmer, admin } = await withRooms(async ({ hub }, state) => {
      const farmer = openSocket(state, viewer(7, "user", "s-farmer").tags, viewer(7, "user", "s-farmer").attachment);
      const admin = openSocket(state, viewer(1, "admin", "s-admin").tags, viewer(1, "admin", "s-admin").attachment);
      hub.sockets.broadcast({ type: "deviceStatusUpdate", deviceStatus: "online" });
      hub.sockets.broadcast({ type: "debugModeUpdate", debug: true }, "admins");
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { farmer: farmer.received, admin: admin.received };
    });
    expect(farmer).toEqual([{ type: "deviceStatusUpdate", deviceStatus: "online" }]);
    expect(admin).toEqual([
      { type: "deviceStatusUpdate", deviceStatus: "online" },
      { type: "debugModeUpdate", debug: true },
    ]);
  });

  it("closes the sockets of ended sessions, of an account, and of everyone who lost the pump, each with its code", async () => {
    const codes = await withRooms(async ({ browsers, hub }, state) => {
      const open = (viewerId: number, role: "user" | "admin", sessionId: string) => {
        const { tags, attachment } = viewer(viewerId, role, sessionId);
        return openSocket(state, tags, attachment);
      };
      const loggedOut = open(7, "user", "s1");
      const otherTab = open(7, "user", "s2");
      const demotedAdmin = open(9, "admin", "s3");
      const previousOwner = open(8, "user", "s4");
      const admin = open(1, "admin", "s5");
      const member = open(10, "user", "s6");
      const removedMember = open(11, "user", "s7");
      expect(browsers.closeViewerSockets({ sessionIds: ["s1"] }, "signedOut")).toBe(1);
      expect(browsers.closeViewerSockets({ userId: 9, viewerRole: "admin" }, "accessRemoved")).toBe(1);
      // The hub's copy of who may use the pump after a relink and a removal: 7 owns it, 10 may watch.
      hub.state.save({ owner: { userId: 7, mobileNo: "9000000007" }, members: [{ userId: 10, role: "viewer" }] });
      browsers.closeWithoutAccess();
      const results = await Promise.all([
        loggedOut.closed,
        demotedAdmin.closed,
        previousOwner.closed,
        removedMember.closed,
      ]);
      const stillOpen = [otherTab, admin, member].map(({ server }) => server.readyState === WebSocket.OPEN);
      return { results: results.map(({ code }) => code), stillOpen };
    });
    expect(codes.results).toEqual([
      BROWSER_CLOSE.signedOut,
      BROWSER_CLOSE.accessRemoved,
      BROWSER_CLOSE.deviceUnlinked,
      BROWSER_CLOSE.deviceUnlinked,
    ]);
    expect(codes.stillOpen).toEqual([true, true, true]);
  });

  it("a session that ran out is closed by the session-expiry timer, and the next one to run out is waited for", async () => {
    const { code, nextDue } = await withRooms(async ({ hub, browsers }, state) => {
      const expired = viewer(7, "user", "old");
      expired.attachment.sessionExpiresAt = Date.now() - 1;
      const later = viewer(7, "user", "new");
      const old = openSocket(state, expired.tags, expired.attachment);
      openSocket(state, later.tags, later.attachment);
      browsers.closeExpiredSessions(Date.now());
      return { code: (await old.closed).code, nextDue: hub.timers.dueAt("session-expiry") };
    });
    expect(code).toBe(BROWSER_CLOSE.sessionExpired);
    expect(nextDue).toBeGreaterThan(Date.now());
  });
});
