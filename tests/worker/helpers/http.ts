// The API as a client calls it, inside workerd: requests to the Worker's own fetch, JSON in and
// out with a session's bearer token, and refusals as the API words them.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { type AnswerSchema, readJson } from "../../../common/api-client.ts";
import { apiErrorSchema } from "../../../common/api-responses/refusals.ts";

export const ORIGIN = "http://sinchai.test";

export function api(path: string, init?: RequestInit): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

export function bearer(token?: string): Record<string, string> {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * A JSON request: a string body goes as it is (for malformed JSON), anything else as JSON;
 * without a body (undefined), a bare request.
 */
function sendJson(method: string, path: string, body: unknown, token?: string): Promise<Response> {
  if (body === undefined) return api(path, { method, headers: bearer(token) });
  return api(path, {
    method,
    headers: { "Content-Type": "application/json", ...bearer(token) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function postJson(path: string, body: unknown, token?: string): Promise<Response> {
  return sendJson("POST", path, body, token);
}

export function putJson(path: string, body: unknown, token?: string): Promise<Response> {
  return sendJson("PUT", path, body, token);
}

/** A DELETE; with a body, sent as JSON like postJson's (a string as it is), without one a bare request. */
export function deleteJson(path: string, body: unknown, token?: string): Promise<Response> {
  return sendJson("DELETE", path, body, token);
}

export function getJson(path: string, token?: string): Promise<Response> {
  return api(path, { headers: bearer(token) });
}

/** GETs `path` as `token`, expects 200 and reads the answer with `schema`. */
export async function getOk<Schema extends AnswerSchema>(path: string, token: string, schema: Schema) {
  const response = await getJson(path, token);
  expect(response.status).toBe(200);
  return readJson(response, schema);
}

/**
 * A refusal's whole body as the API sends it (common/api-responses/refusals.ts), for comparing
 * with toEqual or toMatchObject: the words for people, the code and params for programs.
 */
export function refusal(message: unknown, code: string, params: Record<string, unknown> = {}) {
  return { success: false, message, code, params };
}

/** The code of a refusal the API answered (common/api-responses/refusals.ts). */
export async function refusalCode(response: Response): Promise<string | undefined> {
  return (await readJson(response, apiErrorSchema)).code;
}

/** The cookie `name` a response sets, as a browser sends it back (`name=value`). */
export function cookieSetBy(response: Response, name: string): string {
  const set = response.headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  if (!set) throw new Error(`no ${name} cookie set`);
  return set.split(";")[0]!;
}

/** The API refused with `status`, saying `message` (a refusal's whole body: `refusal`). */
export async function expectRefusedSaying(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  expect(await response.json()).toMatchObject({ success: false, message });
}
