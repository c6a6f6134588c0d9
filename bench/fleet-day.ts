import { DatabaseSync } from "node:sqlite";
import type WebSocket from "ws";
import { IST_OFFSET_MS } from "../common/schedule-time.ts";
import type { SimulatedDevice } from "../device-sim/simulated-device.ts";
import { executeLocalSql } from "../scripts/lib/local-d1.ts";
import { localD1File } from "../scripts/lib/local-d1-file.ts";
import { hubLogsSince } from "../scripts/lib/local-hubs.ts";
import { benchAdminToken, type Fleet, logInFarmers, openPageSocket, startFleet } from "./fleet.ts";
import { percentile, round } from "./lib.ts";

export type FleetDayOptions = {
  boxes: number;
  /** Share of the fleet on the feeder that is cut before its power window and returns at once. */
  feederShare: number;
  /** Share of the clock-scheduled boxes whose supply is cut while their motor runs. */
  cutShare: number;
  /** Share of farmers who open the page during the day (each for 20–60 s). */
  watcherShare: number;
  /** The power windows' random delay (0–120 s); off, the behaviour check need not wait it out. */
  randomDelay: boolean;
  /** Wait for every run to end by itself (its stop logged); off, the day ends once the feeder's motors run. */
  waitForStops: boolean;
  /** "build": the production build (the bench); "api": no build (the behaviour check in npm test). */
  kind: "build" | "api";
  /** A migrated database to start from (the tests' copy); default: a fresh one. */
  persistTo?: string;
  log: (line: string) => void;
};

/** Rows written (inserted, changed or deleted) and bytes added, by table, over the day. */
export type TableCost = { table: string; rowsWritten: number; bytesAdded: number };

export type FleetDayReport = {
  boxes: number;
  feederBoxes: number;
  tables: TableCost[];
  /** The boxes' motor logs, in their hubs' SQLite: entries written over the day and their bytes. */
  hubLog: { rowsWritten: number; bytesAdded: number };
  /** Rows added to D1 per second: the peak in the schedule minute and after the feeder's return. */
  peakRowsPerSecond: { scheduleMinute: number; feederReturn: number };
  /** Every hub's D1 statements, summed, and the peak per second seen in rows added. */
  hubD1Queries: number;
  /** Frames the boxes sent that a hub handled (heartbeats excluded: the runtime answers them). */
  deviceFramesHandled: number;
  /** Frames to and from the boxes, and to the watchers' pages (which send none). */
  socketMessages: { boxSent: number; boxReceived: number; pageReceived: number };
  /** Requests the Worker passed to a hub for the day's traffic (schedules saved, pages opened). */
  apiCallsToHubs: number;
  /** Seconds in which a box's socket carried a frame either way, per box: an upper bound of its hub's busy seconds. */
  hubBusySecondsPerBox: number;
  motorStarts: number;
  /** Seconds from the feeder's return to each of its motors' start. */
  feederStarts: number[];
  feederStartsPerSecondPeak: number;
  alertsRaised: number;
  /** Power-back alerts: each an SMS to a verified number by default (the local Worker has no provider, so none is sent). */
  powerBackAlerts: number;
  /** SMS and calls the day's alerts claimed, as the hubs keep them (D1 keeps per-account counts only). */
  smsAndCalls: number;
  /** D1's bytes per box before the day: accounts, boxes, sessions, with their indexes. */
  baseBytesPerBox: number;
  /** The API's answers (ms) during each burst. */
  apiDuringBursts: { scheduleMinute: number[]; feederReturn: number[] };
  /** Which call was the slowest in each burst: a status (which may ask the box) or a log page (which flushes the hub's outbox first). */
  slowestCall: { scheduleMinute: ApiCall | null; feederReturn: ApiCall | null };
  apiErrors: number;
  simulatedSeconds: number;
};

