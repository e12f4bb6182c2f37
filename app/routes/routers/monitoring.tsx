import { Chart } from "../../components/chart/chart.tsx";
import { ChartDataLink } from "../../components/chart/data-link.tsx";
import { RangeToggle } from "../../components/chart/range-toggle.tsx";
import type { CpeMonitoring } from "./monitoring.ts";

/*
 * The Monitoring tab of an Internet NID (spec 3 §2.10): the range, the uptime (announced
 * maintenance left out) and the WAN link charts through the chart kit (the server's SVG; chart.js
 * once JavaScript runs), each with 'Show data' by URL. Loaded lazily: the Details tab loads no chart code.
 */
export function CpeMonitoringTab({ monitoring, ranges }: { monitoring: CpeMonitoring; ranges: readonly string[] }) {
  const { charts, range, uptime, error } = monitoring;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto text-lg font-semibold">WAN link</h3>
        <RangeToggle ranges={ranges} current={range} />
      </div>
      {error ? (
        <p role="alert" className="text-error">
          {error}
        </p>
      ) : (
        <p>Uptime over the range: {uptime === null ? "N/A" : `${uptime} %`}</p>
      )}
      <div className="grid gap-4 xl:grid-cols-2">
        {charts.map(({ id, chart, table }) => (
          <div key={id} className="rounded-box border-base-300 min-w-0 border p-3">
            <Chart spec={chart} figureId={id} data={<ChartDataLink id={id} title={chart.title} table={table} />} />
          </div>
        ))}
      </div>
    </div>
  );
}
