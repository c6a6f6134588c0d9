// What both providers' halves of the local provider share: its credentials, what it received, the
// calls in progress, and how it sends webhooks to the Worker (in the background, each awaited by
// `settled()` so tests can wait for the provider to be done).
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { SimCall, SimSms } from "./phone-log.ts";

/** The local account: the same token for both APIs, as local mode's one TELEPHONY_API_TOKEN. */
export type SimCredentials = {
  /** Twilio's Account SID and Exotel's account sid alike. */
  accountSid: string;
  /** Exotel's API key (Basic authorization's user); Twilio's user is the account SID. */
  apiKey: string;
  /** Twilio's Auth Token (also the webhook signing key) and Exotel's API token. */
  apiToken: string;
  /** The secret in the Exotel webhook URLs (TELEPHONY_WEBHOOK_SECRET). */
  webhookSecret: string;
};

/** A call in progress: its public record and what the provider needs to go on with it. */
export type CallState = {
  record: SimCall;
  /** Where its key goes: Twilio's Gather action, or Exotel's Passthru (our keypress URL). */
  keyUrl: string | null;
  statusCallback: string | null;
  /** Status callback events asked for. */
  events: string[];
  /** Exotel's CustomField, given back to each of the flow's requests. */
  customField: string | null;
  answeredAt: number | null;
};

export type SimCore = {
  credentials: SimCredentials;
  /** The Worker, where the webhooks a provider is configured with (not given per request) go. */
  workerOrigin: string;
  /** Our number (TELEPHONY_CALLER_ID), which farmers' SMS and missed calls reach. */
  ourNumber: string;
  /** The stop and start numbers (PHONE_STOP_NUMBER, PHONE_START_NUMBER) that missed calls go to; our number when not given. */
  lineNumbers?: { stop?: string; start?: string };
  sms: SimSms[];
  calls: Map<string, CallState>;
  /** Phones that let calls ring out (10-digit number → the final status their calls get). */
  unanswered: Map<string, "no-answer" | "busy">;
  log: (line: string) => void;
  /** Runs `work` after the current answer, tracked by `settled()`; a failure is logged. */
  play: (work: () => Promise<void>) => void;
};

/** A call that ended: hung up, or never answered. */
export function isOver(call: CallState): boolean {
  return ["completed", "no-answer", "busy"].includes(call.record.status);
}

export function hexId(bytes = 16): string {
  return randomBytes(bytes).toString("hex");
}

/** What the REST halves read of a request besides its path and body (an IncomingMessage has it). */
export type RestRequest = { method?: string | undefined; headers: { authorization?: string | undefined } };

/** What a REST half answers: the status and the JSON body, as the provider would send them. */
export type RestAnswer = { status: number; body: unknown };

/** The user and password of a Basic Authorization header, or null. */
function basicCredentials(request: RestRequest): { user: string; password: string } | null {
  const header = request.headers.authorization ?? "";
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Whether a REST request carries the account's Basic credentials, `user` (the provider's user
 * name) with the API token, and names the account in its path (`pathAccount`, as it came).
 */
export function isAuthorized(core: SimCore, request: RestRequest, user: string, pathAccount: string): boolean {
  const credentials = basicCredentials(request);
  return (
    credentials !== null &&
    credentials.user === user &&
    credentials.password === core.credentials.apiToken &&
    decodeURIComponent(pathAccount) === core.credentials.accountSid
  );
}

/** What a call starts with besides its empty transcript: from the provider's request. */
export type CallStart = Pick<SimCall, "id" | "provider" | "to" | "from" | "status" | "voiceUrl" | "statusCallback"> &
  Pick<CallState, "keyUrl" | "events" | "customField" | "answeredAt">;

/** A new call, nothing said or pressed yet, kept among the provider's calls. */
export function startCall(core: SimCore, start: CallStart): CallState {
  const call: CallState = {
    record: {
      id: start.id,
      provider: start.provider,
      to: start.to,
      from: start.from,
      status: start.status,
      spoken: [],
      pressed: [],
      waitingForKey: false,
      voiceUrl: start.voiceUrl,
      statusCallback: start.statusCallback,
      at: Date.now(),
    },
    keyUrl: start.keyUrl,
    statusCallback: start.statusCallback,
    events: start.events,
    customField: start.customField,
    answeredAt: start.answeredAt,
  };
  core.calls.set(call.record.id, call);
  return call;
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Sends a webhook to the Worker; the answer, or null when the Worker could not be reached. */
export async function sendWebhook(core: SimCore, url: string, init: RequestInit): Promise<Response | null> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
    // 302 is an answer too: Exotel's Passthru applet branches on it.
    if (!response.ok && response.status !== 302)
      core.log(`! the Worker answered ${response.status} to ${new URL(url).pathname}`);
    return response;
  } catch (error) {
    core.log(`! could not reach the Worker at ${url}: ${error instanceof Error ? error.message : error}`);
    return null;
  }
}
