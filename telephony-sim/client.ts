// The local provider seen from a test or a script, over its HTTP endpoints (local-provider.ts):
// what it received, parsed with its own schemas, and the person's side of a call.
import { z } from "../common/zod.ts";
import { type SimCall, type SimRecords, type SimSms, simCallSchema, simRecordsSchema } from "./phone-log.ts";

export type LocalProviderClient = {
  records: () => Promise<SimRecords>;
  /** The newest SMS to `mobileNo` that `match` accepts, waiting up to `timeoutMs` for it. */
  waitForSms: (mobileNo: string, match?: (sms: SimSms) => boolean, timeoutMs?: number) => Promise<SimSms>;
  /** The newest call to `mobileNo` that `match` accepts, waiting for it likewise. */
  waitForCall: (mobileNo: string, match?: (call: SimCall) => boolean, timeoutMs?: number) => Promise<SimCall>;
  /** The code in the newest SMS to `mobileNo` (its first six-digit number). */
  latestCode: (mobileNo: string) => Promise<string>;
  press: (digits: string, callId?: string) => Promise<void>;
  hangUp: (callId?: string) => Promise<void>;
  /** Whether the phone of `mobileNo` answers calls (one that does not lets them ring out). */
  setAnswering: (mobileNo: string, answers: boolean, status?: "no-answer" | "busy") => Promise<void>;
  /** Plays a farmer's SMS to our number; the Worker's answer status. */
  inboundSms: (from: string, text: string) => Promise<number | null>;
  missedCall: (from: string, line?: "stop" | "start") => Promise<number | null>;
  /** A farmer calls the voice menu: the call as it stands (waiting for a key, or rejected). */
  callMenu: (from: string) => Promise<SimCall>;
  settled: () => Promise<void>;
};

const workerStatusSchema = z.object({ workerStatus: z.number().nullable() });

export function localProviderClient(baseUrl: string): LocalProviderClient {
  async function post(path: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer: unknown = await response.json();
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
    return answer;
  }
  async function records(): Promise<SimRecords> {
    const response = await fetch(`${baseUrl}/__messages`);
    return simRecordsSchema.parse(await response.json());
  }
  async function waitFor<T>(find: (records: SimRecords) => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find(await records());
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`The local provider got no ${what} within ${timeoutMs} ms.`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const client: LocalProviderClient = {
    records,
    waitForSms: (mobileNo, match = () => true, timeoutMs = 10_000) =>
      waitFor((all) => all.sms.findLast((sms) => sms.to === mobileNo && match(sms)), `SMS to ${mobileNo}`, timeoutMs),
    waitForCall: (mobileNo, match = () => true, timeoutMs = 10_000) =>
      waitFor(
        (all) => all.calls.findLast((call) => call.to === mobileNo && match(call)),
        `call to ${mobileNo}`,
        timeoutMs,
      ),
    latestCode: async (mobileNo) => {
      const sms = await client.waitForSms(mobileNo, (candidate) => /\b[0-9]{6}\b/.test(candidate.text));
      return /\b([0-9]{6})\b/.exec(sms.text)![1]!;
    },
    press: async (digits, callId) => void (await post("/__press", { digits, callId })),
    hangUp: async (callId) => void (await post("/__hang-up", { callId })),
    setAnswering: async (mobileNo, answers, status) => void (await post("/__phone", { mobileNo, answers, status })),
    inboundSms: async (from, text) =>
      workerStatusSchema.parse(await post("/__inbound-sms", { from, text })).workerStatus,
    missedCall: async (from, line) =>
      workerStatusSchema.parse(await post("/__missed-call", { from, line })).workerStatus,
    callMenu: async (from) => z.object({ call: simCallSchema }).parse(await post("/__call-in", { from })).call,
    settled: async () => void (await post("/__settled", {})),
  };
  return client;
}
