import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { countriesSvgMarkup, project, resetCountriesMarkup } from "./geometry.server.ts";
import { MapLegend } from "./legend.tsx";
import { MapTable, mapColumns } from "./map-table.tsx";
import { SimpleTable } from "../simple-table.tsx";
import { staticHtml } from "../static-html.ts";
import { mapSvgMarkup, prepareMap, projectMarkers } from "./markup.server.tsx";
import { coordinateText, describeMap, hasValidCoordinates, MAP_HEIGHT, MAP_PADDING, MAP_WIDTH, mapWords, splitPoints, WORLD_ATLAS_VERSION, WORLD_SVG_URL, type MapPoint } from "./model.ts";
import { MAP_PALETTES } from "./palette.ts";
import { MAP_MARKUP, mapPoints } from "./prepared.ts";
import { MARKER_PATHS } from "./shapes.ts";
import { WorldMap } from "./world-map.tsx";
import { loader as worldSvgLoader } from "../../routes/map/world-svg.ts";

const point = (id: string, latitude: number | null, longitude: number | null, status: MapPoint["status"] = "up"): MapPoint => ({
  id,
  name: `Site ${id}`,
  product: "BN-CPE-IP",
  address: `${id} Main Street`,
  latitude,
  longitude,
  status,
  href: `/routers?selected=${id}`,
});

const points: MapPoint[] = [
  point("london", 51.507, -0.128, "up"),
  point("sydney", -33.868, 151.209, "down"),
  point("nyc", 40.713, -74.006, null),
  point("missing", null, 10),
  point("nan", Number.NaN, 10),
  point("north", 95, 10, "down"),
  point("east", 10, 200),
];

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;

describe("projection (Equal Earth, fitted to the frame)", () => {
  it("puts (0, 0) in the middle and the antimeridian and poles on the frame's edges", () => {
    const [x0, y0] = project(0, 0)!;
    expect(x0).toBeCloseTo(MAP_WIDTH / 2, 1);
    expect(y0).toBeCloseTo(MAP_HEIGHT / 2, 0);
    const west = project(-180, 0)![0];
    const east = project(180, 0)![0];
    expect(west).toBeGreaterThanOrEqual(MAP_PADDING - 0.5);
    expect(west).toBeLessThan(MAP_PADDING + 3); // fitted by height: a pixel or two of margin
    expect(west + east).toBeCloseTo(MAP_WIDTH, 0);
    const top = project(0, 90)![1];
    const bottom = project(0, -90)![1];
    expect(top).toBeGreaterThanOrEqual(MAP_PADDING - 0.5);
    expect(bottom).toBeLessThanOrEqual(MAP_HEIGHT - MAP_PADDING + 0.5);
    expect(top + bottom).toBeCloseTo(MAP_HEIGHT, 0);
  });

  it("places known cities in their quarter of the world", () => {
    const [lx, ly] = project(-0.128, 51.507)!;
    const [sx, sy] = project(151.209, -33.868)!;
    const [nx, ny] = project(-74.006, 40.713)!;
    expect(lx).toBeCloseTo(MAP_WIDTH / 2, -1); // London: on the prime meridian
    expect(ly).toBeLessThan(MAP_HEIGHT / 2);
    expect(sx).toBeGreaterThan(MAP_WIDTH * 0.8);
    expect(sy).toBeGreaterThan(MAP_HEIGHT / 2);
    expect(nx).toBeLessThan(lx);
    expect(ny).toBeGreaterThan(ly); // New York is south of London
  });
});

describe("points and their sentence", () => {
  it("skips missing, non-finite and out-of-range coordinates", () => {
    const { shown, skipped } = splitPoints(points);
    expect(shown.map((p) => p.id)).toEqual(["london", "sydney", "nyc"]);
    expect(skipped.map((p) => p.id)).toEqual(["missing", "nan", "north", "east"]);
    expect(hasValidCoordinates({ latitude: -90, longitude: 180 })).toBe(true);
    expect(hasValidCoordinates({ latitude: 0, longitude: null })).toBe(false);
  });

  it("describes the devices, the down ones and those left off the map", () => {
    expect(describeMap(points)).toBe("7 devices, 2 down, 1 not reporting; 4 not on the map (missing or invalid coordinates).");
    expect(describeMap(points.slice(0, 2))).toBe("2 devices, 1 down.");
    expect(describeMap([point("a", 1, 1)])).toBe("1 device, 0 down.");
    expect(describeMap([])).toBe("0 devices, 0 down.");
  });

  it("says why a coordinate is not on the map", () => {
    expect(coordinateText(null, 90)).toBe("Missing");
    expect(coordinateText(95, 90)).toBe("Invalid (95)");
    expect(coordinateText(Number.NaN, 90)).toBe("Invalid (NaN)");
    expect(coordinateText(51.507, 90)).toBe("51.507");
    expect(coordinateText(10, 180)).toBe("10");
  });
});

