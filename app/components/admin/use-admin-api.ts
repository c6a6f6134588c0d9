// How admin pages call the JSON API from the browser: the admin cookie goes along by itself
// (same origin), bodies are JSON unless they are a form, and an answer of 401 (session ended,
// role removed) sends the admin to the login page with the spec's message (SPEC §8).
import { useCallback } from "react";
import { useNavigate } from "react-router";

export type ApiAnswer<T> = { ok: boolean; status: number; body: (T & { success?: boolean; message?: string }) | null };

/** Throws only when the request itself failed (network down); every HTTP answer is returned. */
export function useAdminApi() {
  const navigate = useNavigate();
  return useCallback(
    async <T = Record<string, unknown>>(path: string, init: { method?: string; json?: unknown; form?: FormData } = {}): Promise<ApiAnswer<T>> => {
      const response = await fetch(path, {
        method: init.method ?? "GET",
        headers: init.json === undefined ? {} : { "Content-Type": "application/json" },
        body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
      });
      const body = (await response.json().catch(() => null)) as ApiAnswer<T>["body"];
      if (response.status === 401) navigate("/admin/login?session=expired");
      return { ok: response.ok && body?.success !== false, status: response.status, body };
    },
    [navigate],
  );
}
