// How admin pages call the JSON API from the browser: the admin cookie goes along by itself
// (same origin), bodies are JSON unless they are a form, every answer is parsed with its schema
// from common/api-responses/ (app/call-api.ts reads it), and an answer of 401 (session
// ended, role removed) sends the admin to the login page with the spec's message (SPEC §8).
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { type AnswerSchema, type Refusal, readAnswer } from "../../call-api.ts";

/** A success with its parsed body, or a refusal (an unexpected answer is one too, without words). */
export type ApiAnswer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; body: Refusal };

/** Throws only when the request itself failed (network down); every HTTP answer is returned. */
export function useAdminApi() {
  const navigate = useNavigate();
  return useCallback(
    async <T>(
      path: string,
      schema: AnswerSchema<T>,
      init: { method?: string; json?: unknown; form?: FormData } = {},
    ): Promise<ApiAnswer<T>> => {
      const response = await fetch(path, {
        method: init.method ?? "GET",
        headers: init.json === undefined ? {} : { "Content-Type": "application/json" },
        body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
      });
      if (response.status === 401) navigate("/admin/login?session=expired");
      const result = await readAnswer(path, response, schema);
      if (result.ok) return { ok: true, status: result.status, body: result.data };
      const { message, code, params } = result;
      return { ok: false, status: result.status, body: { message, code, params } };
    },
    [navigate],
  );
}
