import { geoEqualEarth, geoPath, type GeoProjection } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import world from "world-atlas/countries-110m.json";
import { MAP_HEIGHT, MAP_PADDING, MAP_WIDTH, WORLD_SVG_ID } from "./model.ts";

/*
 * The server's half of the map kit (README.md): the equal-area projection (Equal Earth, fitted
 * once to the fixed frame), and the countries as SVG path markup, made once per process and
 * cached (the projection never changes, so a page view only adds its markers).
 */

// why: the JSON import is typed as its literal shape; it is a TopoJSON topology (world-atlas's own docs).
export const worldTopology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }>; land: GeometryCollection }>;

export const projection: GeoProjection = geoEqualEarth().fitExtent(
  [
    [MAP_PADDING, MAP_PADDING],
    [MAP_WIDTH - MAP_PADDING, MAP_HEIGHT - MAP_PADDING],
  ],
  { type: "Sphere" },
);

/** [x, y] in the frame's units for a longitude/latitude, or null when it cannot be projected. */
export function project(longitude: number, latitude: number): [number, number] | null {
  const xy = projection([longitude, latitude]);
  return xy && Number.isFinite(xy[0]) && Number.isFinite(xy[1]) ? [xy[0], xy[1]] : null;
}

/** The countries as GeoJSON (the same data Leaflet draws from the served TopoJSON). */
export const countries = () => feature(worldTopology, worldTopology.objects.countries);

let countriesMarkup: string | null = null;

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The sphere (water), the countries (land, each with its name as <title>) and their borders as
 * SVG markup in the frame's units: built on the first call, then the same string every time.
 */
export function countriesSvgMarkup(): string {
  if (countriesMarkup !== null) return countriesMarkup;
  // Whole viewBox units (960 wide): a tenth of a unit more is invisible on any screen and costs
  // a third of every map page's bytes.
  const path = geoPath(projection).digits(0);
  const sphere = path({ type: "Sphere" }) ?? "";
  const land = countries()
    .features.map((f) => {
      const d = path(f);
      return d ? `<path d="${d}"><title>${escapeText(f.properties?.name ?? "")}</title></path>` : "";
    })
    .join("");
  const borders = path(mesh(worldTopology, worldTopology.objects.countries, (a, b) => a !== b)) ?? "";
  countriesMarkup =
    `<path class="map-water" d="${sphere}" fill="var(--map-water)"/>` +
    `<g class="map-land" fill="var(--map-land)">${land}</g>` +
    `<path class="map-borders" d="${borders}" fill="none" stroke="var(--map-border)" stroke-width="0.5"/>`;
  return countriesMarkup;
}

let worldDocument: string | null = null;

/** The countries as a standalone SVG document (app/routes/map/world-svg.ts), its group `#world` for `<use>`. */
export function worldSvgDocument(): string {
  worldDocument ??= `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}"><g id="${WORLD_SVG_ID}">${countriesSvgMarkup()}</g></svg>`;
  return worldDocument;
}

/** For tests: forget the cached markup. */
export const resetCountriesMarkup = () => {
  countriesMarkup = null;
};
