import { describe, expect, it } from "vitest";
import { SAT_PERFORMANCE_FROM_MS, SAT_STEPS, serviceActivationPlan, speedTestReport } from "./devices.ts";

// The fleet's additions for issue #25: the speed test as the tools print it and the Y.1564 plan.

const device = { id: "cpe-test-1", kind: "cpe", lat: 51.5, lon: -0.12, contractedMbps: 500 };
const t0 = Date.UTC(2026, 10, 25, 10, 0, 0);

describe("speed test output", () => {
  it("is running, then the Ookla CLI's JSON with bandwidth in bytes per second", () => {
    expect(speedTestReport(1, device, "ookla", t0, t0 + 2000).status).toBe("running");
    const r = speedTestReport(1, device, "ookla", t0, t0 + 60_000);
    if (r.status !== "completed") return expect(r.status).toBe("failed");
    const raw = r.data!.raw as Record<string, any>; // why: the tool's JSON, whose shape this test checks
    expect(raw.type).toBe("result");
    expect(raw.download.bandwidth).toBe(Math.round((r.data!.download_speed_mbps * 1e6) / 8));
    expect(raw.ping.latency).toBe(r.data!.ping_latency_ms);
    expect(raw.result.url).toBe(r.data!.result_url);
    // Six octets of two hex digits each, for every device (issue 63 item 27: "02:4C:55:155:00:01").
    for (let i = 0; i < 50; i++) {
      const other = speedTestReport(1, { ...device, id: `cpe-mac-${i}` }, "ookla", t0, t0 + 60_000);
      if (other.status !== "completed") continue;
      expect((other.data!.raw as { interface: { macAddr: string } }).interface.macAddr).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
    }
    expect(speedTestReport(1, device, "ookla", t0, t0 + 60_000)).toEqual(r);
  });
  it("answers iperf3's JSON for a host", () => {
    const r = speedTestReport(1, device, "192.0.2.80", t0, t0 + 60_000);
    if (r.status !== "completed") return;
    const raw = r.data!.raw as Record<string, any>; // why: the tool's JSON, whose shape this test checks
    expect(raw.upload.start.test_start.reverse).toBe(0);
    expect(raw.download.start.test_start.reverse).toBe(1);
    expect(raw.download.end.sum_sent.bits_per_second).toBe(Math.round(r.data!.download_speed_mbps * 1e6));
    expect(raw.upload.intervals).toHaveLength(10);
  });
});

describe("Y.1564 plan", () => {
  it("measures every step at its rate, the overshoot held by the policer, then the performance test", () => {
    let loose = 0;
    for (let k = 0; k < 40; k++) {
      const plan = serviceActivationPlan(1, { ...device, id: `metro-${k}` }, { cirMbps: 300, eirMbps: 100, peer: "192.0.2.1", startedAt: t0 + k * 1000, down: false, performanceS: 900 });
      const steps = plan.filter((x) => x.kind === "step");
      expect(steps.map((x) => (x.kind === "step" ? x.step : ""))).toEqual(SAT_STEPS.map((x) => x.step));
      const offered = steps.map((x) => (x.kind === "step" ? x.measurement.offered_mbps : 0));
      expect(offered).toEqual([75, 150, 225, 300, 400, 500]);
      const over = steps[5]!.kind === "step" ? steps[5]!.measurement : null;
      if (over!.ir_mbps > 400) loose++;
      else expect(over!.ir_mbps).toBeGreaterThanOrEqual(399.98);
      const perf = plan[plan.length - 1]!;
      expect(perf.kind).toBe("performance");
      expect(plan.map((x) => x.at)).toEqual([...plan.map((x) => x.at)].sort((a, b) => a - b));
      for (const s of steps) {
        if (s.kind !== "step") continue;
        expect(s.measurement.ftd_min_ms).toBeLessThanOrEqual(s.measurement.ftd_avg_ms);
        expect(s.measurement.ftd_avg_ms).toBeLessThanOrEqual(s.measurement.ftd_max_ms);
      }
    }
    expect(loose).toBeLessThan(8);
  });
  // Issue 63 item 12: Y.1564's service performance test lasts 15 min, 2 h or 24 h (it was 20 s).
  it("runs the service performance test for the duration chosen, reporting with a link speed sample at each interval", () => {
    const metro = { ...device, id: "metro-duration", kind: "metro" };
    for (const [performanceS, every] of [
      [900, 60],
      [7200, 600],
      [86_400, 3600],
    ] as const) {
      const plan = serviceActivationPlan(1, metro, { cirMbps: 200, eirMbps: 50, peer: "192.0.2.1", startedAt: t0, down: false, performanceS });
      expect(plan[0]!.message).toContain(`then a ${performanceS === 900 ? "15 min" : performanceS === 7200 ? "2 h" : "24 h"} service performance test`);
      const last = plan[plan.length - 1]!;
      expect(last.kind).toBe("performance");
      expect(last.at).toBe(SAT_PERFORMANCE_FROM_MS + performanceS * 1000);
      if (last.kind === "performance") expect(last.measurement.duration_s).toBe(performanceS);
      const progress = plan.filter((x) => x.kind === "performance_progress");
      expect(progress.map((x) => x.at)).toEqual(Array.from({ length: performanceS / every - 1 }, (_, i) => SAT_PERFORMANCE_FROM_MS + (i + 1) * every * 1000));
      // Each step and each interval is a link speed sample: sent at the step's rate (CIR in the performance test), received at most that.
      for (const x of plan) {
        if (x.kind === "step") expect(x.sample).toEqual({ tx_mbps: x.measurement.offered_mbps, rx_mbps: x.measurement.ir_mbps });
        if (x.kind === "performance_progress" || x.kind === "performance") {
          expect(x.sample.tx_mbps).toBe(200);
          expect(x.sample.rx_mbps).toBeLessThanOrEqual(200);
          expect(x.sample.rx_mbps).toBeGreaterThanOrEqual(0);
        }
      }
      expect(plan.map((x) => x.at)).toEqual([...plan.map((x) => x.at)].sort((a, b) => a - b));
    }
  });
  it("fails at once when the link is down", () => {
    const plan = serviceActivationPlan(1, device, { cirMbps: 100, eirMbps: 0, peer: "x", startedAt: t0, down: true, performanceS: 900 });
    expect(plan[plan.length - 1]).toMatchObject({ kind: "failed", message: "The link is down: the test cannot run" });
  });
});
