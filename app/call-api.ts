// The pages' calls to our own API: same-origin fetch (the HttpOnly session cookie goes along),
// every answer parsed with its schema from common/api-responses/ (refusals with
// `apiErrorSchema`, through the reader generated from it in app/checks/), and a 401 from any
// call ends the visit on the landing page with "Session
// expired. Please log in again." (SPEC §4, §8). The admin pages call through
// components/admin/use-admin-api.ts, which reads answers here too.
import { apiErrorCheck } from "./checks/generated.ts";

/** A zod schema of either build, or a reader generated from one (app/checks/): all a call needs is to parse the answer. */
export type AnswerSchema<T> = {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
};

/**
 * Why a call did not succeed. message: the server's own words, if any; code and params: what
 * the server refused and with which values, when it said (pages word those).
 */
export type Refusal = { message: string | null; code: string | null; params: Record<string, string | number> };

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  /** status 0: no answer at all (network). */
  | ({ ok: false; status: number } & Refusal);

export const SESSION_EXPIRED_PATH = "/?session=expired";

const NO_WORDS: Refusal = { message: null, code: null, params: {} };

export async function callApi<T>(
  path: string,
  schema: AnswerSchema<T>,
  init: { method?: "GET" | "POST" | "PUT" | "DELETE"; body?: unknown } = {},
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? undefined : { "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, ...NO_WORDS };
  }
  // A hard navigation: the landing page's loader clears what is left of the session.
  if (response.status === 401) window.location.assign(SESSION_EXPIRED_PATH);
  return readAnswer(path, response, schema);
}

/** An answer of our API: a 2xx parsed with `schema`, anything else read as a refusal. */
export async function readAnswer<T>(path: string, response: Response, schema: AnswerSchema<T>): Promise<ApiResult<T>> {
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    // Not our refusal (a proxy's error page, an empty body): the page says it in its own words.
    const refusal = apiErrorCheck.safeParse(json);
    if (!refusal.success) return { ok: false, status: response.status, ...NO_WORDS };
    const { message, code, params } = refusal.data;
    return { ok: false, status: response.status, message, code, params };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected answer from ${path}`, parsed.error.issues[0]);
    return { ok: false, status: response.status, ...NO_WORDS };
  }
  return { ok: true, status: response.status, data: parsed.data };
}
