import { BarElement, CategoryScale, Chart as ChartJS, Legend, LinearScale, Tooltip } from "chart.js";
import { Bar } from "react-chartjs-2";
import type { TopTalker } from "./model.ts";

/*
 * The Top Talkers chart: loaded only when the Top Talkers tab is open (a lazy import in tabs.tsx),
 * so chart.js is not in the page's JavaScript otherwise. The same figures are in the table beside it.
 */
ChartJS.register(BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export default function TopTalkersChart({ talkers }: { talkers: TopTalker[] }) {
  return (
    <Bar
      aria-hidden="true"
      height={220}
      options={{ responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: "bytes" } } } }}
      data={{
        labels: talkers.map((t) => t.epid),
        datasets: [
          { label: "rx_bytes", data: talkers.map((t) => t.rx_bytes), backgroundColor: "#2563eb" },
          { label: "tx_bytes", data: talkers.map((t) => t.tx_bytes), backgroundColor: "#16a34a" },
        ],
      }}
    />
  );
}
