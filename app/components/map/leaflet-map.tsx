import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { useEffect, useRef } from "react";
import { DEVICE_WORDS, MAP_OPEN_EVENT, splitPoints, statusKey, statusLabel, WORLD_URL, type LocatedPoint, type MapPoint, type MapWords } from "./model.ts";
import { readMapPalette, type MapColor } from "./palette.ts";
import { markerPath } from "./shapes.ts";

/*
 * The interactive map (README.md), loaded by world-map.tsx when the map is first touched, pointed at
 * or focused: never import it directly.
 * Leaflet with the countries (the TopoJSON our own origin serves, WORLD_URL) as its only layer —
 * no tile server, ever. Markers draw the SVG's shapes (circle up, triangle down, diamond N/A) in
 * the theme's colours; a click opens a marker's popup. From the keyboard, the table's 'Show on map'
 * buttons open the same popups (MAP_OPEN_EVENT); the popup's link takes the focus, Escape closes it
 * and the focus returns to the button. The colours are read from the CSS variables and read again when the theme changes.
 */

/*
 * The TopoJSON is made for spherical projections (d3-geo cuts it at the antimeridian itself);
 * Leaflet draws it flat, where a ring that crosses the antimeridian (Russia, Fiji) would draw a
 * line across the world. Each ring is unwrapped (a longitude more than 180° from the previous
 * point moves by 360°), and Antarctica, which Web Mercator cannot show, is left out.
 */
function unwrap(ring: GeoJSON.Position[]): GeoJSON.Position[] {
  let prev: number | null = null;
  return ring.map(([lon, lat]) => {
    let x = lon!;
    if (prev !== null) while (x - prev > 180) x -= 360;
    if (prev !== null) while (prev - x > 180) x += 360;
    prev = x;
    return [x, lat!];
  });
}

function planar(world: GeoJSON.FeatureCollection): GeoJSON.FeatureCollection {
  const features = world.features
    .filter((f) => (f.properties as { name?: string } | null)?.name !== "Antarctica")
    .map((f) => {
      const g = f.geometry;
      if (g.type === "Polygon") return { ...f, geometry: { ...g, coordinates: g.coordinates.map(unwrap) } };
      if (g.type === "MultiPolygon") return { ...f, geometry: { ...g, coordinates: g.coordinates.map((poly) => poly.map(unwrap)) } };
      return f;
    });
  return { ...world, features };
}

let worldPromise: Promise<GeoJSON.FeatureCollection> | null = null;
function loadWorld(): Promise<GeoJSON.FeatureCollection> {
  worldPromise ??= fetch(WORLD_URL)
    .then((r) => {
      if (!r.ok) throw new Error(`world ${r.status}`);
      return r.json() as Promise<Topology<{ countries: GeometryCollection }>>;
    })
    .then((topo) => planar(feature(topo, topo.objects.countries) as GeoJSON.FeatureCollection))
    .catch((e: unknown) => {
      worldPromise = null;
      throw e;
    });
  return worldPromise;
}

function markerIcon(p: MapPoint, colors: Record<MapColor, string>): L.DivIcon {
  const key = statusKey(p.status);
  return L.divIcon({
    className: `map-leaflet-marker map-marker-${key}`,
    html: `<svg width="22" height="22" viewBox="-11 -11 22 22" aria-hidden="true" focusable="false"><path d="${markerPath(p.status)}" fill="${colors[key]}" stroke="${colors.edge}" stroke-width="1.5"/></svg>`,
    iconSize: [22, 22],
    iconAnchor: [11, 11],
    popupAnchor: [0, -8],
  });
}

function popupContent(p: MapPoint, words: MapWords): HTMLElement {
  const box = document.createElement("div");
  box.className = "map-popup";
  const name = document.createElement("p");
  name.className = "font-semibold";
  name.textContent = p.name;
  box.append(name);
  const list = document.createElement("dl");
  for (const [label, value] of [
    [words.columns.product, p.product],
    [words.columns.id, p.id],
    [words.columns.address, p.address],
    ["Status", statusLabel(p.status, words)],
  ] as const) {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = value;
    list.append(dt, dd);
  }
  box.append(list);
  if (p.href) {
    const link = document.createElement("a");
    link.href = p.href;
    link.className = "link";
    link.textContent = `Open ${p.name}`;
    box.append(link);
  }
  return box;
}

