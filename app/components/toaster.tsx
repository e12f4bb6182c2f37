import { useEffect, useState } from "react";
import type { Toast } from "../lib/toast.server.ts";

const styles: Record<Toast["type"], string> = {
  success: "alert-success",
  warning: "alert-warning",
  error: "alert-error",
  info: "alert-info",
};

/**
 * Toasts rendered by the server from the flash cookie, so they exist without JavaScript.
 * With JavaScript, non-persistent ones fade after 5 s and every one can be dismissed.
 */
export function Toaster({ toasts }: { toasts: Toast[] }) {
  const [hidden, setHidden] = useState<string[]>([]);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    const timers = toasts
      .filter((t) => !t.persistent && t.type !== "error")
      .map((t) => setTimeout(() => setHidden((h) => [...h, t.id]), 5000));
    return () => timers.forEach(clearTimeout);
  }, [toasts]);
  const visible = toasts.filter((t) => !hidden.includes(t.id));
  return (
    <div className="toast toast-top toast-end top-16 z-50 w-full max-w-md sm:w-auto" aria-live="polite" data-testid="toaster">
      {visible.map((t) => (
        <div key={t.id} role={t.type === "error" ? "alert" : "status"} className={`alert ${styles[t.type]} w-full max-w-[calc(100vw-2rem)] whitespace-normal break-words shadow-lg`} data-toast={t.type}>
          <span className="whitespace-pre-line">{t.message}</span>
          {hydrated ? (
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setHidden((h) => [...h, t.id])} aria-label="Dismiss notification">
              ✕
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
