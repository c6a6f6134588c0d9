// The one client our programs call the HTTP API with: bench/, scripts/load.ts, the integration
// tests and the e2e support. (The pages have their own, app/api-client.ts: same origin, the
// session cookie, and a 401 ends the visit.) Every answer is parsed with its schema from
// ./api-responses/, strictly: a field the schema does not declare is a broken contract too.
// Runtime-neutral, over fetch: it runs in Node, over Playwright's request context and in
// workerd tests alike (docs/decisions/016-api-contract-and-client.md says why not Hono's `hc`).

import { adminLoginResponseSchema, loginResponseSchema } from "./api-responses/accounts.ts";
import { provisionResponseSchema } from "./api-responses/admin.ts";
import { motorCommandResponseSchema, motorStatusResponseSchema } from "./api-responses/devices.ts";
import { type ApiErrorBody, apiErrorSchema, messageResponseSchema } from "./api-responses/refusals.ts";
import type { DeviceKind, RelayState } from "./device-enums.ts";
import { z } from "./zod-mini.ts";

/** Any zod schema, of either build. */
export type AnswerSchema = z.core.$ZodType;

export type ApiAnswer<T> =
  | { ok: true; status: number; headers: Headers; data: T }
  /** Any status but 2xx: the API's refusal body (every refusal has that one shape). */
  | { ok: false; status: number; headers: Headers; error: ApiErrorBody };

/** An answer that does not match its schema: the Worker and this reader disagree. */
export class ApiContractError extends Error {
  override name = "ApiContractError";
}

/** The API refused a call the caller needed to succeed. */
export class ApiRefusal extends Error {
  override name = "ApiRefusal";
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(call: string, status: number, body: ApiErrorBody) {
    super(`${call} answered ${status} ${body.code}: ${body.message}`);
    this.status = status;
    this.body = body;
  }
}

/** Where `raw` has fields that parsing dropped: what the schema does not declare (`.user.extra`). */
function undeclaredFields(raw: unknown, parsed: unknown, path = ""): string[] {
  if (Array.isArray(raw)) {
    return Array.isArray(parsed)
      ? raw.flatMap((item, index) => undeclaredFields(item, parsed[index], `${path}[${index}]`))
      : [];
  }
  if (typeof raw !== "object" || raw === null || typeof parsed !== "object" || parsed === null) return [];
  const kept = new Map(Object.entries(parsed));
  return Object.entries(raw).flatMap(([key, value]) =>
    kept.has(key)
      ? undeclaredFields(value, kept.get(key), `${path}.${key}`)
      : value === undefined
        ? []
        : [`${path}.${key}`],
  );
}

/** `body` as `schema` reads it; throws ApiContractError when it does not match, or has undeclared fields. */
export function parseAnswer<Schema extends AnswerSchema>(
  schema: Schema,
  body: unknown,
  what = "The answer",
): z.output<Schema> {
  const parsed = z.safeParse(schema, body);
  if (!parsed.success) {
    throw new ApiContractError(
      `${what} does not match its schema:\n${z.prettifyError(parsed.error)}\n${JSON.stringify(body)}`,
    );
  }
  const undeclared = undeclaredFields(body, parsed.data);
  if (undeclared.length > 0) {
    throw new ApiContractError(
      `${what} has fields its schema does not declare: ${undeclared.join(", ")}\n${JSON.stringify(body)}`,
    );
  }
  return parsed.data;
}

/**
 * A response's JSON body, parsed strictly with `schema`, whatever its status: for tests, which
 * look at refusals (`apiErrorSchema`) as closely as at successes. fetch's Response and
 * Playwright's APIResponse alike.
 */
