import { ChartBlock } from "./chart-block.tsx";
import type { TabProps } from "./tab-props.ts";
import type { load } from "./tab-utilization.server.ts";

/*
 * WAN Link Utilization (spec 3 §2.14): Upload/Download Utilization (%), Daily Site Traffic Peak
 * Hour (Mbps) as a scatter over the hours of the day, and Peak Hour Throughput Trend (Mbps): the
 * chart kit's grid, each with 'Show data' by URL.
 */

export default function UtilizationTab({ data, device }: TabProps<Awaited<ReturnType<typeof load>>>) {
  return (
    <>
      <h2 className="sr-only">WAN Link Utilization of {device.name}</h2>
      <ChartBlock title="Utilization and peak hours" charts={data.charts} error={data.error} />
    </>
  );
}
