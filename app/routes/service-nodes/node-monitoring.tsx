import { Chart } from "../../components/chart/chart.tsx";
import { ChartDataLink } from "../../components/chart/data-link.tsx";
import { RangeToggle } from "../../components/chart/range-toggle.tsx";
import { NODE_RANGES, type NodeChart } from "./node-metrics.ts";

/*
 * The Monitoring tab (spec 2 §2, §3, §9) through the chart kit: the range toggle, then each chart
 * (the server's SVG; chart.js once JavaScript runs) with its 'Show data' table by URL. Loaded
 * lazily (lazyChart), so the other tabs load no chart code.
 */
export function NodeMonitoring({ charts, range, error }: { charts: NodeChart[]; range: string; error: string | null }) {
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="mr-auto text-lg font-semibold">Node metrics</h3>
        <RangeToggle ranges={NODE_RANGES} current={range} />
      </div>
      <div className="grid gap-4 xl:grid-cols-2">
        {charts.map(({ id, chart, table }) => (
          <div key={id} className="rounded-box border-base-300 min-w-0 border p-3">
            <Chart spec={chart} error={error} figureId={id} data={<ChartDataLink id={id} title={chart.title} table={table} />} />
          </div>
        ))}
      </div>
    </div>
  );
}
