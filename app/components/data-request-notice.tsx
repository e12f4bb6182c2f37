import { useEffect, useRef, useSyncExternalStore } from "react";
import { hasFailedRequests, retryFailedRequests, subscribeFailedRequests } from "../lib/data-retry.ts";

import { FETCH_FAILED } from "../lib/messages.ts";

export { FETCH_FAILED };

/**
 * While a data request of the router failed on the network and waits (app/lib/data-retry.ts):
 * spec 1 §8's message where the page's content starts, kept in view as the page scrolls, with
 * Retry. The page stays as it was. After Retry the focus goes back to what the user pressed (a
 * Refresh, a link), else to the main region: never <body>. Nothing without JavaScript (the
 * browser then shows its own error page for a request that fails).
 */
export function DataRequestNotice() {
  const failed = useSyncExternalStore(subscribeFailedRequests, hasFailedRequests, () => false);
  // What had the focus when the request failed (the control that sent it).
  const trigger = useRef<Element | null>(null);
  useEffect(() => {
    if (failed && !trigger.current) trigger.current = document.activeElement;
  }, [failed]);
  if (!failed) return null;
  const retry = () => {
    const back = trigger.current;
    trigger.current = null;
    retryFailedRequests();
    if (back instanceof HTMLElement && back.isConnected && back !== document.body && back.checkVisibility()) back.focus();
    else document.getElementById("main")?.focus({ preventScroll: true });
  };
  return (
    <div role="alert" className="alert alert-error sticky top-18 z-20 shadow-md" data-testid="data-request-failed">
      <span>{FETCH_FAILED}</span>
      <button type="button" className="btn btn-sm" onClick={retry}>
        Retry
      </button>
    </div>
  );
}
