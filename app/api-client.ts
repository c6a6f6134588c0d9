// The user pages' calls to our own API: same-origin fetch (the HttpOnly session cookie goes
// along), every answer parsed with a zod schema, and a 401 from any call ends the visit on the
// landing page with "Session expired. Please log in again." (SPEC §4, §8).

/** A zod schema of either build (classic or mini): all a call needs is to parse the answer. */
export type AnswerSchema<T> = {
  safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
};

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  /**
   * status 0: no answer at all (network); message: the server's own words, if any; code and
   * params: what the server refused and with which values, when it said (pages word those).
   */
  | { ok: false; status: number; message: string | null; code: string | null; params: Record<string, unknown> };

export const SESSION_EXPIRED_PATH = "/?session=expired";

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
    return { ok: false, status: 0, message: null, code: null, params: {} };
  }
  const json: unknown = await response.json().catch(() => null);
  if (response.status === 401) {
    // A hard navigation: the landing page's loader clears what is left of the session.
    window.location.assign(SESSION_EXPIRED_PATH);
    return { ok: false, status: 401, ...refusalOf(json) };
  }
  if (!response.ok) return { ok: false, status: response.status, ...refusalOf(json) };
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    console.error(`Unexpected answer from ${path}`, parsed.error.issues[0]);
    return { ok: false, status: response.status, message: null, code: null, params: {} };
  }
  return { ok: true, status: response.status, data: parsed.data };
}

function refusalOf(json: unknown): { message: string | null; code: string | null; params: Record<string, unknown> } {
  if (typeof json !== "object" || json === null) return { message: null, code: null, params: {} };
  const body = json as { message?: unknown; code?: unknown; params?: unknown };
  return {
    message: typeof body.message === "string" ? body.message : null,
    code: typeof body.code === "string" ? body.code : null,
    params: typeof body.params === "object" && body.params !== null ? (body.params as Record<string, unknown>) : {},
  };
}
