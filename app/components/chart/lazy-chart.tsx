import { lazy, type ComponentType } from "react";

/*
 * A screen part that holds a chart (or a dialog, a form) but belongs to a page whose other states
 * must not load its code (the App Services Details tab, a list with no dialog open): lazy in the
 * browser, yet drawn by the server, which loads the module when the page module loads, so the SVG
 * (the open dialog) is in the HTML without JavaScript. In the browser the server's markup stays
 * while the chunk loads (a Suspense boundary being hydrated keeps the server's DOM), then hydrates.
 * Render it inside <Suspense>.
 *
 *   const TopTalkersChart = lazyChart(() => import("./chart.tsx").then((m) => m.TopTalkersChart));
 */
export function lazyChart<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const onServer = typeof document === "undefined";
  let loaded: ComponentType<P> | null = null;
  const factory = () =>
    load().then((component) => {
      loaded = component;
      return { default: component };
    });
  if (onServer) void factory();
  const Lazy = lazy(factory);
  return function LazyChart(props: P) {
    const Loaded = onServer ? loaded : null;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
}