describe("the server's SVG", () => {
  it("draws the countries once per process and reuses the markup", () => {
    resetCountriesMarkup();
    const first = countriesSvgMarkup();
    expect(countriesSvgMarkup()).toBe(first);
    expect(count(first, /<path d=/g)).toBeGreaterThan(170); // countries-110m: 177 countries
    expect(first).toContain("<title>France</title>");
  });

  it("shows the countries from one cached SVG document of our origin (a <use>), not inline in each map", async () => {
    const svg = mapSvgMarkup(points, { id: "m", title: "Devices", description: describeMap(points) });
    expect(svg).toContain(`<use href="${WORLD_SVG_URL}#world"/>`);
    expect(svg).not.toContain("<title>France</title>");
    const res = worldSvgLoader();
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("immutable");
    const doc = await res.text();
    expect(doc).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 960 470"><g id="world">/);
    expect(count(doc, /<path d=/g)).toBeGreaterThan(170);
    // Whole units: the outlines are half the bytes of three decimals, and the same to the eye.
    expect(doc).not.toMatch(/<path d="[^"]*\d\.\d/);
  });

  it("marks up and down with different shapes and colours, each with a title, and skips invalid points", () => {
    const svg = mapSvgMarkup(points, { id: "m", title: "Devices", description: describeMap(points) });
    expect(svg).toMatch(/^<svg role="img" aria-labelledby="m-title m-desc"/);
    expect(svg).toContain('<desc id="m-desc">7 devices, 2 down, 1 not reporting; 4 not on the map (missing or invalid coordinates).</desc>');
    expect(count(svg, /class="map-marker /g)).toBe(3);
    expect(svg).toContain(`<title>Site london (BN-CPE-IP): Up</title><path d="${MARKER_PATHS.up}" fill="var(--map-up)"`);
    expect(svg).toContain(`<title>Site sydney (BN-CPE-IP): Down</title><path d="${MARKER_PATHS.down}" fill="var(--map-down)"`);
    expect(svg).toContain(`<title>Site nyc (BN-CPE-IP): N/A</title><path d="${MARKER_PATHS.unknown}" fill="var(--map-unknown)"`);
    expect(svg).not.toContain("Site north");
    // Down markers are drawn last (on top).
    expect(svg.indexOf("Site sydney")).toBeGreaterThan(svg.indexOf("Site nyc"));
  });

  it("positions markers at percentages of the frame", () => {
    const [m] = projectMarkers([point("zero", 0, 0)]);
    expect(m!.x).toBeCloseTo(MAP_WIDTH / 2, 1);
    const svg = mapSvgMarkup([point("zero", 0, 0)], { id: "z", title: "t", description: "d" });
    expect(svg).toMatch(/<svg x="50\.000%" y="50\.0\d\d%"/);
  });

  it("keeps the markup out of the page's data (a symbol key)", () => {
    const map = prepareMap({ id: "m", title: "Devices", points });
    expect(typeof map[MAP_MARKUP]).toBe("string");
    expect(JSON.parse(JSON.stringify(map))).toEqual({ id: "m", title: "Devices", description: map.description, pointsJson: JSON.stringify(points), pointCount: points.length, words: map.words });
    expect(mapPoints(map)).toEqual(JSON.parse(JSON.stringify(points)));
  });

  it("prepares the same map once (remembered while its points are the same)", () => {
    const first = prepareMap({ id: "m", title: "Devices", points });
    expect(prepareMap({ id: "m", title: "Devices", points: points.map((p) => ({ ...p })) })).toBe(first);
    const moved = prepareMap({ id: "m", title: "Devices", points: points.map((p, i) => (i === 0 ? { ...p, status: p.status === "up" ? "down" : "up" } : p)) });
    expect(moved).not.toBe(first);
    expect(moved[MAP_MARKUP]).not.toBe(first[MAP_MARKUP]);
  });

  it("names the points and their states in the screen's words (a map of other things than devices)", () => {
    const cities = points.map(({ href: _href, ...p }) => p);
    const words = { status: { up: "Benign", down: "Malicious", unknown: "Unscored" }, columns: { product: "Country", id: "IPs", address: "City" }, noun: { one: "location", many: "locations" }, downWord: "malicious" };
    const map = prepareMap({ id: "m", title: "Sources", points: cities, words });
    expect(map.description).toMatch(/^\d+ locations, \d+ malicious/);
    expect(map[MAP_MARKUP]).toMatch(/<title>[^<]+: (Benign|Malicious|Unscored)<\/title>/);
    const html = renderToStaticMarkup(<WorldMap map={map} />);
    for (const text of [">Country<", ">IPs<", ">City<", "Malicious ("]) expect(html).toContain(text);
    expect(html).not.toContain(">Product<");
    // No page to link to: the names are plain text.
    expect(html).not.toMatch(/<a href="[^#][^"]*" class="link">/);
  });
});

describe("the table and the legend", () => {
  it("writes the table as markup before hydration, the same as React's", () => {
    const react = renderToStaticMarkup(<SimpleTable caption="Devices: table" columns={mapColumns()} rows={points} getRowId={(p) => p.id} emptyMessage="No devices." />);
    expect(staticHtml(<SimpleTable caption="Devices: table" columns={mapColumns()} rows={points} getRowId={(p) => p.id} emptyMessage="No devices." />)).toBe(react);
    expect(renderToStaticMarkup(<MapTable id="t" title="Devices: table" points={points} />)).toContain(react);
  });

  it("is markup with the interactive map too: 'Show on map' buttons that the map handles on the figure (no React handler)", () => {
    const plain = renderToStaticMarkup(<MapTable id="t" title="Devices: table" points={points} />);
    expect(plain).not.toContain("Show on map");
    const live = renderToStaticMarkup(<MapTable id="t" title="Devices: table" points={points} interactive />);
    // One per drawn point, none for those off the map; each names its point and carries its id.
    expect(count(live, /data-map-show=/g)).toBe(points.filter(hasValidCoordinates).length);
    expect(live).toContain(`aria-label="Show on map: ${points[0]!.name}" data-map-show="${points[0]!.id}"`);
    // The whole table is one dangerouslySetInnerHTML: hydration and the switch to the live map walk no row.
    expect(live).toMatch(/^<div id="t" tabindex="-1" class="map-table[^"]*"><h3/);
  });

  it("writes the server's SVG into the figure before the interactive map comes (data-map-layer)", () => {
    const map = prepareMap({ id: "m1", title: "Devices on the map", points });
    const html = renderToStaticMarkup(<WorldMap map={map} />);
    expect(html).toContain('data-map-layer="svg"');
    expect(html).toContain(map[MAP_MARKUP]!);
    expect(html).not.toContain("leaflet");
  });

  it("lists every point with name, product, id, address, latitude, longitude and status", () => {
    const html = renderToStaticMarkup(<MapTable id="t" title="Devices: table" points={points} />);
    expect(count(html, /<tr/g)).toBe(points.length + 1);
    for (const header of ["Name", "Product", "Id", "Address", "Latitude", "Longitude", "Status"]) expect(html).toContain(`>${header}</th>`);
    expect(html).toContain('href="/routers?selected=london"');
    expect(html).toContain("51.507");
    expect(html).toContain("Missing");
    expect(html).toContain("Invalid (95)");
    expect(html).toContain("Invalid (200)");
    expect(html).toContain(">Down<");
    expect(html).toContain(">N/A<");
  });

  it("draws a device id unbroken, as every table does, and a list in the id column (the DDoS cities' IPs) wrapping", () => {
    const devices = renderToStaticMarkup(<MapTable id="t" title="Devices: table" points={points} />);
    expect(devices).toContain(`<td data-label="Id"><code class="text-xs whitespace-nowrap">${points[0]!.id}</code></td>`);
    const words = mapWords({ columns: { product: "Country", id: "IPs (score)", address: "Ports" }, idIsList: true });
    const cities = renderToStaticMarkup(<MapTable id="t" title="Sources: table" points={[{ ...points[0]!, id: "203.0.113.5 (87), 198.51.100.7 (12)" }]} words={words} />);
    expect(cities).toContain('<code class="text-xs break-all">203.0.113.5 (87), 198.51.100.7 (12)</code>');
    expect(cities).not.toContain("whitespace-nowrap");
  });

  it("shows each state's shape and count", () => {
    const html = renderToStaticMarkup(<MapLegend points={points} />);
    expect(html).toContain("<span>Up (4)</span>");
    expect(html).toContain("<span>Down (2)</span>");
    expect(html).toContain("<span>N/A (not reporting) (1)</span>");
    expect(html).toContain(MARKER_PATHS.down);
  });
});

// WCAG 2.1 relative luminance and contrast.
const hexLuminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [x, y] = [hexLuminance(a), hexLuminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

describe("colours", () => {
  for (const [theme, p] of Object.entries(MAP_PALETTES)) {
    it(`${theme}: markers ≥ 3:1 against land and water`, () => {
      for (const marker of [p.up, p.down, p.unknown]) for (const bg of [p.land, p.water]) expect(contrast(marker, bg)).toBeGreaterThanOrEqual(3);
    });
  }

  it("app.css sets the same values", () => {
    const css = readFileSync(new URL("../../app.css", import.meta.url), "utf8");
    for (const p of Object.values(MAP_PALETTES)) for (const v of Object.values(p)) expect(css).toContain(`: ${v};`);
  });

  it("serves the world-atlas version the URL names", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../node_modules/world-atlas/package.json", import.meta.url), "utf8")) as { version: string };
    expect(pkg.version).toBe(WORLD_ATLAS_VERSION);
  });
});
