import { SimpleTable, simpleIdColumn, type SimpleColumn } from "../simple-table.tsx";
import { staticHtml } from "../static-html.ts";
import { coordinateText, DEVICE_WORDS, hasValidCoordinates, MAP_OPEN_EVENT, statusLabel, type MapPoint, type MapWords } from "./model.ts";

/*
 * The same points as a table (the skip link's target): every point, those left off the map too,
 * whose coordinates say 'Missing' or 'Invalid (…)'. The kit's SimpleTable: stacked cards on phones.
 * With the interactive map each drawn point has 'Show on map', which opens its popup.
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

/** With the interactive map: a 'Show on map' button per drawn point (the keyboard's way to its popup). */
const showColumn: SimpleColumn<MapPoint> = {
  id: "show",
  header: "On the map",
  kind: "actions",
  cell: (p) =>
    hasValidCoordinates(p) ? (
      <button
        type="button"
        className="btn btn-xs btn-ghost whitespace-nowrap"
        aria-label={`Show on map: ${p.name}`}
        onClick={(e) => e.currentTarget.dispatchEvent(new CustomEvent(MAP_OPEN_EVENT, { bubbles: true, detail: { id: p.id } }))}
      >
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
  const className = "map-table mt-3 focus:outline-none";
  // Until the page is hydrated (the server, and the browser's first render) the table is written as
  // markup (static-html.ts): a hundred devices are some thousand elements, which React's streaming
  // renderer wrote at several times the cost. Once hydrated it is React's, with 'Show on map'.
  if (!interactive) return <div key="markup" id={id} tabIndex={-1} className={className} dangerouslySetInnerHTML={{ __html: staticHtml(content) }} />;
  return (
    <div key="react" id={id} tabIndex={-1} className={className}>
      {content}
    </div>
  );
}