type ApiCall = { call: "status" | "logs"; ms: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The next IST minute at least `marginMs` away: its instant and its "HH:MM". */
function nextIstMinute(marginMs: number, plusMinutes = 0): { at: number; clock: string } {
  const at = Math.ceil((Date.now() + marginMs) / 60_000) * 60_000 + plusMinutes * 60_000;
  const minuteOfDay = Math.floor((at + IST_OFFSET_MS) / 60_000) % 1440;
  const clock = `${String(Math.floor(minuteOfDay / 60)).padStart(2, "0")}:${String(minuteOfDay % 60).padStart(2, "0")}`;
  return { at, clock };
}

/** Each table's rows as rowid → their content, and each table's bytes (with its indexes) from `dbstat`. */
function snapshotD1(file: string) {
  // The runtime writes the file meanwhile: wait for its lock rather than fail.
  const db = new DatabaseSync(file, { readOnly: true, timeout: 10_000 });
  try {
    const tables = (
      db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
        )
        .all() as { name: string }[]
    ).map((row) => row.name);
    const rows = new Map<string, Map<number, string>>();
    for (const table of tables) {
      const contents = new Map<number, string>();
      for (const row of db.prepare(`SELECT rowid AS _rowid, * FROM "${table}"`).all() as Record<string, unknown>[]) {
        const { _rowid, ...columns } = row;
        contents.set(Number(_rowid), JSON.stringify(columns));
      }
      rows.set(table, contents);
    }
    const indexOwner = new Map(
      (
        db.prepare("SELECT name, tbl_name FROM sqlite_schema WHERE type IN ('table', 'index')").all() as {
          name: string;
          tbl_name: string;
        }[]
      ).map((row) => [row.name, row.tbl_name]),
    );
    const bytes = new Map<string, number>();
    for (const { name, size } of db.prepare("SELECT name, sum(pgsize) AS size FROM dbstat GROUP BY name").all() as {
      name: string;
      size: number;
    }[]) {
      const table = indexOwner.get(name) ?? name;
      bytes.set(table, (bytes.get(table) ?? 0) + size);
    }
    // Payload bytes too: pages are allocated in 4 KB steps, too coarse for a few hundred rows.
    const payload = new Map<string, number>();
    for (const [table, contents] of rows) {
      let total = 0;
      for (const json of contents.values()) total += json.length;
      payload.set(table, total);
    }
    return { rows, bytes, payload };
  } finally {
    db.close();
  }
}

function tableCosts(before: ReturnType<typeof snapshotD1>, after: ReturnType<typeof snapshotD1>): TableCost[] {
  const costs: TableCost[] = [];
  for (const [table, rowsAfter] of after.rows) {
    const rowsBefore = before.rows.get(table) ?? new Map<number, string>();
    let written = 0;
    for (const [rowid, content] of rowsAfter) if (rowsBefore.get(rowid) !== content) written += 1;
    for (const rowid of rowsBefore.keys()) if (!rowsAfter.has(rowid)) written += 1;
    const bytesAdded = Math.max(
      (after.bytes.get(table) ?? 0) - (before.bytes.get(table) ?? 0),
      (after.payload.get(table) ?? 0) - (before.payload.get(table) ?? 0),
    );
    if (written > 0 || bytesAdded > 0) costs.push({ table, rowsWritten: written, bytesAdded });
  }
  return costs.sort((a, b) => b.rowsWritten - a.rowsWritten);
}

