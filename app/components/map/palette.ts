/*
 * The map's colours: CSS variables set per theme in app/app.css (like the chart kit's), so the
 * server's SVG follows a theme switch at once and Leaflet reads them again (readMapPalette).
 * Markers are ≥ 3:1 against land and water in both themes (map.test.ts computes it).
 */

export const MAP_VARS = {
  water: "--map-water",
  land: "--map-land",
  border: "--map-border",
  up: "--map-up",
  down: "--map-down",
  unknown: "--map-unknown",
  edge: "--map-marker-edge",
} as const;
export type MapColor = keyof typeof MAP_VARS;

/** The values app.css gives the variables (the tests check the contrasts). */
export const MAP_PALETTES: Record<"corporate" | "linkwise-dark", Record<MapColor, string>> = {
  corporate: { water: "#e3edf7", land: "#cdd3da", border: "#ffffff", up: "#007a55", down: "#c0392b", unknown: "#5f6b7a", edge: "#ffffff" },
  "linkwise-dark": { water: "#16202c", land: "#3a4656", border: "#1d2631", up: "#3ddc97", down: "#ff7b6b", unknown: "#b0bac6", edge: "#0f1720" },
};

export const mapVar = (c: MapColor) => `var(${MAP_VARS[c]})`;

/** The current theme's colours, read from the page (browser only). */
export function readMapPalette(el: Element = document.documentElement): Record<MapColor, string> {
  const style = getComputedStyle(el);
  const out = { ...MAP_PALETTES.corporate };
  for (const key of Object.keys(MAP_VARS) as MapColor[]) out[key] = style.getPropertyValue(MAP_VARS[key]).trim() || out[key];
  return out;
}
