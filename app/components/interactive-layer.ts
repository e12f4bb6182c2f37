import { useSyncExternalStore } from "react";

/*
 * When a chart's or a map's interactive layer (chart.js, Leaflet) is attached to the server's
 * drawing (docs/decisions/2026-12-03-charts-interactive-layer.md and its addenda): on the first
 * pointer, touch, key or focus in the figure, and only then. The server's SVG is the whole chart
 * or map until someone reaches for it; attaching a figure merely because it scrolled into view put
 * chart.js' drawing and Leaflet's hundreds of paths into the seconds after the page appeared on a
 * phone (Lighthouse's Total Blocking Time on /dashboard and the Map View, issue 60), where a tap on
 * a range button or a menu waited for it. A figure nobody touches loads nothing.
 */

const TOUCH_EVENTS = ["pointerdown", "pointerover", "focusin", "touchstart", "keydown"] as const;

/** Calls `attach` once, on the first touch, pointer or focus in `el`. Returns a function that cancels it. */
export function attachWhenWanted(el: HTMLElement, attach: () => void): () => void {
  let done = false;
  const stop = () => {
    done = true;
    for (const name of TOUCH_EVENTS) el.removeEventListener(name, now);
  };
  function now() {
    if (done) return;
    stop();
    attach();
  }
  for (const name of TOUCH_EVENTS) el.addEventListener(name, now, { passive: true });
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
