import { describe, expect, it } from "vitest";
import type { DeviceMonitoring } from "./model.ts";
import { DEVICE_CHARTS } from "./monitoring.ts";

/* The devices' Monitoring tab names its series in words, never a sample's key ("RTT (RTT_ms)", issue 63 item 16). */

const at = "2026-12-03T08:00:00.000Z";
const m: DeviceMonitoring = {
  node_id: "cpe-1",
  range: "1d",
  uptime_percent: 100,
  op_state: "up",
  health: [{ timestamp: at, health: 99, RTT_ms: 12, "Loss Rate": 0.1 }],
  utilization: [{ timestamp: at, rx_avg_util: 0.2, rx_peak_util: 0.3, tx_avg_util: 0.1, tx_peak_util: 0.15 }],
  announcements: [],
};
const keys = [...Object.keys(m.health[0]!), ...Object.keys(m.utilization[0]!)].filter((k) => k !== "timestamp" && k !== "health");

describe("device Monitoring: the series' names", () => {
  const names = DEVICE_CHARTS.flatMap((c) => c.series(m).map((s) => s.name));

  it("are words", () => {
    expect(names).toEqual(["Health", "RTT", "Packet loss", "Receive average", "Receive peak", "Transmit average", "Transmit peak"]);
  });

  it("hold no sample key", () => {
    for (const name of names) for (const key of keys) expect(name).not.toContain(key);
  });
});