export async function readJson<Schema extends AnswerSchema>(
  response: { json(): Promise<unknown> },
  schema: Schema,
): Promise<z.output<Schema>> {
  return parseAnswer(schema, await response.json());
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** A request as the client sends it: JSON as text, a firmware upload as a form. */
export type OutgoingRequest = { method: Method; headers: Record<string, string>; body?: string | FormData };

/** How a request leaves: fetch by default; the e2e support sends it through Playwright. */
export type Transport = (url: string, request: OutgoingRequest) => Promise<Response>;

export class ApiClient {
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` (SPEC §7); logIn sets it. */
  token: string | null;
  readonly #headers: Record<string, string>;
  readonly #transport: Transport;

  constructor(
    baseUrl: string,
    options: { token?: string | null; headers?: Record<string, string>; transport?: Transport } = {},
  ) {
    this.baseUrl = baseUrl;
    this.token = options.token ?? null;
    this.#headers = options.headers ?? {};
    this.#transport = options.transport ?? ((url, request) => fetch(url, request));
  }

  /**
   * Any call: a 2xx parsed with `schema`, anything else as a refusal; never throws for a
   * status. Throws ApiContractError when the body is not what the contract says (the one
   * answer that is not a refusal when it fails, GET /api/health's 503, is read with readJson).
   */
  async request<Schema extends AnswerSchema>(
    method: Method,
    path: string,
    schema: Schema,
    body?: unknown,
  ): Promise<ApiAnswer<z.output<Schema>>> {
    const request: OutgoingRequest = { method, headers: { ...this.#headers } };
    if (this.token) request.headers.Authorization = `Bearer ${this.token}`;
    if (body instanceof FormData) request.body = body;
    else if (body !== undefined) {
      request.body = JSON.stringify(body);
      request.headers["Content-Type"] = "application/json";
    }
    const response = await this.#transport(`${this.baseUrl}${path}`, request);
    const text = await response.text();
    const what = `${method} ${path} (${response.status})`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ApiContractError(`${what} did not answer JSON: ${text.slice(0, 200)}`);
    }
    const { status, headers } = response;
    return response.ok
      ? { ok: true, status, headers, data: parseAnswer(schema, json, what) }
      : { ok: false, status, headers, error: parseAnswer(apiErrorSchema, json, what) };
  }

  /** A call that must succeed: its data, or an ApiRefusal. */
  async expect<Schema extends AnswerSchema>(
    method: Method,
    path: string,
    schema: Schema,
    body?: unknown,
  ): Promise<z.output<Schema>> {
    const answer = await this.request(method, path, schema, body);
    if (!answer.ok) throw new ApiRefusal(`${method} ${path}`, answer.status, answer.error);
    return answer.data;
  }

  get<Schema extends AnswerSchema>(path: string, schema: Schema): Promise<z.output<Schema>> {
    return this.expect("GET", path, schema);
  }

  post<Schema extends AnswerSchema>(path: string, schema: Schema, body?: unknown): Promise<z.output<Schema>> {
    return this.expect("POST", path, schema, body);
  }

  put<Schema extends AnswerSchema>(path: string, schema: Schema, body?: unknown): Promise<z.output<Schema>> {
    return this.expect("PUT", path, schema, body);
  }

  delete<Schema extends AnswerSchema>(path: string, schema: Schema, body?: unknown): Promise<z.output<Schema>> {
    return this.expect("DELETE", path, schema, body);
  }

  register(mobileNo: string, password: string) {
    return this.post("/api/auth/register", messageResponseSchema, { mobileNo, password });
  }

  /** Signs in to the farmer's area (or the admin's): keeps the token for the calls that follow, and returns it. */
  async logIn(mobileNo: string, password: string, area: "user" | "admin" = "user"): Promise<string> {
    const { token } =
      area === "admin"
        ? await this.post("/api/admin/login", adminLoginResponseSchema, { mobileNo, password })
        : await this.post("/api/auth/login", loginResponseSchema, { mobileNo, password });
    this.token = token;
    return token;
  }

  /** POST /api/devices/motor: the answer, refusals included (the cooldown, an offline box...). */
  switchMotor(action: RelayState) {
    return this.request("POST", "/api/devices/motor", motorCommandResponseSchema, { action });
  }

  motorStatus(mobileNo: string) {
    return this.get(`/api/devices/motor/status/${mobileNo}`, motorStatusResponseSchema);
  }

  /** Admins: a new device with its key (shown this once), for an owner or none. */
  provisionDevice(kind: DeviceKind, ownerMobileNo?: string) {
    return this.post("/api/admin/devices", provisionResponseSchema, { kind, ownerMobileNo });
  }
}
