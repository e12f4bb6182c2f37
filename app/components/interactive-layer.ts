import { useSyncExternalStore } from "react";

/*
 * When a chart's or a map's interactive layer (chart.js, Leaflet) is attached to the server's
 * drawing (docs/decisions/2026-12-03-charts-interactive-layer.md): at once when the person first
 * touches, points at or focuses the figure; otherwise once the figure is near the viewport, at the
 * next idle moment, one figure per idle moment, so that page start-up (hydration, the first taps on
 * a range button or a menu) never waits for a chart library. A figure that never comes into view
 * loads nothing.
 */

const TOUCH_EVENTS = ["pointerdown", "pointerover", "focusin", "touchstart", "keydown"] as const;

interface Job {
  done: boolean;
  run: () => void;
}

const queue: Job[] = [];
let scheduled = false;

/** requestIdleCallback where the browser has it (Safari does not): a short timer otherwise. */
function whenIdle(fn: () => void) {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(fn, { timeout: 3000 });
  else window.setTimeout(fn, 50);
}

function pump() {
  if (scheduled || !queue.length) return;
  scheduled = true;
  whenIdle(() => {
    scheduled = false;
    // One job per idle moment: each figure's drawing is a task of its own, not one long task.
    const job = queue.shift();
    job?.run();
    pump();
  });
}

/**
 * Calls `attach` once: on the first touch, pointer or focus in `el`, or at an idle moment once
 * `el` is within a quarter of a screen of the viewport. Returns a function that cancels it.
 */
export function attachWhenWanted(el: HTMLElement, attach: () => void): () => void {
  const job: Job = { done: false, run: () => now() };
  let observer: IntersectionObserver | null = null;
  const stop = () => {
    job.done = true;
    for (const name of TOUCH_EVENTS) el.removeEventListener(name, now);
    observer?.disconnect();
    const at = queue.indexOf(job);
    if (at >= 0) queue.splice(at, 1);
  };
  function now() {
    if (job.done) return;
    stop();
    attach();
  }
  for (const name of TOUCH_EVENTS) el.addEventListener(name, now, { passive: true });
  if (typeof IntersectionObserver === "function") {
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || job.done) return;
        observer?.disconnect();
        queue.push(job);
        pump();
      },
      { rootMargin: "25% 0px" },
    );
    observer.observe(el);
  } else {
    queue.push(job);
    pump();
  }
  return stop;
}

const noSubscribe = () => () => {};
/**
 * false while the server renders and while the browser hydrates (React uses the server's answer
 * then); true for anything the browser renders itself (a client navigation, a later render).
 */
export const useClientRender = () =>
  useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
