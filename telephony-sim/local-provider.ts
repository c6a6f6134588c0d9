// The local telephony provider: one HTTP server on loopback that answers our adapters' REST calls
// as Twilio and as Exotel do (twilio-api.ts, exotel-api.ts), plays the webhooks that follow against
// the Worker, prints every SMS and call, and keeps them. Its own endpoints, for people and tests
// (client.ts):
//   GET  /__messages                       every SMS and call so far (phone-log.ts)
//   POST /__press       {digits, callId?}  a key on a call (the newest one waiting, by default)
//   POST /__hang-up     {callId?}          the person hangs up
//   POST /__inbound-sms {from, text}       a farmer's SMS to our number
//   POST /__missed-call {from, line?}      a farmer's missed call to our stop (or start) number
//   POST /__call-in {from}                 a farmer calls our voice menu number (then /__press)
//   POST /__phone {mobileNo, answers, status?}  whether that phone answers calls (else: no-answer or busy)
//   POST /__settled                        answers once every webhook under way has been sent
// It needs no network and no account: nothing leaves this machine but requests to the Worker.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "../common/zod.ts";
import {
  exotelInboundSms,
  exotelMenuCall,
  exotelMissedCall,
  exotelRest,
  hangUpExotel,
  pressExotel,
} from "./exotel-api.ts";
import { type SimCall, type SimRecords, spacedNumber } from "./phone-log.ts";
import { type CallState, isOver, readBody, type SimCore, type SimCredentials } from "./sim-core.ts";
import { hangUp, pressTwilio, twilioInboundSms, twilioMenuCall, twilioMissedCall, twilioRest } from "./twilio-api.ts";

export type LocalProviderOptions = {
  /** 0 (the default): any free port. */
  port?: number;
  credentials: SimCredentials;
  /** The Worker's origin, where the webhooks configured at the provider (not per request) go. */
  workerOrigin: string;
  /** Our number: where farmers' SMS and missed calls go. */
  ourNumber: string;
  /** The stop and start numbers missed calls go to (our number when not given). */
  lineNumbers?: { stop?: string; start?: string };
  /** Whose webhooks a farmer's SMS and missed call arrive as: the Worker's TELEPHONY_PROVIDER. */
  inboundProvider: "twilio" | "exotel";
  log?: (line: string) => void;
  /** False: the server does not keep Node running by itself (a test harness's, stopped with the process). */
  keepProcessAlive?: boolean;
};

export type LocalProvider = {
  url: string;
  port: number;
  records: () => SimRecords;
  /** Presses `digits` on call `callId`, or on the newest call waiting for a key. */
  press: (digits: string, callId?: string) => Promise<void>;
  hangUp: (callId?: string) => Promise<void>;
  /** Whether the phone of `mobileNo` answers calls; one that does not lets them ring out as `status`. */
  setAnswering: (mobileNo: string, answers: boolean, status?: "no-answer" | "busy") => void;
  inboundSms: (from: string, text: string) => Promise<number | null>;
  missedCall: (from: string, line?: "stop" | "start") => Promise<number | null>;
  /** A farmer calls the voice menu: the call, answered (waiting for a key) or rejected. */
  callMenu: (from: string) => Promise<SimCall>;
  /** Resolves once every webhook under way has been sent and answered. */
  settled: () => Promise<void>;
  stop: () => Promise<void>;
};

