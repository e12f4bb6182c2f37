import { useLayoutEffect, useRef } from "react";
import { SimpleTable, simpleIdColumn, type SimpleColumn } from "../simple-table.tsx";
import { staticHtml } from "../static-html.ts";
import { coordinateText, DEVICE_WORDS, hasValidCoordinates, statusLabel, type MapPoint, type MapWords } from "./model.ts";

/*
 * The same points as a table (the skip link's target): every point, those left off the map too,
 * whose coordinates say 'Missing' or 'Invalid (…)'. The kit's SimpleTable: stacked cards on phones.
 * With the interactive map each drawn point has 'Show on map', which opens its popup (a click
 * that leaflet-map.tsx handles on the figure).
 */
export const mapColumns = (words: MapWords = DEVICE_WORDS): SimpleColumn<MapPoint>[] => [
  { id: "name", header: "Name", kind: "name", cell: (p) => (p.href ? <a href={p.href} className="link">{p.name}</a> : p.name) },
  { id: "product", header: words.columns.product, cell: (p) => p.product },
  words.idIsList ? { id: "id", header: words.columns.id, cell: (p) => <code className="text-xs break-all">{p.id}</code> } : simpleIdColumn("id", words.columns.id, (p) => p.id),
  { id: "address", header: words.columns.address, cell: (p) => p.address },
  { id: "latitude", header: "Latitude", cell: (p) => coordinateText(p.latitude, 90), className: "tabular-nums" },
  { id: "longitude", header: "Longitude", cell: (p) => coordinateText(p.longitude, 180), className: "tabular-nums" },
  { id: "status", header: "Status", cell: (p) => statusLabel(p.status, words) },
];

/**
 * With the interactive map: a 'Show on map' button per drawn point (the keyboard's way to its
 * popup). Markup like the rest of the table: leaflet-map.tsx listens for its clicks on the figure.
 */
const showColumn: SimpleColumn<MapPoint> = {
  id: "show",
  header: "On the map",
  kind: "actions",
  cell: (p) =>
    hasValidCoordinates(p) ? (
      <button type="button" className="btn btn-xs btn-ghost whitespace-nowrap" aria-label={`Show on map: ${p.name}`} data-map-show={p.id}>
        Show on map
      </button>
    ) : null,
};

export function MapTable({ id, title, points, interactive = false, words = DEVICE_WORDS }: { id: string; title: string; points: MapPoint[]; interactive?: boolean; words?: MapWords }) {
  const content = (
    <>
      {/* A heading, not the visible caption: the stacked (phone) table squeezed its caption into a narrow column. */}
      <h3 className="mb-2 font-semibold">{title}</h3>
      <SimpleTable caption={title} columns={interactive ? [...mapColumns(words), showColumn] : mapColumns(words)} rows={points} getRowId={(p) => p.id} emptyMessage={`No ${words.noun.many}.`} />
    </>
  );
  // Markup (static-html.ts), with and without the interactive map: a hundred devices are some
  // thousand elements, which React would walk while hydrating and again for 'Show on map'. The
  // string changes once, when the interactive map comes (its buttons), and React writes it anew;
  // the control that had the focus in it (a device's link) gets it back.
  const html = staticHtml(content);
  const ref = useRef<HTMLDivElement>(null);
  const written = useRef(html);
  const refocus = useRef<string | null>(null);
  if (written.current !== html && typeof document !== "undefined") {
    // why: read before React replaces the markup (a function component has no snapshot before an update).
    const active = document.activeElement;
    refocus.current = ref.current && active && active !== ref.current && ref.current.contains(active) ? focusKey(active) : null;
    written.current = html;
  }
  useLayoutEffect(() => {
    const key = refocus.current;
    refocus.current = null;
    if (key) ref.current?.querySelector<HTMLElement>(key)?.focus();
  }, [html]);
  return <div ref={ref} id={id} tabIndex={-1} className="map-table mt-3 focus:outline-none" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A selector for the same control in the table written anew: a link by its address, else by its name. */
function focusKey(el: Element): string | null {
  const href = el.getAttribute("href");
  if (href) return `a[href="${CSS.escape(href)}"]`;
  const label = el.getAttribute("aria-label");
  return label ? `[aria-label="${CSS.escape(label)}"]` : null;
}