export default function LeafletMap({ points, label, words = DEVICE_WORDS }: { points: MapPoint[]; label: string; words?: MapWords }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let cancelled = false;
    let colors = readMapPalette();
    const map = L.map(el, {
      attributionControl: false,
      zoomSnap: 0.25,
      minZoom: 0.5,
      maxZoom: 8,
      worldCopyJump: false,
      maxBounds: [
        [-89, -240],
        [89, 240],
      ],
      maxBoundsViscosity: 0.8,
    });
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", label);
    map.fitBounds([
      [-50, -170],
      [75, 185],
    ]);
    const countryStyle = () => ({ color: colors.border, weight: 0.6, fillColor: colors.land, fillOpacity: 1 });
    let countries: L.GeoJSON | null = null;
    const markers: { marker: L.Marker; point: LocatedPoint }[] = [];
    let returnFocus: HTMLElement | null = null;
    for (const point of splitPoints(points).shown) {
      // Pointer targets only (keyboard: false): at world zoom nearby markers overlap, which no
      // keyboard or touch user can tell apart; the table's 'Show on map' buttons open the same
      // popups from the keyboard (MAP_OPEN_EVENT).
      const marker = L.marker([point.latitude, point.longitude], { icon: markerIcon(point, colors), keyboard: false, title: `${point.name}: ${statusLabel(point.status)}`, riseOnHover: true });
      marker.bindPopup(popupContent(point, words), { closeButton: true, autoPanPadding: [16, 16] });
      // The focus goes into the popup: its link, or (a point without a page) its close button.
      marker.on("popupopen", (e: L.PopupEvent) => e.popup.getElement()?.querySelector<HTMLElement>(".map-popup a, .leaflet-popup-close-button")?.focus());
      marker.on("popupclose", () => {
        // Back to the button that opened it when the focus was in the popup (Escape, its close button).
        const active = document.activeElement;
        if (returnFocus && (!active || active === document.body || active.closest(".leaflet-popup"))) returnFocus.focus();
        returnFocus = null;
      });
      marker.setZIndexOffset(point.status === "down" ? 1000 : 0);
      marker.addTo(map);
      markers.push({ marker, point });
    }
    loadWorld()
      .then((world) => {
        if (cancelled) return;
        countries = L.geoJSON(world, { style: countryStyle, interactive: false }).addTo(map);
        countries.bringToBack();
        el.dataset.mapReady = "true";
      })
      .catch(() => {
        if (!cancelled) el.dataset.mapReady = "failed";
      });
    // Escape closes an open popup wherever the focus is in the map (Leaflet's own handler only
    // listens while the map's container itself has the focus); popupclose returns the focus.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && el.querySelector(".leaflet-popup")) {
        e.preventDefault();
        map.closePopup();
      }
    };
    el.addEventListener("keydown", onKey);
    // 'Show on map' (map-table.tsx): bring the point into view and open its popup.
    const figure = el.closest("figure") ?? el;
    const onOpen = (e: Event) => {
      const id = (e as CustomEvent<{ id: string }>).detail?.id; // why: a CustomEvent by contract (MAP_OPEN_EVENT)
      const found = markers.find((m) => m.point.id === id);
      if (!found) return;
      returnFocus = e.target instanceof HTMLElement ? e.target : null;
      el.scrollIntoView({ block: "nearest" });
      map.setView(found.marker.getLatLng(), Math.max(map.getZoom(), 4), { animate: false });
      found.marker.openPopup();
    };
    figure.addEventListener(MAP_OPEN_EVENT, onOpen);
    // The table's buttons are markup (map-table.tsx): their clicks come here.
    const onClick = (e: Event) => {
      const button = e.target instanceof Element ? e.target.closest<HTMLElement>("button[data-map-show]") : null;
      if (button && figure.contains(button)) button.dispatchEvent(new CustomEvent(MAP_OPEN_EVENT, { bubbles: true, detail: { id: button.dataset.mapShow } }));
    };
    figure.addEventListener("click", onClick);
    // A theme switch (data-theme on <html>) or the system's scheme: read the colours again.
    const restyle = () => {
      colors = readMapPalette();
      countries?.setStyle(countryStyle);
      for (const { marker, point } of markers) marker.setIcon(markerIcon(point, colors));
    };
    const observer = new MutationObserver(restyle);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", restyle);
    return () => {
      cancelled = true;
      el.removeEventListener("keydown", onKey);
      figure.removeEventListener(MAP_OPEN_EVENT, onOpen);
      figure.removeEventListener("click", onClick);
      observer.disconnect();
      media.removeEventListener("change", restyle);
      map.remove();
    };
  }, [points, label, words]);
  return <div ref={ref} className="map-leaflet aspect-[960/470] min-h-64 w-full" data-map="leaflet" />;
}
