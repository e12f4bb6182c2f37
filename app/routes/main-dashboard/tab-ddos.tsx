import { ChartGrid } from "../../components/chart/chart-grid.tsx";
import { WorldMap } from "../../components/map/world-map.tsx";
import { SimpleTable, type SimpleColumn, type SimpleTableProps } from "../../components/simple-table.tsx";
import { formatBytes, formatNumber, formatTime } from "../../lib/format.ts";
import type { BlockedHistory, DdosNode, DosAttack } from "../../../platform/contract/monitoring-insights.ts";
import type { TabProps } from "./tab-props.ts";
import type { load } from "./tab-ddos.server.ts";

/*
 * DDoS Protection Suite (spec 3 §2.14, §3 'Node (DDoS maps)', 'Blocked history', 'DoS history'):
 * three maps with popups (the map kit: an SVG with its table without JavaScript, Leaflet with it),
 * the inbound and outbound ones with their malicious-IP percentage bar and total IPs; the Blocked
 * Malicious Traffic table; the DDoS Mitigation Traffic chart; the DDoS Attack List table.
 */

const num = "text-right tabular-nums whitespace-nowrap";
const count = (n: number) => formatNumber(n);
const time = (iso: string) => (
  <time dateTime={iso} className="whitespace-nowrap">
    {formatTime(iso)}
  </time>
);
/** Bits per second as Mbit/s (the line rates the thresholds speak of). */
const mbps = (bps: number) => formatNumber(bps / 1e6, 2);

/** A right-aligned figure column. */
const figure = <T,>(id: string, header: string, value: (row: T) => string | number, unit?: string): SimpleColumn<T> => ({ id, header, unit, className: num, cell: value });
const mono = (text: string) => <span className="font-mono text-sm">{text}</span>;

const blockedColumns: SimpleColumn<BlockedHistory>[] = [
  { id: "ip", header: "IP Address", kind: "name", cell: (b) => mono(b.ip_address) },
  { id: "country", header: "Country", cell: (b) => b.country },
  { id: "city", header: "City", cell: (b) => b.city },
  figure("score", "Malicious Score", (b) => b.malicious_score),
  { id: "time", header: "Block Time", cell: (b) => time(b.block_time) },
];

const attackColumns: SimpleColumn<DosAttack>[] = [
  { id: "name", header: "Attack", kind: "name", cell: (a) => a.attack_name },
  { id: "src", header: "Source", cell: (a) => mono(a.src_addr) },
  { id: "status", header: "Status", cell: (a) => (a.status === "mitigated" ? "mitigated" : <strong>detected</strong>) },
  { id: "start", header: "Start Time", cell: (a) => time(a.start_time) },
  figure("duration", "Duration", (a) => count(a.duration), "s"),
  figure("throughput", "Peak Throughput", (a) => mbps(a.attack_throughput), "Mbit/s"),
  figure("volume", "Volume", (a) => formatBytes(a.attack_volume)),
  figure("count", "Peak Rate", (a) => count(a.attack_count), "packets/s"),
  { id: "threshold", header: "Threshold Crossed", cell: (a) => a.threshold },
];

/** The share of a map's addresses that are malicious, as a bar, with the total. */
function MaliciousShare({ id, node }: { id: string; node: DdosNode }) {
  const percent = node.total_ips ? Math.round((node.malicious_ips / node.total_ips) * 1000) / 10 : 0;
  return (
    <div className="mb-3 flex flex-col gap-1" data-testid={`${id}-share`}>
      <div className="flex flex-wrap justify-between gap-x-4 text-sm">
        <label htmlFor={`${id}-bar`} className="font-semibold">
          {percent}% malicious IPs
        </label>
        <span>
          {count(node.malicious_ips)} malicious of {count(node.total_ips)} · Total IPs: {count(node.total_ips)}
        </span>
      </div>
      <progress id={`${id}-bar`} className="progress progress-error h-3 w-full" value={percent} max={100} />
    </div>
  );
}

/** A titled card holding one of the tab's tables (its title names the table and its scroll region). */
function TableCard<T>({ id, title, ...table }: { id: string; title: string } & Omit<SimpleTableProps<T>, "caption" | "scrollRegion">) {
  return (
    <section aria-labelledby={id} className="rounded-box bg-base-100 min-w-0 p-4 shadow-sm">
      <h2 id={id} className="mb-2 text-xl font-semibold">
        {title}
      </h2>
      <SimpleTable caption={title} scrollRegion={title} {...table} />
    </section>
  );
}

export default function DdosTab({ data }: TabProps<Awaited<ReturnType<typeof load>>>) {
  const { error, ddos, maps, charts } = data;
  if (error || !ddos) return <p className="text-error">{error}</p>;
  const nodes = {
    "ddos-inbound": ddos.inbound.node,
    "ddos-outbound": ddos.outbound.node,
  } as Record<string, DdosNode | undefined>;
  return (
    <div className="min-w-0 space-y-4">
      <h2 className="sr-only">DDoS Protection Suite</h2>
      <p className="text-sm">
        Block malicious sources: <strong>{ddos.malicious_ip_block_enabled ? "on" : "off"}</strong> · DDoS mitigation:{" "}
        <strong>{ddos.denial_of_service_enabled ? "on" : "off"}</strong>
      </p>
      <div className="grid min-w-0 gap-4">
        {maps.map((map) => {
          const node = nodes[map.id];
          return (
            // isolate: Leaflet's panes and buttons (z-index 400–1000) stay under the sticky top bar.
            <div key={map.id} className="rounded-box bg-base-100 isolate min-w-0 p-4 shadow-sm">
              {node ? <MaliciousShare id={map.id} node={node} /> : null}
              <WorldMap map={map} />
            </div>
          );
        })}
      </div>
      <TableCard
        id="ddos-blocked-traffic"
        title="Blocked Malicious Traffic"
        columns={blockedColumns}
        rows={ddos.blocked_history}
        getRowId={(b, i) => `${b.ip_address}-${i}`}
        emptyMessage={ddos.malicious_ip_block_enabled ? "No malicious source was blocked in this range." : "Blocking of malicious sources is off for this device."}
      />
      <ChartGrid charts={charts} card />
      <TableCard id="ddos-attacks" title="DDoS Attack List" columns={attackColumns} rows={ddos.dos_history} getRowId={(a) => `${a.start_time}-${a.attack_name}`} emptyMessage="No attack in this range." />
    </div>
  );
}
