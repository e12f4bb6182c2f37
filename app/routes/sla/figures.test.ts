import { describe, expect, it } from "vitest";
import type { AvailabilityFigures } from "../../../platform/contract/availability.ts";
import { minutesText, sloText, uptimeText } from "./figures.tsx";

const figures = (over: Partial<AvailabilityFigures>): AvailabilityFigures => ({
  window_minutes: 1440,
  maintenance_minutes: 0,
  downtime_minutes: 0,
  outages: 0,
  uptime_percent: 100,
  na_reason: null,
  slo_percent: 99.9,
  slo_budget_minutes: 1.44,
  slo_met: true,
  ...over,
});

describe("sloText", () => {
  it("says what was used of what the SLO allows, met or missed", () => {
    expect(sloText(figures({ downtime_minutes: 0.5 }))).toBe("met: 0.5 of the 1.44 minutes of downtime it allows in this window");
    expect(sloText(figures({ downtime_minutes: 12.25, slo_met: false, outages: 1 }))).toBe("missed: 12.25 minutes of downtime, over the 1.44 it allows in this window");
  });
  it("says why nothing applies when no minute was counted", () => {
    expect(sloText(figures({ uptime_percent: null, slo_met: null, maintenance_minutes: 1440, slo_budget_minutes: 0 }))).toBe("not applicable: no minutes counted in this window");
  });
  it("speaks seconds when the budget is under a minute (a device watched for a few minutes)", () => {
    expect(sloText(figures({ window_minutes: 11, slo_budget_minutes: 0.011 }))).toBe("met: 0 of the 0.66 seconds of downtime it allows in this window");
    expect(sloText(figures({ window_minutes: 11, slo_budget_minutes: 0.011, downtime_minutes: 0.5, slo_met: false }))).toBe("missed: 30 seconds of downtime, over the 0.66 it allows in this window");
    // The larger figure decides: a minute or more of either keeps both in minutes.
    expect(sloText(figures({ window_minutes: 11, slo_budget_minutes: 0.011, downtime_minutes: 2, slo_met: false }))).toBe("missed: 2 minutes of downtime, over the 0.011 it allows in this window");
  });
});

describe("minutesText", () => {
  it("is seconds under a minute, minutes otherwise", () => {
    expect(minutesText(0)).toBe("0 minutes");
    expect(minutesText(0.25)).toBe("15 seconds");
    expect(minutesText(1)).toBe("1 minute");
    expect(minutesText(1 / 60)).toBe("1 second");
    expect(minutesText(12.3456)).toBe("12.346 minutes");
  });
});

describe("uptimeText", () => {
  it("says which reason leaves no percentage: no monitoring data, or a window of announced maintenance (issue 63 item 3)", () => {
    const none = figures({ window_minutes: 0, uptime_percent: null, slo_met: null, na_reason: "no_data" });
    expect(uptimeText(none, true)).toBe("N/A: no monitoring data in that month");
    expect(uptimeText(none)).toBe("N/A: no monitoring data in that window");
    expect(uptimeText({ ...none, window: "2026-11" })).toBe("N/A: no monitoring data in that month");
    const maintenance = figures({ maintenance_minutes: 1440, uptime_percent: null, slo_met: null, na_reason: "maintenance" });
    expect(uptimeText(maintenance, true)).toBe("N/A: the whole window was announced maintenance");
    expect(uptimeText(figures({ uptime_percent: 99.861 }))).toBe("99.861 %");
  });
});
