// One DeviceHub per controller box, addressed by the box's stable device id. It holds the box's
// WebSocket and the browsers watching it (hibernation API), and is the source of truth for
// relay, presence, protection state, cooldown and the box's motor log (its history lives here,
// not in D1: docs/decisions/045-history-lives-with-its-box.md).
//
// This class keeps only the platform's entry points (fetch, the socket handlers, alarm) and the
// RPC methods the Worker calls, and wires the rooms in device-hub/ that do the work
// (docs/architecture.md, "The hub's rooms").
import { DurableObject } from "cloudflare:workers";
import type { AlertDeliveryStatus } from "../common/alert-channels.ts";
import type { PumpUsage } from "../common/api-responses/usage.ts";
import {
  DEVICE_FRAME_BURST,
  DEVICE_FRAMES_PER_SECOND,
  type DeviceConfig,
  HEARTBEAT_REQUEST,
  HEARTBEAT_RESPONSE,
  type RelayState,
} from "../common/device-protocol.ts";
import {
  type AccessRefresh,
  type AlertDelivery,
  type BrowserCloseReason,
  type DeliveryWebhook,
  type DryRunCheckOutcome,
  type FirmwareOffer,
  HUB_HEADERS,
  type HubFailure,
  type HubSnapshot,
  type HubStats,
  type MotorCommandResult,
  type PersonChannel,
  type PowerSample,
  type PumpPerson,
  type ReadingResult,
  type ScheduleFailure,
  type ScheduleResult,
  type SupplyOutcome,
  type TestRunOutcome,
} from "../common/hub-contract.ts";
import type { HealthData, PowerData } from "../common/realtime-protocol.ts";
import type { ScheduleInput, ScheduleView } from "../common/schedule-schemas.ts";
import type { MotorLogRow } from "../worker/db/schema.ts";
import { runAlarm } from "./device-hub/alarm.ts";
import type { ViewerTarget } from "./device-hub/browsers.ts";
import { openHubContext } from "./device-hub/context.ts";
import type { HubLogPage } from "./device-hub/motor-log.ts";
import type { MotorLogPageQuery } from "./device-hub/motor-log-table.ts";
import { type HubRooms, startRooms } from "./device-hub/rooms.ts";
import { FrameBudget } from "./device-hub/socket-caps.ts";
import type { NeighbourSupply } from "./device-hub/supply-cut.ts";

