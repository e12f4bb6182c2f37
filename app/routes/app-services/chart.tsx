import { Chart } from "../../components/chart/chart.tsx";
import type { TopTalker } from "./model.ts";

/*
 * The Top Talkers chart (spec 1 §2): the app service's endpoints by bytes over the range, rx and tx
 * stacked, drawn by the chart kit (an SVG from the server, chart.js once the page runs JavaScript).
 */
export function TopTalkersChart({ talkers, range }: { talkers: TopTalker[]; range: string }) {
  return (
    <Chart
      spec={{
        title: `Top talkers over ${range}`,
        unit: "bytes",
        kind: "stacked-bar",
        xLabel: "Endpoint",
        series: [
          { name: "Rx", points: talkers.map((t) => ({ t: t.epid, v: t.rx_bytes })) },
          { name: "Tx", points: talkers.map((t) => ({ t: t.epid, v: t.tx_bytes })) },
        ],
      }}
    />
  );
}
