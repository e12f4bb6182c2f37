import { Link, useLocation } from "react-router";
import { DialogCancel, UrlDialog } from "../../components/dialog.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTime } from "../../lib/format.ts";
import { dialogHref } from "../../lib/url.ts";
import type { DeviceRoute } from "../../../platform/contract/monitoring.ts";

/*
 * Path Visualization (spec 3 §2.14): the hop graph, drawn by the server as SVG — the up hops
 * labelled Current, the down hops (the traceroute at the last outage) labelled Last outage, ending
 * where the path stopped —, the same hops as a table, and Show opening the Traceroute Result dialog
 * (`?dialog=traceroute`: Hop n, the host name or Unknown Host, the IP or No IP).
 */

type Hop = DeviceRoute["up_hops"][number];
export const GATEWAY_UNREACHABLE = "Last outage: The default gateway was unreachable.";
const hostOf = (h: Hop) => h.hostname ?? "Unknown Host";
const ipOf = (h: Hop) => h.ip ?? "No IP";

const W = 640;
const LANE = 56;
const R = 9;

function Lane({ y, hops, label, down, total }: { y: number; hops: Hop[]; label: string; down: boolean; total: number }) {
  const x = (i: number) => 120 + (i * (W - 160)) / Math.max(1, total - 1);
  const stroke = down ? "stroke-error" : "stroke-success";
  const last = hops.length - 1;
  return (
    <g>
      <text x={8} y={y + 5} className="fill-base-content text-[13px] font-semibold">
        {label}
      </text>
      {hops.length > 1 ? <line x1={x(0)} y1={y} x2={x(last)} y2={y} className={`${stroke} stroke-2`} /> : null}
      {hops.map((h, i) => (
        <g key={h.hop}>
          <circle cx={x(i)} cy={y} r={R} className={`fill-base-100 ${stroke} stroke-[3]`}>
            <title>{`${label}: hop ${h.hop}, ${hostOf(h)} (${ipOf(h)})`}</title>
          </circle>
          <text x={x(i)} y={y + 4} textAnchor="middle" className="fill-base-content text-[11px] font-semibold" aria-hidden="true">
            {h.hop}
          </text>
        </g>
      ))}
      {down ? (
        // Where the path stopped: a cross after the last hop that answered (before the first when none did).
        <g className="stroke-error stroke-[3]" transform={`translate(${hops.length ? x(last) + (W - 160) / Math.max(1, total - 1) / 2 : 120 - 30}, ${y})`}>
          <line x1={-6} y1={-6} x2={6} y2={6} />
          <line x1={-6} y1={6} x2={6} y2={-6} />
        </g>
      ) : null}
    </g>
  );
}

const hopColumns: SimpleColumn<{
  hop: number;
  now: Hop | undefined;
  then: Hop | undefined;
  stopped: boolean;
}>[] = [
  { id: "hop", header: "Hop", cell: (r) => `Hop ${r.hop}` },
  {
    id: "current",
    header: "Current",
    cell: (r) => (r.now ? `${hostOf(r.now)} (${ipOf(r.now)})` : "—"),
  },
  {
    id: "outage",
    header: "Last outage",
    cell: (r) => (r.then ? `${hostOf(r.then)} (${ipOf(r.then)})` : r.stopped ? "No answer" : "—"),
  },
];

export function PathVisualization({ route }: { route: DeviceRoute }) {
  const location = useLocation();
  const total = Math.max(route.up_hops.length, 1);
  const rows = route.up_hops.map((h) => ({
    hop: h.hop,
    now: h,
    then: route.down_hops.find((d) => d.hop === h.hop),
    stopped: route.down_timestamp_utc !== null,
  }));
  const answered = route.down_hops.length;
  const description =
    `Current path to ${route.destination}: ${route.up_hops.length} hops. ` +
    (answered ? `At the last outage the path stopped after hop ${route.down_hops[answered - 1]!.hop}.` : GATEWAY_UNREACHABLE);
  return (
    <section aria-labelledby="path-title" className="rounded-box bg-base-100 min-w-0 space-y-3 p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="path-title" className="mr-auto font-semibold">
          Path Visualization
        </h3>
        <Link to={dialogHref(location, "traceroute")} preventScrollReset className="btn btn-outline btn-sm" aria-label="Show the traceroute result">
          Show
        </Link>
      </div>
      <p className="text-sm">
        To {route.destination}. Current: {formatTime(route.up_timestamp_utc)}
        {route.down_timestamp_utc ? `; last outage: ${formatTime(route.down_timestamp_utc)}` : ""}.
      </p>
      <svg viewBox={`0 0 ${W} ${LANE * 2 + 16}`} role="img" aria-labelledby="path-svg-title path-svg-desc" className="w-full max-w-3xl">
        <title id="path-svg-title">Path Visualization</title>
        <desc id="path-svg-desc">{description}</desc>
        <Lane y={LANE / 2 + 4} hops={route.up_hops} label="Current" down={false} total={total} />
        <Lane y={LANE * 1.5 + 8} hops={route.down_hops} label="Last outage" down total={total} />
      </svg>
      {answered === 0 ? <p data-testid="gateway-unreachable">{GATEWAY_UNREACHABLE}</p> : null}
      <details>
        <summary className="cursor-pointer text-sm">Show the hops as a table</summary>
        <SimpleTable caption="Path Visualization hops" columns={hopColumns} rows={rows} getRowId={(r) => String(r.hop)} />
      </details>
    </section>
  );
}

function HopList({ hops }: { hops: Hop[] }) {
  return (
    <ol className="space-y-1">
      {hops.map((h) => (
        <li key={h.hop} className="grid grid-cols-[4.5rem_1fr] gap-x-2 text-sm">
          <span className="font-semibold">Hop {h.hop}</span>
          <span className="min-w-0 break-words">
            {hostOf(h)} <span className="font-mono">{ipOf(h)}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

export function TracerouteDialog({ route }: { route: DeviceRoute }) {
  return (
    <UrlDialog name="traceroute" title="Traceroute Result">
      <div className="space-y-4">
        <section aria-labelledby="tr-current">
          <h3 id="tr-current" className="mb-1 font-semibold">
            Current
          </h3>
          <HopList hops={route.up_hops} />
        </section>
        <section aria-labelledby="tr-outage">
          <h3 id="tr-outage" className="mb-1 font-semibold">
            Last outage
          </h3>
          {route.down_hops.length ? <HopList hops={route.down_hops} /> : <p>{GATEWAY_UNREACHABLE}</p>}
        </section>
      </div>
      <div className="modal-action">
        <DialogCancel className="btn btn-primary">Close</DialogCancel>
      </div>
    </UrlDialog>
  );
}
