import { data, Link } from "react-router";
import { Card } from "../../components/card.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { Screen } from "../../components/screen.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { apiGet, detailText } from "../../lib/api.server.ts";
import { formatTime } from "../../lib/format.ts";
import { requireSession } from "../../lib/session.server.ts";
import type { OutageRecord } from "../../../platform/contract/availability.ts";
import { monitoringMessages } from "../../../platform/contract/messages.ts";
import { postMortemPageHref, postMortemPdfHref } from "../main-dashboard/post-mortem-links.ts";
import { n3 } from "../sla/figures.tsx";
import type { Route } from "./+types/route";

/*
 * /outages/:outageId: the outage record (issue #26), one page that tells the whole story and can
 * be shared by its address with anyone signed in to the account: when, how long, what the device
 * diagnosed and what recovered it, the path at the time beside today's, what it affected, the
 * SLA impact in its month and the post-mortem (the health tab's page and PDF). All of it is the
 * platform's get_outage; another account's outage is not found.
 */

export const handle = { breadcrumb: "Outage" };

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireSession(request);
  const r = await apiGet(request, "get_outage", { outage_id: params.outageId });
  if (!r.ok) throw data({ message: detailText(r.detail) }, { status: r.status === 404 || r.status === 422 ? 404 : 500 });
  return data({ outage: r.data, address: new URL(request.url).href.replace(/[?#].*$/, "") }, { headers: { "Cache-Control": "private, no-store" } });
}

/** '1 h 5 min', '3 min 20 s': a duration as people say it. */
export function durationText(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : "", !h && sec ? `${sec} s` : ""].filter(Boolean).join(" ") || "0 s";
}

type Hop = OutageRecord["path_today"][number];
interface PathRow {
  hop: number;
  then: Hop | null;
  today: Hop | null;
}

const hopText = (h: Hop | null, missing: string) => (h ? `${h.hostname ?? "Unknown Host"} (${h.ip ?? "No IP"})` : missing);

const pathColumns: SimpleColumn<PathRow>[] = [
  { id: "hop", header: "Hop", kind: "name", cell: (r) => `Hop ${r.hop}` },
  { id: "then", header: "At the time of failure", cell: (r) => hopText(r.then, "No answer") },
  { id: "today", header: "Today", cell: (r) => hopText(r.today, "—") },
];

function pathRows(o: OutageRecord): PathRow[] {
  const count = Math.max(o.path_today.length, o.path_at_failure.length);
  return Array.from({ length: count }, (_, i) => ({
    hop: i + 1,
    then: o.path_at_failure.find((h) => h.hop === i + 1) ?? null,
    today: o.path_today.find((h) => h.hop === i + 1) ?? null,
  }));
}

const deviceHref = (o: OutageRecord) => `${o.kind === "cpe" ? "/routers" : "/ethernet-devices"}?selected=${encodeURIComponent(o.node_id)}`;

function Affected({ outage }: { outage: OutageRecord }) {
  const { app_services, endpoints } = outage.affected;
  if (!app_services.length && !endpoints.length) return <p className="text-sm">No app service or endpoint is known to go through this device.</p>;
  const list = (title: string, items: string[]) => (
    <div className="min-w-0">
      <h3 className="font-semibold">
        {title} ({items.length})
      </h3>
      {items.length ? (
        <ul className="list-inside list-disc text-sm wrap-anywhere">
          {items.map((x) => (
            <li key={x}>{x}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm">None</p>
      )}
    </div>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {list("App services", app_services)}
      {list("Endpoints", endpoints)}
    </div>
  );
}

export default function OutagePage({ loaderData }: Route.ComponentProps) {
  const { outage: o, address } = loaderData;
  const impact = o.sla_impact;
  return (
    <Screen title={`Outage of ${o.name}`}>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`badge ${o.end_time ? "badge-outline" : "badge-error"}`}>{o.end_time ? "Ended" : "Under way"}</span>
        {o.announced ? <span className="badge badge-outline">Announced maintenance</span> : null}
        <Link to={deviceHref(o)} className="link link-primary">
          {o.name} ({o.node_id})
        </Link>
      </p>
      <Card id="outage-when" title="What happened">
        <DetailsTable
          items={[
            { label: "Start", value: formatTime(o.start_time) },
            { label: "End", value: o.end_time ? formatTime(o.end_time) : "Under way" },
            { label: o.end_time ? "Duration" : "Duration so far", value: durationText(o.duration_s) },
            { label: "Self Diagnosis", value: o.self_diagnosis },
            { label: "Recovered by", value: o.recovery ?? monitoringMessages.notRecovered },
            { label: "Outage ID", value: o.outage_id },
          ]}
        />
      </Card>
      <Card id="outage-sla" title="SLA impact">
        <p>
          {o.announced && impact.minutes === 0
            ? `Inside announced maintenance: it does not count against ${impact.month}.`
            : `${n3(impact.minutes)} minutes counted against ${impact.month}: ${n3(impact.percentage_points)} percentage points of the month's availability (excl. maintenance).`}
        </p>
        {o.maintenance.length ? (
          <div className="min-w-0">
            <h3 className="font-semibold">Announced maintenance during the outage</h3>
            <p className="text-sm">Its time inside these windows does not count.</p>
            <ul className="list-inside list-disc text-sm" data-testid="outage-maintenance">
              {o.maintenance.map((m) => (
                <li key={m.start}>
                  {formatTime(m.start)} to {formatTime(m.end)}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <p className="text-sm">
          <Link to={`/sla?node_id=${encodeURIComponent(o.node_id)}&month=${impact.month}`} className="link link-primary">
            SLA report for {impact.month}
          </Link>
        </p>
      </Card>
      <Card id="outage-path" title={`Path to ${o.destination}`}>
        <p className="text-sm">
          {o.path_at_failure.length
            ? `At the time of failure the path answered up to hop ${o.path_at_failure[o.path_at_failure.length - 1]!.hop} and stopped.`
            : "At the time of failure the device could not reach its default gateway: no hop answered."}
        </p>
        <SimpleTable caption="The path at the time of failure beside today's path" columns={pathColumns} rows={pathRows(o)} getRowId={(r) => String(r.hop)} />
      </Card>
      <Card id="outage-affected" title="Affected">
        <Affected outage={o} />
      </Card>
      <Card id="outage-post-mortem" title="Post-mortem">
        <p className="flex flex-wrap gap-3 text-sm">
          <Link to={postMortemPageHref(o.node_id, o.outage_id)} className="link link-primary">
            Read the post-mortem analysis
          </Link>
          <a href={postMortemPdfHref(o.node_id, o.outage_id)} download="analysis.pdf" className="link link-primary">
            Download analysis.pdf
          </a>
        </p>
      </Card>
      <p className="text-sm wrap-anywhere">
        Share this record: anyone signed in to this account can open <span className="font-mono">{address}</span>
      </p>
    </Screen>
  );
}
