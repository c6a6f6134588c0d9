// How admin pages send a write or a reload from a button: the button is busy (disabled) while
// the request runs; a refusal toasts the page's message for it, a request that got no answer
// at all (network down) toasts the page's message for that.
import { useState } from "react";
import type { AdminMessageKey } from "../../../common/i18n/admin-en.ts";
import { useAdminT } from "../../i18n/admin.ts";
import { useToast } from "../toast.tsx";

type Answer = { ok: true; body: unknown } | { ok: false; body: unknown };

export function useBusyRequest() {
  const t = useAdminT();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  async function run<A extends Answer>(
    request: () => Promise<A>,
    messages: { refused: AdminMessageKey; failed: AdminMessageKey },
    onOk: (answer: Extract<A, { ok: true }>) => unknown,
    onRefused?: (answer: Extract<A, { ok: false }>) => unknown,
  ) {
    setBusy(true);
    try {
      const answer = await request();
      if (answer.ok) {
        await onOk(answer as Extract<A, { ok: true }>);
      } else {
        onRefused?.(answer as Extract<A, { ok: false }>);
        toast.show(t(messages.refused), "error");
      }
    } catch {
      toast.show(t(messages.failed), "error");
    } finally {
      setBusy(false);
    }
  }

  return { busy, run };
}
