import type { ReactNode } from "react";
import { Chart } from "./chart.tsx";
import { ChartDataLink } from "./data-link.tsx";
import type { PreparedChart } from "./model.ts";
import { RangeToggle } from "./range-toggle.tsx";

/*
 * A block of charts as every monitoring view shows them (/dashboard, the nodes' and devices'
 * Monitoring tabs, the dashboard's tabs): a heading with the time-range toggle (and any other
 * control), then the prepared charts two abreast on wide screens, each with its 'Show data' table
 * by URL. The loader makes the charts with `gridCharts` (grid.server.ts).
 *
 *   <ChartPanel title="Node metrics" ranges={NODE_RANGES} range={range}>
 *     <ChartGrid charts={charts} error={error} />
 *   </ChartPanel>
 */

export interface GridChart {
  id: string;
  chart: PreparedChart;
  /** The 'Show data' table when the URL asks for it (`?data=id`), else null. */
  table: string | null;
}

export function ChartPanel({
  title,
  level = 3,
  ranges,
  range,
  actions,
  children,
}: {
  title: string;
  /** The heading's level: 3 inside a tab (default), 2 for a page's section. */
  level?: 2 | 3;
  ranges?: readonly string[];
  range?: string;
  /** More controls after the range toggle (Refresh). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section className="space-y-3" aria-label={title}>
      <div className="flex flex-wrap items-center gap-2">
        <Heading className={`mr-auto font-semibold ${level === 2 ? "text-xl" : "text-lg"}`}>{title}</Heading>
        {ranges && range ? <RangeToggle ranges={ranges} current={range} /> : null}
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The charts two abreast on wide screens; `card`: on the page's background (raised), else framed inside a tab. */
export function ChartGrid({ charts, error = null, card = false }: { charts: readonly GridChart[]; error?: string | null; card?: boolean }) {
  const frame = card ? "bg-base-100 p-4 shadow-sm" : "border-base-300 border p-3";
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      {charts.map(({ id, chart, table }) => (
        <div key={id} className={`rounded-box min-w-0 ${frame}`}>
          <Chart spec={chart} error={error} figureId={id} data={<ChartDataLink id={id} title={chart.title} table={table} />} />
        </div>
      ))}
    </div>
  );
}