export class DeviceHub extends DurableObject<Env> {
  private rooms!: HubRooms;
  /**
   * The box's frame allowance. Per hub, not per socket, so reconnecting does not refill it; in
   * memory, so a hub woken from hibernation (the box was quiet) starts with a full one. A field
   * of the object itself: suites about what frames say lift it on a running hub
   * (tests/worker/helpers/hub-state.ts, liftFrameRateCap).
   */
  private deviceFrameBudget = new FrameBudget(DEVICE_FRAME_BURST, DEVICE_FRAMES_PER_SECOND);

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Answered by the runtime itself: a heartbeat never wakes a hibernating hub.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(HEARTBEAT_REQUEST, HEARTBEAT_RESPONSE));
    // No event reaches the hub before its state is loaded and its rooms are wired.
    void ctx.blockConcurrencyWhile(async () => {
      this.rooms = startRooms(openHubContext(ctx, env), {
        take: () => this.deviceFrameBudget.take(),
        grant: (frames) => this.deviceFrameBudget.grant(frames),
      });
    });
  }

  // ---- sockets ---------------------------------------------------------------------------

  /** Only the Worker calls this, after it has authenticated the socket (see worker/api). */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const role = request.headers.get(HUB_HEADERS.socketRole);
    if (role === "device") return this.rooms.link.accept();
    if (role === "browser") return this.rooms.browsers.accept(request);
    return new Response("Unknown socket role", { status: 400 });
  }

  /** Each frame to the room of its socket's role (device-hub/socket-events.ts). */
  override async webSocketMessage(ws: WebSocket, frame: string | ArrayBuffer): Promise<void> {
    await this.rooms.sockets.message(ws, frame);
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    await this.rooms.sockets.closed(ws, code, reason);
  }

  override async webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    await this.rooms.sockets.failed(ws, error);
  }

  // ---- timers: one alarm multiplexed over named, idempotent timers -----------------------

  /** One alarm serves every named timer; what each does is in device-hub/alarm.ts. */
  override async alarm(): Promise<void> {
    await runAlarm(this.rooms, Date.now());
  }

  // ---- RPC from the Worker ---------------------------------------------------------------

  /**
   * A person's tap, from the HTTP API or the dashboard's form, the stop key of an alert's call or a
   * phone's SMS, missed call or voice menu (`via`; `forMinutes`: an ON from a phone that the hub
   * switches off by itself after so long): the same method as a tap on the page's open socket (device-hub/person-switch.ts), with the same checks against the hub's
   * own copy of owner and members; succeeds only when the box confirms (device-hub/commands.ts).
   */
  async commandMotor(
    person: PumpPerson,
    action: RelayState,
    via: PersonChannel = "app",
    forMinutes: number | null = null,
  ): Promise<MotorCommandResult> {
    const { meter, stats } = this.rooms.hub;
    meter.begin();
    try {
      return await this.rooms.person.handleSwitchRequest(person, action, via, forMinutes);
    } finally {
      meter.step("answer");
      const cost = meter.end();
      if (cost) stats.recordCommand(cost);
    }
  }

  /** The pump as it is; its recent log since it became its owner's, or all of it for an admin (`everything`). */
  async getSnapshot(options: { everything?: boolean } = {}): Promise<HubSnapshot> {
    return this.rooms.view.snapshot(options);
  }

  /** Takes new protection settings (already saved in D1 by the Worker) to the box. */
  async updateConfig(changes: Partial<DeviceConfig>): Promise<{ delivered: boolean }> {
    return this.rooms.settings.updateConfig(changes);
  }

  /** Debug mode (admin), on for at most 30 minutes; on needs the box to confirm. */
  async setDebug(debug: boolean): Promise<{ ok: true; delivered: boolean } | HubFailure> {
    return this.rooms.settings.setDebug(debug);
  }

  /** The owner's number changed (already in D1): tell the box, which then restarts. */
  async changeMobileNo(mobileNo: string): Promise<{ ok: true; delivered: boolean } | HubFailure> {
    return this.rooms.settings.changeMobileNo(mobileNo);
  }

  /**
   * A fresh health report: the latest when it is fresh, else the box is asked, at most once a
   * minute per box with power (device-hub/fresh-readings.ts).
   */
  async requestHealth(): Promise<ReadingResult<HealthData>> {
    return this.rooms.readings.health();
  }

  /** Commissioning's first step for installer `installerUserId`: the box's reading of every phase. */
  async commissionSupply(installerUserId: number): Promise<SupplyOutcome> {
    return this.rooms.commissioning.supply(installerUserId);
  }

  /**
   * Commissioning's test run for installer `installerUserId` (device-hub/commissioning.ts): the
   * hub checks D1 itself that the box is in that installer's hands, then the box runs the motor
   * for `seconds` and answers with what it measured.
   */
  async commissionTestRun(installerUserId: number, seconds: number): Promise<TestRunOutcome> {
    return this.rooms.commissioning.testRun(installerUserId, seconds);
  }

  /**
   * Commissioning's dry-run check for installer `installerUserId`, checked as a test run is: the
   * box runs the motor with its own protection until its dry-run protection trips or `seconds`
   * are up, and says which, with the current and the limit it applied.
   */
  async commissionDryRunCheck(installerUserId: number, seconds: number): Promise<DryRunCheckOutcome> {
    return this.rooms.commissioning.dryRunCheck(installerUserId, seconds);
  }

  /**
   * Another box of the same feeder lost its supply at `cutAt` while its motor ran: whether this
   * box has supply since (device-hub/theft.ts). Hub to hub; the Worker never calls it.
   */
  async supplySince(cutAt: number): Promise<NeighbourSupply> {
    return this.rooms.theft.supplySince(cutAt);
  }

  /**
   * Takes down the banner of the trip that stopped the motor (its log entry stays). The Worker
   * has checked that the person may switch the pump.
   */
  async dismissTrip(): Promise<{ dismissed: boolean }> {
    return { dismissed: this.rooms.protection.dismissTrip() };
  }

  /** A fresh power reading, on the same terms as requestHealth. */
  async requestPower(): Promise<ReadingResult<PowerData>> {
    return this.rooms.readings.power();
  }

  /**
   * Answers and does nothing else: the health check's round trip (GET /api/health), made on a
   * hub of its own that no box ever connects to.
   */
  async ping(): Promise<"pong"> {
    return "pong";
  }

  /**
   * One page of the box's motor log, newest first by id (older than `before`, from `since` on),
   * and whether D1 may still hold older entries of it (the move has not reached this box).
   */
  async motorLogPage(query: MotorLogPageQuery): Promise<HubLogPage> {
    return this.rooms.log.page(query);
  }

  /** How many motor log entries the hub holds. */
  async motorLogCount(): Promise<number> {
    return this.rooms.log.count();
  }

  /**
   * The move of D1's log into the hubs (worker/retention/move-logs-to-hubs.ts): rows of this box
   * with their D1 ids, stored before D1 lets them go; `last`: D1 holds no more of them.
   */
  async importMotorLogs(rows: MotorLogRow[], last: boolean): Promise<{ added: number }> {
    return this.rooms.log.importFromD1(rows, last);
  }

  /** Counters for operators and benchmarks: wakes, device frames handled. */
  async hubStats(): Promise<HubStats> {
    return this.rooms.hub.stats.current;
  }

  async powerHistory(limit: number): Promise<PowerSample[]> {
    return this.rooms.power.history(limit);
  }

  /** Run hours, starts and energy of the last `days` IST days (at most 90), today last. */
  /** The last `days` India days of use; from `since` on (the day it falls in whole), when given. */
  async usage(days: number, since: number | null = null): Promise<PumpUsage> {
    return this.rooms.usage.days(days, Date.now(), since);
  }

  /** Offers a firmware image; success here means the box accepted the job. */
  async startOta(offer: FirmwareOffer): Promise<{ ok: true } | HubFailure> {
    return this.rooms.ota.start(offer);
  }

  /**
   * Ownership or membership changed in D1: pick up owner, members and config; close what lost
   * access. Not ok when D1 could not be read: the hub then fails closed and must be asked again.
   */
  async refreshAccess(): Promise<AccessRefresh> {
    return this.rooms.settings.refreshAccess();
  }

  /**
   * Sessions ended or an account lost access (worker/auth/session-sockets.ts): the browser
   * sockets they opened close now, with the reason as a close code. Returns how many closed.
   */
  async closeViewerSockets(target: ViewerTarget, reason: BrowserCloseReason): Promise<number> {
    return this.rooms.browsers.closeViewerSockets(target, reason);
  }

  /** The box's key was rotated: drop its connection so it must come back with the new key. */
  async disconnectDevice(reason: string): Promise<void> {
    return this.rooms.link.disconnect(reason);
  }

  // ---- alerts by SMS and call (the provider's webhooks, worker/alerts/call-webhooks.ts) ----
  // The Worker verified the webhook; the hub checks that the provider's id is the one it was
  // given for the delivery the reference names, so a forged or moved reference finds nothing.

  /** The alert call a key is about, or null when it is not one of this pump's. */
  async alertCall(webhook: DeliveryWebhook): Promise<AlertDelivery | null> {
    return this.rooms.alerts.call(webhook);
  }

  /** What the key did on an alert's call, once; false when it already had an outcome. */
  async alertCallOutcome(id: number, outcome: string): Promise<boolean> {
    return this.rooms.alerts.callOutcome(id, outcome, Date.now());
  }

  /** An alert call's status (and its duration); a call nobody answered sends its SMS. False: not ours. */
  async alertCallStatus(
    webhook: DeliveryWebhook,
    status: AlertDeliveryStatus,
    durationSeconds: number | null,
  ): Promise<boolean> {
    return this.rooms.alerts.callStatus(webhook, status, durationSeconds, Date.now());
  }

  /** An alert SMS's status. False: not ours. */
  async alertSmsStatus(webhook: DeliveryWebhook, status: AlertDeliveryStatus): Promise<boolean> {
    return this.rooms.alerts.smsStatus(webhook, status, Date.now());
  }

  // ---- schedules (the box's, carried out here whether or not a browser is open) ---------
  // The person is checked against the hub's own copy (device-hub/person-schedules.ts).

  async listSchedules(person: PumpPerson): Promise<ScheduleView[]> {
    return this.rooms.personSchedules.list(person);
  }

  async createSchedule(person: PumpPerson, input: ScheduleInput): Promise<ScheduleResult> {
    return this.rooms.personSchedules.create(person, input);
  }

  async updateSchedule(person: PumpPerson, id: number, input: ScheduleInput): Promise<ScheduleResult> {
    return this.rooms.personSchedules.update(person, id, input);
  }

  async deleteSchedule(person: PumpPerson, id: number): Promise<{ ok: true } | ScheduleFailure> {
    return this.rooms.personSchedules.delete(person, id);
  }
}
