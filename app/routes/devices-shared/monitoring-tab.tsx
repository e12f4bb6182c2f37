import { Suspense } from "react";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { DEVICE_RANGES, type CpeMonitoring } from "../routers/monitoring.ts";

// The chart kit only on the Monitoring tab (lazyChart: drawn by the server, lazy in the browser).
// Both kinds show the Internet NIDs' tab (routers/monitoring.tsx): the same call, by node id.
const Monitoring = lazyChart(() => import("../routers/monitoring.tsx").then((m) => m.CpeMonitoringTab));

/** The selected device's Monitoring tab (spec 3 §2.10, §2.11), either kind. */
export function DeviceMonitoringTab({ monitoring }: { monitoring: CpeMonitoring }) {
  return (
    <Suspense fallback={<p>Loading the charts…</p>}>
      <Monitoring monitoring={monitoring} ranges={DEVICE_RANGES} />
    </Suspense>
  );
}