const pressSchema = z.object({ digits: z.string().regex(/^[0-9*#]{1,8}$/), callId: z.string().optional() });
const hangUpSchema = z.object({ callId: z.string().optional() });
const inboundSchema = z.object({ from: z.string().regex(/^[1-9][0-9]{9}$/), text: z.string().max(2000) });
const missedSchema = z.object({
  from: z.string().regex(/^[1-9][0-9]{9}$/),
  line: z.enum(["stop", "start"]).optional(),
});
const callInSchema = z.object({ from: z.string().regex(/^[1-9][0-9]{9}$/) });
const phoneSchema = z.object({
  mobileNo: z.string().regex(/^[1-9][0-9]{9}$/),
  answers: z.boolean(),
  status: z.enum(["no-answer", "busy"]).optional(),
});

export async function startLocalProvider(options: LocalProviderOptions): Promise<LocalProvider> {
  const underway = new Set<Promise<void>>();
  const core: SimCore = {
    credentials: options.credentials,
    workerOrigin: options.workerOrigin.replace(/\/$/, ""),
    ourNumber: options.ourNumber,
    lineNumbers: options.lineNumbers,
    sms: [],
    calls: new Map(),
    unanswered: new Map(),
    log: options.log ?? (() => {}),
    play: (work) => {
      const run = (async () => {
        // After the REST answer has gone out, as a provider would.
        await new Promise((resolve) => setImmediate(resolve));
        await work();
      })().catch((error: unknown) => core.log(`! ${error instanceof Error ? error.message : error}`));
      underway.add(run);
      void run.finally(() => underway.delete(run));
    },
  };

  function callFor(callId: string | undefined, waiting: boolean): CallState {
    if (callId !== undefined) {
      const call = core.calls.get(callId);
      if (!call) throw new Error(`No call ${callId}.`);
      return call;
    }
    const candidates = [...core.calls.values()].filter((call) => (waiting ? call.record.waitingForKey : !isOver(call)));
    const call = candidates.at(-1);
    if (!call) throw new Error(waiting ? "No call is waiting for a key." : "No call is in progress.");
    return call;
  }

  const provider: Omit<LocalProvider, "url" | "port" | "stop"> = {
    records: () => ({
      sms: core.sms.map((sms) => ({ ...sms })),
      calls: [...core.calls.values()].map(({ record }) => ({ ...record })),
    }),
    press: async (digits, callId) => {
      const call = callFor(callId, true);
      await (call.record.provider === "twilio" ? pressTwilio(core, call, digits) : pressExotel(core, call, digits));
    },
    hangUp: async (callId) => {
      const call = callFor(callId, false);
      await (call.record.provider === "twilio" ? hangUp(core, call) : hangUpExotel(core, call));
    },
    setAnswering: (mobileNo, answers, status = "no-answer") => {
      if (answers) core.unanswered.delete(mobileNo);
      else core.unanswered.set(mobileNo, status);
      core.log(`Phone ${spacedNumber(mobileNo)} ${answers ? "answers calls" : `lets calls ring out (${status})`}`);
    },
    inboundSms: async (from, text) => {
      const play = options.inboundProvider === "twilio" ? twilioInboundSms : exotelInboundSms;
      return (await play(core, from, text))?.status ?? null;
    },
    missedCall: async (from, line = "stop") => {
      const play = options.inboundProvider === "twilio" ? twilioMissedCall : exotelMissedCall;
      return (await play(core, from, line))?.status ?? null;
    },
    callMenu: async (from) => {
      const play = options.inboundProvider === "twilio" ? twilioMenuCall : exotelMenuCall;
      return { ...(await play(core, from)).record };
    },
    settled: async () => {
      while (underway.size > 0) await Promise.allSettled([...underway]);
    },
  };

  async function control(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    switch (path) {
      case "/__press": {
        const { digits, callId } = pressSchema.parse(body);
        await provider.press(digits, callId);
        return { status: 200, body: { ok: true } };
      }
      case "/__hang-up":
        await provider.hangUp(hangUpSchema.parse(body).callId);
        return { status: 200, body: { ok: true } };
      case "/__inbound-sms": {
        const { from, text } = inboundSchema.parse(body);
        return { status: 200, body: { workerStatus: await provider.inboundSms(from, text) } };
      }
      case "/__missed-call": {
        const { from, line } = missedSchema.parse(body);
        return { status: 200, body: { workerStatus: await provider.missedCall(from, line) } };
      }
      case "/__call-in":
        return { status: 200, body: { call: await provider.callMenu(callInSchema.parse(body).from) } };
      case "/__phone": {
        const { mobileNo, answers, status } = phoneSchema.parse(body);
        provider.setAnswering(mobileNo, answers, status);
        return { status: 200, body: { ok: true } };
      }
      case "/__settled":
        await provider.settled();
        return { status: 200, body: { ok: true } };
      default:
        return { status: 404, body: { error: `No ${path} here.` } };
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const body = await readBody(request);
    let answer: { status: number; body: unknown } | null;
    try {
      if (request.method === "GET" && path === "/__messages") answer = { status: 200, body: provider.records() };
      else if (request.method === "POST" && path.startsWith("/__"))
        answer = await control(path, body ? JSON.parse(body) : {});
      else answer = twilioRest(core, request, path, body) ?? exotelRest(core, request, path, body);
    } catch (error) {
      answer = { status: 409, body: { error: error instanceof Error ? error.message : String(error) } };
    }
    answer ??= { status: 404, body: { error: `The local provider has no ${request.method} ${path}.` } };
    response.writeHead(answer.status, { "Content-Type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(answer.body));
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  if (options.keepProcessAlive === false) server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    ...provider,
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await provider.settled();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
