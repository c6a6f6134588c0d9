// Toasts (SPEC §9: 4 s by default, 2 s for success, 3 s in the admin area).
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";

export type ToastKind = "success" | "error" | "info" | "loading";
type Toast = { id: number; kind: ToastKind; text: string; key?: string };

export const TOAST_DURATION_MS = { default: 4_000, success: 2_000, admin: 3_000 } as const;

type ToastApi = {
  /**
   * Shows a toast. A `key` makes it replace the previous toast with the same key, so a run of
   * progress messages takes one place instead of pushing everything else off the screen.
   */
  show: (text: string, kind?: ToastKind, key?: string) => number;
  dismiss: (id: number) => void;
};

const ToastContext = createContext<ToastApi | null>(null);

/** `area="admin"` gives every toast the admin area's 3 s. A `loading` toast stays until dismissed. */
export function ToastProvider({ children, area = "user" }: { children: ReactNode; area?: "user" | "admin" }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);
  const show = useCallback(
    (text: string, kind: ToastKind = "info", key?: string) => {
      const id = nextId.current++;
      setToasts((current) => [
        ...current.filter((toast) => !key || toast.key !== key).slice(-2),
        { id, kind, text, key },
      ]);
      if (kind !== "loading") {
        const duration =
          area === "admin"
            ? TOAST_DURATION_MS.admin
            : kind === "success"
              ? TOAST_DURATION_MS.success
              : TOAST_DURATION_MS.default;
        setTimeout(() => dismiss(id), duration);
      }
      return id;
    },
    [area, dismiss],
  );
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast ${toast.kind}`}
            role={toast.kind === "error" ? "alert" : "status"}
            data-testid="toast"
          >
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs a ToastProvider above it");
  return api;
}
