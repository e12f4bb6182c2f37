import { Chart } from "../../components/chart/chart.tsx";
import type { NamedTalker } from "./model.ts";

/*
 * The Top Talkers chart (spec 1 §2): the app service's endpoints by bytes over the range, rx and tx
 * stacked, drawn by the chart kit (an SVG from the server, chart.js once the page runs JavaScript).
 * Each bar is the endpoint's name (with its id where two share it), not its id alone.
 */
export function TopTalkersChart({ talkers, range }: { talkers: NamedTalker[]; range: string }) {
  return (
    <Chart
      spec={{
        title: `Top talkers over ${range}`,
        unit: "bytes",
        kind: "stacked-bar",
        xLabel: "Endpoint",
        series: [
          { name: "Rx", points: talkers.map((t) => ({ t: t.name, v: t.rx_bytes })) },
          { name: "Tx", points: talkers.map((t) => ({ t: t.name, v: t.tx_bytes })) },
        ],
      }}
    />
  );
}
