// A push service for the tests: an HTTPS server on loopback that takes RFC 8030 push messages
// as Google's or Mozilla's would, checks the VAPID signature (RFC 8292) and decrypts each
// payload (RFC 8291, aes128gcm) with the private key of the subscription it made. The Worker
// under test trusts its certificate through NODE_EXTRA_CA_CERTS (playwright.config.ts); the
// certificate and key in this folder are for 127.0.0.1 and serve nothing else.
import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  type ECDH,
  randomBytes,
  randomUUID,
  verify,
} from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { PushPayload } from "../../../common/alerts.ts";

export const PUSH_SERVICE_CERT = new URL("./cert.pem", import.meta.url);
const KEY = new URL("./key.pem", import.meta.url);

export type ReceivedPush = {
  payload: PushPayload;
  /** RFC 8030 headers as sent. */
  ttl: number;
  topic: string | null;
  urgency: string | null;
  /** The VAPID claims, after the signature was checked against the key in the header. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
  at: number;
};

export type TestSubscription = { id: string; endpoint: string; keys: { p256dh: string; auth: string } };

type Held = {
  ecdh: ECDH;
  auth: Buffer;
  publicKey: Buffer;
  answer: number;
  received: ReceivedPush[];
  refused: string[];
};

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, decrypted with the browser's keys. */
function decrypt(body: Buffer, held: Held): Buffer {
  const salt = body.subarray(0, 16);
  const keyIdLength = body[20]!;
  const serverPublicKey = body.subarray(21, 21 + keyIdLength);
  const record = body.subarray(21 + keyIdLength);
  const shared = held.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), held.publicKey, serverPublicKey, Buffer.from([1])]);
  const ikm = hmac(hmac(held.auth, shared), keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

/** RFC 8292 §3: `vapid t=<JWT>, k=<public key>`, the JWT signed ES256 with that key. */
function checkVapid(header: string | undefined, audience: string): ReceivedPush["vapid"] {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`no vapid authorization: ${header}`);
  const [, token, publicKey] = match as unknown as [string, string, string];
  const [head, claims, signature] = token.split(".") as [string, string, string];
  const point = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const valid = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!valid) throw new Error("bad vapid signature");
  const parsed = JSON.parse(Buffer.from(claims, "base64url").toString()) as { aud: string; sub: string; exp: number };
  if (parsed.aud !== audience) throw new Error(`vapid audience ${parsed.aud}, expected ${audience}`);
  if (parsed.exp * 1000 < Date.now()) throw new Error("vapid token expired");
  return { ...parsed, publicKey };
}

export class TestPushService {
  private readonly held = new Map<string, Held>();
  private readonly server: Server;
  readonly origin: string;

  private constructor(server: Server, origin: string) {
    this.server = server;
    this.origin = origin;
  }

  static async start(): Promise<TestPushService> {
    const server = createServer({ cert: readFileSync(PUSH_SERVICE_CERT), key: readFileSync(KEY) });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const service = new TestPushService(server, `https://127.0.0.1:${port}`);
    server.on("request", (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const id = /^\/push\/([\w-]+)$/.exec(request.url ?? "")?.[1];
        const held = id ? service.held.get(id) : undefined;
        if (request.method !== "POST" || !held) {
          response.writeHead(404).end();
          return;
        }
        if (held.answer !== 201) {
          response.writeHead(held.answer).end();
          return;
        }
        try {
          if (request.headers["content-encoding"] !== "aes128gcm")
            throw new Error(`content-encoding ${request.headers["content-encoding"]}`);
          const vapid = checkVapid(request.headers.authorization, service.origin);
          const payload = JSON.parse(decrypt(Buffer.concat(chunks), held).toString("utf8")) as PushPayload;
          held.received.push({
            payload,
            ttl: Number(request.headers.ttl),
            topic: (request.headers.topic as string | undefined) ?? null,
            urgency: (request.headers.urgency as string | undefined) ?? null,
            vapid,
            at: Date.now(),
          });
          response.writeHead(201, { Location: `${service.origin}/message/${randomUUID()}` }).end();
        } catch (error) {
          held.refused.push(String(error));
          response.writeHead(400).end();
        }
      });
    });
    return service;
  }

  /** A new browser subscription, as PushManager.subscribe() would give it. */
  subscribe(): TestSubscription {
    const ecdh = createECDH("prime256v1");
    const publicKey = ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = randomUUID();
    this.held.set(id, { ecdh, auth, publicKey, answer: 201, received: [], refused: [] });
    return {
      id,
      endpoint: `${this.origin}/push/${id}`,
      keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") },
    };
  }

  /** From now on, answer this subscription's messages with `status` (404, 410: gone). */
  answerWith(subscription: TestSubscription, status: number): void {
    this.held.get(subscription.id)!.answer = status;
  }

  received(subscription: TestSubscription): ReceivedPush[] {
    const held = this.held.get(subscription.id)!;
    if (held.refused.length > 0) throw new Error(`refused pushes: ${held.refused.join("; ")}`);
    return held.received;
  }

  /** The first message (after `since`) matching `match`, within `timeoutMs`. */
  async waitFor(
    subscription: TestSubscription,
    match: (push: ReceivedPush) => boolean,
    timeoutMs = 20_000,
    since = 0,
  ): Promise<ReceivedPush> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received(subscription).find((push) => push.at >= since && match(push));
      if (found) return found;
      if (Date.now() > deadline) {
        const kinds = this.received(subscription).map((push) => push.payload.kind);
        throw new Error(`no matching push within ${timeoutMs} ms; received: ${kinds.join(", ") || "none"}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
