import { Link, useLocation } from "react-router";
import { useHydrated } from "../../components/hooks.ts";
import { OpState } from "../../components/op-state.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTime } from "../../lib/format.ts";
import { dialogHref } from "../../lib/url.ts";
import type { OutageHistoryEntry } from "../../../platform/contract/monitoring.ts";
import { AvailabilityBlock } from "./availability.tsx";
import { ChartBlock } from "./chart-block.tsx";
import { PathVisualization, TracerouteDialog } from "./path-graph.tsx";
import { PostMortemDialog } from "./post-mortem-dialog.tsx";
import { postMortemPageHref } from "./post-mortem-links.ts";
import type { TabProps } from "./tab-props.ts";
import type { load } from "./tab-health.server.ts";

/*
 * WAN Link Health (spec 3 §2.14): the uptime (the availability block: excl. announced
 * maintenance, whose windows shade the charts), the health, RTT and loss charts, Path Visualization
 * (and its Traceroute Result dialog), the Outage History table (each row linking to its outage
 * record; View Analysis on down rows: the post-mortem, a page without JavaScript and a streamed
 * dialog with it) and the Daily Performance Assurance Test chart.
 */

type Data = Awaited<ReturnType<typeof load>>;

/** Where an outage's record is (the availability helper's page, coord.md). */
const outageHref = (outageId: string) => `/outages/${encodeURIComponent(outageId)}`;

function ViewAnalysis({ deviceId, outageId, at }: { deviceId: string; outageId: string; at: string }) {
  const hydrated = useHydrated();
  const location = useLocation();
  // Without JavaScript: the page with the whole text; with it: the dialog that streams it.
  return (
    <Link to={hydrated ? dialogHref(location, "post-mortem", outageId) : postMortemPageHref(deviceId, outageId)} preventScrollReset className="btn btn-outline btn-xs">
      View Analysis
      <span className="sr-only"> of the outage at {formatTime(at)}</span>
    </Link>
  );
}

const outageColumns = (deviceId: string): SimpleColumn<OutageHistoryEntry>[] => [
  {
    id: "timestamp",
    header: "Timestamp",
    cell: (r) => (
      <Link to={outageHref(r.outage_id)} className="link link-primary whitespace-nowrap">
        <time dateTime={r.timestamp}>{formatTime(r.timestamp)}</time>
      </Link>
    ),
  },
  {
    id: "status",
    header: "Status",
    cell: (r) => <OpState value={r.status} label="Status" />,
  },
  {
    id: "self_diagnosis",
    header: "Self Diagnosis",
    cell: (r) => r.self_diagnosis,
  },
  {
    id: "post_mortem",
    header: "Post-mortem Analysis",
    cell: (r) => (r.status === "down" ? <ViewAnalysis deviceId={deviceId} outageId={r.outage_id} at={r.timestamp} /> : null),
  },
];

export default function HealthTab({ data, device }: TabProps<Data>) {
  const { availability, charts, outages, error, route, routeError } = data;
  return (
    <div className="space-y-4">
      <h2 className="sr-only">WAN Link Health of {device.name}</h2>
      <div className="rounded-box bg-base-100 min-w-0 p-4 shadow-sm">
        <AvailabilityBlock availability={availability.availability} error={availability.error} />
      </div>
      <ChartBlock title="WAN link" charts={charts} error={error} />
      {route ? <PathVisualization route={route} /> : <p className="text-error">{routeError}</p>}
      {route ? <TracerouteDialog route={route} /> : null}
      <section aria-labelledby="outage-history-title" className="rounded-box bg-base-100 min-w-0 space-y-2 p-4 shadow-sm">
        <h3 id="outage-history-title" className="font-semibold">
          Outage History
        </h3>
        {error ? (
          <p className="text-error">{error}</p>
        ) : (
          <SimpleTable
            caption="Outage History"
            columns={outageColumns(device.id)}
            rows={outages}
            getRowId={(r) => `${r.outage_id}-${r.status}`}
            emptyMessage="No outage in this time range."
          />
        )}
      </section>
      <PostMortemDialog deviceId={device.id} />
    </div>
  );
}
