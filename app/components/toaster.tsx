import { useEffect, useState, useSyncExternalStore } from "react";
import type { Toast } from "../lib/toast.server.ts";
import { useHydrated } from "./hooks.ts";

const styles: Record<Toast["type"], string> = {
  success: "alert-success",
  warning: "alert-warning",
  error: "alert-error",
  info: "alert-info",
};

/*
 * The console's one toast system. Toasts come from the server (the flash cookie, so they exist
 * without JavaScript) or, for what only the browser knows (a copy to the clipboard), from
 * `showToast()`. With JavaScript, non-persistent ones fade after 5 s and every one can be
 * dismissed. On phones they span the width below the top bar (never off-screen); from 640px on
 * they sit top right.
 */

let clientToasts: Toast[] = [];
const listeners = new Set<() => void>();
let seq = 0;
const EMPTY: Toast[] = [];

/** Shows a toast from the browser (after a user action that has no server round trip). */
export function showToast(toast: { type: Toast["type"]; message: string }) {
  clientToasts = [...clientToasts, { ...toast, id: `client-${++seq}` } as Toast];
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function Toaster({ toasts: serverToasts }: { toasts: Toast[] }) {
  const [hidden, setHidden] = useState<string[]>([]);
  const hydrated = useHydrated();
  const local = useSyncExternalStore(
    subscribe,
    () => clientToasts,
    () => EMPTY,
  );
  const toasts = local.length ? [...serverToasts, ...local] : serverToasts;
  useEffect(() => {
    const timers = toasts
      .filter((t) => !t.persistent && t.type !== "error" && !hidden.includes(t.id))
      .map((t) => setTimeout(() => setHidden((h) => [...h, t.id]), 5000));
    return () => timers.forEach(clearTimeout);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverToasts, local]);
  const visible = toasts.filter((t) => !hidden.includes(t.id));
  return (
    <div className="kit-toaster" aria-live="polite" data-testid="toaster">
      {visible.map((t) => (
        <div key={t.id} role={t.type === "error" ? "alert" : "status"} className={`alert ${styles[t.type]} w-full whitespace-normal break-words shadow-lg`} data-toast={t.type}>
          <span className="whitespace-pre-line">{t.message}</span>
          {hydrated ? (
            <button type="button" className="btn btn-ghost btn-sm btn-square" onClick={() => setHidden((h) => [...h, t.id])} aria-label="Dismiss notification">
              ✕
            </button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
