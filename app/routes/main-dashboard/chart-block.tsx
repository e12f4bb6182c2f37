import { ChartGrid, ChartPanel, type GridChart } from "../../components/chart/chart-grid.tsx";

/** A device tab's block of charts (the chart kit's grid) on a raised panel, under its heading. */
export function ChartBlock({ title, charts, error }: { title: string; charts: readonly GridChart[]; error: string | null }) {
  return (
    <div className="rounded-box bg-base-100 min-w-0 p-4 shadow-sm">
      <ChartPanel title={title}>
        <ChartGrid charts={charts} error={error} />
      </ChartPanel>
    </div>
  );
}
