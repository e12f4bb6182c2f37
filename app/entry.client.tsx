import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/*
 * React Router's default browser entry, with one change: hydration starts after the first paint.
 * The page is server-rendered and works without JavaScript, so the first paint needs nothing from
 * React; where the route modules arrive before the browser has painted (a cached or fast
 * connection), hydrating at once put its whole cost (seconds of script on a phone: Lighthouse's
 * mobile profile, issue 60) in front of the first paint and the largest one. A frame, then a task:
 * the paint happens in between. A page opened hidden (a background tab) gets no frame until shown,
 * so it hydrates at once.
 */
function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

if (document.visibilityState === "hidden") hydrate();
else requestAnimationFrame(() => setTimeout(hydrate, 0));