/** Rows in the tables that grow with events, polled: rows added per second; null while the runtime holds the file's lock. */
function countGrowingRows(file: string): number | null {
  const db = new DatabaseSync(file, { readOnly: true, timeout: 200 });
  try {
    const row = db
      .prepare(
        "SELECT (SELECT count(*) FROM motor_logs) + (SELECT count(*) FROM realtime_watches) + (SELECT count(*) FROM sessions) + (SELECT count(*) FROM box_activity) AS total",
      )
      .get() as { total: number };
    return row.total;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

async function api(fleet: Fleet, path: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${fleet.worker.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Runs the day; stops everything it started, whatever happens. */
export async function runFleetDay(options: FleetDayOptions): Promise<FleetDayReport> {
  const { log } = options;
  log(`starting ${options.boxes} boxes on a local Worker (${options.kind})...`);
  // The hubs copy the dashboard's figures as deployed hubs do, spread over 10 minutes, not at
  // once as local mode does (wrangler.toml, DASHBOARD_COPY_WITHIN_SECONDS).
  const fleet = await startFleet(
    options.boxes,
    {},
    { kind: options.kind, persistTo: options.persistTo, vars: { DASHBOARD_COPY_WITHIN_SECONDS: "600" } },
  );
  const timers: NodeJS.Timeout[] = [];
  const pages: WebSocket[] = [];
  try {
    const file = localD1File(fleet.worker.persistTo);
    // Verified numbers, so alerts go by SMS and call as they would for a real farmer.
    await executeLocalSql(
      fleet.worker.persistTo,
      `UPDATE users SET number_verified_at = ${Date.now()} WHERE number_verified_at IS NULL;`,
    );
    log("signing the farmers in...");
    const tokens = await logInFarmers(fleet.worker, fleet.mobileNos);
    const count = fleet.devices.length;
    const feeder = new Set(Array.from({ length: Math.round(count * options.feederShare) }, (_, index) => index));
    const clockBoxes = [...Array(count).keys()].filter((index) => !feeder.has(index));

    // Schedules are saved before the day's clock starts; the minute is far enough to save them all.
    const minute = nextIstMinute(15_000 + count * 60);
    const windowEnd = nextIstMinute(15_000 + count * 60, 30);
    log(`the common minute is ${minute.clock} IST (${Math.round((minute.at - Date.now()) / 1000)} s away)`);
    let apiErrors = 0;
    const saveSchedule = async (index: number) => {
      const body = feeder.has(index)
        ? {
            type: "window",
            from: minute.clock,
            to: windowEnd.clock,
            runMinutes: 2,
            repeat: "once",
            randomDelay: options.randomDelay,
            resume: true,
            autoStart: true,
          }
        : { time: minute.clock, action: "on", repeat: "once", durationMinutes: 1 };
      const response = await api(fleet, "/api/schedule", tokens[index]!, body);
      if (response.status !== 201) {
        apiErrors += 1;
        log(`schedule of box ${index}: ${response.status} ${await response.text()}`);
      } else await response.arrayBuffer();
    };
    for (let first = 0; first < count; first += 20) {
      await Promise.all([...Array(Math.min(20, count - first)).keys()].map((offset) => saveSchedule(first + offset)));
    }
    // The feeder goes before its window opens.
    for (const index of feeder) fleet.devices[index]!.inject("powerCut");
    await sleep(2_000);

    const adminToken = await benchAdminToken(fleet.worker);
    const statsBefore = await hubCounters(fleet, adminToken);
    const framesBefore = fleet.devices.map((device) => ({ ...device.counters }));
    const before = snapshotD1(file);
    const dayStarted = Date.now();

    // Starts, as the boxes see them (their relay closing).
    const startedAt = new Map<number, number>();
    let motorStarts = 0;
    fleet.devices.forEach((device: SimulatedDevice, index) => {
      device.on("switched", (relay: string) => {
        if (relay !== "on") return;
        motorStarts += 1;
        if (!startedAt.has(index)) startedAt.set(index, Date.now());
      });
    });

    // The seconds in which a box's socket carried a frame either way: its hub worked in them (a
    // hibernatable hub is billed only while it works, not in the 10 s before it hibernates).
    const activeSeconds = fleet.devices.map(() => new Set<number>());
    let lastCounts = fleet.devices.map((device) => device.counters.framesSent + device.counters.framesReceived);
    timers.push(
      setInterval(() => {
        const second = Math.floor(Date.now() / 1000);
        fleet.devices.forEach((device, index) => {
          const now = device.counters.framesSent + device.counters.framesReceived;
          if (now !== lastCounts[index]) activeSeconds[index]!.add(second);
        });
        lastCounts = fleet.devices.map((device) => device.counters.framesSent + device.counters.framesReceived);
      }, 1_000),
    );

    // Rows added per second.
    const rowSamples: { at: number; rows: number }[] = [];
    timers.push(
      setInterval(() => {
        const rows = countGrowingRows(file);
        if (rows !== null) rowSamples.push({ at: Date.now(), rows });
      }, 250),
    );

    // Farmers opening and closing the page, at random through the day.
    const page = { received: 0 };
    let apiCallsToHubs = 0;
    const watchers = [...Array(count).keys()].filter(() => Math.random() < options.watcherShare);
    const dayLengthMs = minute.at - Date.now() + 150_000;
    for (const index of watchers) {
      const opensIn = Math.random() * Math.max(0, dayLengthMs - 60_000);
      timers.push(
        setTimeout(() => {
          const socket = openPageSocket(fleet.worker.port, fleet.mobileNos[index]!, tokens[index]!);
          apiCallsToHubs += 1;
          pages.push(socket);
          socket.on("message", () => (page.received += 1));
          socket.on("error", () => (apiErrors += 1));
          timers.push(setTimeout(() => socket.close(), 20_000 + Math.random() * 40_000));
        }, opensIn),
      );
    }

    // The API during the bursts: a farmer's status or log page every 100 ms (a probe: not counted
    // as the fleet's traffic).
    const apiTimes: (ApiCall & { at: number })[] = [];
    let measuringApi = false;
    let stopped = false;
    const apiLoop = (async () => {
      while (!stopped) {
        if (!measuringApi) {
          await sleep(100);
          continue;
        }
        const index = Math.floor(Math.random() * count);
        const call = Math.random() < 0.5 ? "status" : "logs";
        const path =
          call === "status"
            ? `/api/devices/motor/status/${fleet.mobileNos[index]}`
            : `/api/logs/motor/${fleet.mobileNos[index]}?limit=20`;
        const started = performance.now();
        try {
          const response = await api(fleet, path, tokens[index]!);
          await response.arrayBuffer();
          if (!response.ok) apiErrors += 1;
        } catch {
          apiErrors += 1;
        }
        const took = performance.now() - started;
        apiTimes.push({ at: Date.now(), ms: took, call });
        await sleep(Math.max(0, 100 - took));
      }
    })();

    // The schedule minute: every clock schedule fires; the feeder's windows open without supply.
    await sleep(Math.max(0, minute.at - Date.now() - 5_000));
    measuringApi = true;
    const minuteStart = Date.now();
    // Some running motors lose their supply mid-run; it comes back 20 s later.
    const cut = clockBoxes.filter(() => Math.random() < options.cutShare);
    await sleep(cut.length > 0 ? 30_000 : 10_000);
    for (const index of cut) fleet.devices[index]!.inject("powerCut");
    if (cut.length > 0) await sleep(20_000);
    for (const index of cut) fleet.devices[index]!.inject("powerRestore");
    const minuteEnd = Date.now();
    measuringApi = false;

    // The feeder's return: every box on it in the same second.
    await sleep(5_000);
    measuringApi = true;
    const returnedAt = Date.now();
    for (const index of feeder) fleet.devices[index]!.inject("powerRestore");
    // The hub's random delay is 0–120 s: wait it out, and for the starts to reach D1.
    const deadline = returnedAt + 135_000;
    while (Date.now() < deadline && [...feeder].some((index) => !startedAt.has(index))) await sleep(500);
    await sleep(3_000);
    const returnEnd = Date.now();
    measuringApi = false;
    // The feeder's runs are 2 minutes, the clock runs 1: let them stop by themselves.
    if (options.waitForStops) {
      await sleep(
        Math.max(0, Math.max(...[...feeder].map((index) => startedAt.get(index) ?? 0)) + 125_000 - Date.now()),
      );
      await sleep(5_000);
    }
    stopped = true;
    await apiLoop;
    for (const timer of timers) clearTimeout(timer);
    for (const socket of pages) socket.close();
    await sleep(1_000);

    const after = snapshotD1(file);
    const statsAfter = await hubCounters(fleet, adminToken);
    const simulatedSeconds = (Date.now() - dayStarted) / 1000;
    const peak = (from: number, to: number) => {
      let most = 0;
      for (const sample of rowSamples) {
        if (sample.at < from || sample.at > to) continue;
        const aSecondLater = rowSamples.find((later) => later.at >= sample.at + 1_000);
        if (aSecondLater) most = Math.max(most, aSecondLater.rows - sample.rows);
      }
      return most;
    };
    const feederStarts = [...feeder]
      .map((index) => startedAt.get(index))
      .filter((at): at is number => at !== undefined)
      .map((at) => (at - returnedAt) / 1000)
      .sort((a, b) => a - b);
    const perSecond = new Map<number, number>();
    for (const seconds of feederStarts)
      perSecond.set(Math.floor(seconds), (perSecond.get(Math.floor(seconds)) ?? 0) + 1);
    const hubLogs = hubLogsSince(fleet.worker.persistTo, dayStarted);
    const kindCount = (...kinds: string[]) => kinds.reduce((sum, kind) => sum + (hubLogs.kinds.get(kind) ?? 0), 0);
    const alerts = {
      raised: kindCount(
        "powerLost",
        "powerRestored",
        "tripDryRun",
        "tripOverCurrent",
        "phaseFault",
        "tripUnderVoltage",
        "tripOverVoltage",
        "tripVoltageUnbalance",
        "scheduleMissed",
        "cableCut",
        "tamper",
      ),
      powerBack: kindCount("powerRestored"),
    };
    const framesAfter = fleet.devices.map((device) => ({ ...device.counters }));
    const inMinute = apiTimes.filter(({ at }) => at >= minuteStart && at <= minuteEnd + 5_000);
    const afterReturn = apiTimes.filter(({ at }) => at >= returnedAt);
    const slowestOf = (calls: ApiCall[]): ApiCall | null =>
      calls.reduce<ApiCall | null>(
        (worst, entry) => (!worst || entry.ms > worst.ms ? { call: entry.call, ms: entry.ms } : worst),
        null,
      );
    const sum = (pick: (index: number) => number) =>
      [...Array(count).keys()].reduce((total, index) => total + pick(index), 0);
    return {
      boxes: count,
      feederBoxes: feeder.size,
      tables: tableCosts(before, after),
      hubLog: { rowsWritten: hubLogs.rows, bytesAdded: hubLogs.bytes },
      peakRowsPerSecond: { scheduleMinute: peak(minuteStart, minuteEnd), feederReturn: peak(returnedAt, returnEnd) },
      hubD1Queries: statsAfter.d1Queries - statsBefore.d1Queries,
      deviceFramesHandled: statsAfter.deviceFrames - statsBefore.deviceFrames,
      socketMessages: {
        boxSent: sum((index) => framesAfter[index]!.framesSent - framesBefore[index]!.framesSent),
        boxReceived: sum((index) => framesAfter[index]!.framesReceived - framesBefore[index]!.framesReceived),
        pageReceived: page.received,
      },
      // Each schedule saved went to its hub.
      apiCallsToHubs: apiCallsToHubs + count,
      hubBusySecondsPerBox: sum((index) => activeSeconds[index]!.size) / count,
      motorStarts,
      feederStarts,
      feederStartsPerSecondPeak: Math.max(0, ...perSecond.values()),
      alertsRaised: alerts?.raised ?? 0,
      powerBackAlerts: alerts?.powerBack ?? 0,
      smsAndCalls: hubLogs.alertDeliveries,
      baseBytesPerBox: [...before.bytes.values()].reduce((total, bytes) => total + bytes, 0) / count,
      apiDuringBursts: {
        scheduleMinute: inMinute.map(({ ms }) => ms),
        feederReturn: afterReturn.map(({ ms }) => ms),
      },
      slowestCall: { scheduleMinute: slowestOf(inMinute), feederReturn: slowestOf(afterReturn) },
      apiErrors,
      simulatedSeconds,
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const socket of pages) socket.terminate();
    await fleet.stop();
  }
}

/** Every hub's counters summed, read straight from the admin API. */
async function hubCounters(fleet: Fleet, token: string): Promise<{ d1Queries: number; deviceFrames: number }> {
  let d1Queries = 0;
  let deviceFrames = 0;
  for (let first = 0; first < fleet.credentials.length; first += 25) {
    const stats = await Promise.all(
      fleet.credentials.slice(first, first + 25).map(async ({ deviceId }) => {
        const response = await api(fleet, `/api/admin/devices/${deviceId}/hub-stats`, token);
        return ((await response.json()) as { stats: { d1Queries: number; deviceFrames: number } }).stats;
      }),
    );
    for (const entry of stats) {
      d1Queries += entry.d1Queries;
      deviceFrames += entry.deviceFrames;
    }
  }
  return { d1Queries, deviceFrames };
}

/** The slowest and p99 of a list of answers, in ms. */
export function slowest(times: number[]): { p50: number; p99: number; max: number } {
  return {
    p50: round(percentile(times, 50)),
    p99: round(percentile(times, 99)),
    max: round(Math.max(0, ...times)),
  };
}
