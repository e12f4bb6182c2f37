import { describe, expect, it } from "vitest";
import { availabilityFigures, combinedFigures, monthWindow } from "./availability.ts";

/* The availability formula on its edges (issue #26): pure, no database. */

const MIN = 60_000;
const DAY = 1440 * MIN;
const nov = monthWindow("2026-11"); // 30 days: 43,200 minutes
const at = (m: number) => nov.start + m * MIN;
const iv = (a: number, b: number) => ({ start: at(a), end: at(b) });

describe("availabilityFigures", () => {
  it("a month without outages is 100 % with the SLO budget of 0.1 % of it", () => {
    const f = availabilityFigures({ ...nov, outages: [], maintenance: [] });
    expect(f).toEqual({
      window_minutes: 43200,
      maintenance_minutes: 0,
      downtime_minutes: 0,
      outages: 0,
      uptime_percent: 100,
      na_reason: null,
      slo_percent: 99.9,
      slo_budget_minutes: 43.2,
      slo_met: true,
    });
  });

  it("(window − downtime − maintenance) / (window − maintenance), to 3 decimals", () => {
    // 60 min down, 120 min maintenance elsewhere: (43200 − 60 − 120) / (43200 − 120).
    const f = availabilityFigures({ ...nov, outages: [iv(100, 160)], maintenance: [iv(1000, 1120)] });
    expect(f.downtime_minutes).toBe(60);
    expect(f.maintenance_minutes).toBe(120);
    expect(f.uptime_percent).toBe(Math.round(((43200 - 60 - 120) / (43200 - 120)) * 100000) / 1000);
    expect(f.uptime_percent).toBe(99.861);
    expect(f.slo_met).toBe(false);
  });

  it("an outage overlapping maintenance counts only outside it", () => {
    // Down 100–160, maintenance 130–200: 30 minutes count.
    const f = availabilityFigures({ ...nov, outages: [iv(100, 160)], maintenance: [iv(130, 200)] });
    expect(f.downtime_minutes).toBe(30);
    expect(f.maintenance_minutes).toBe(70);
    expect(f.outages).toBe(1);
    expect(f.uptime_percent).toBe(Math.round(((43200 - 70 - 30) / (43200 - 70)) * 100000) / 1000);
  });

  it("an outage wholly inside maintenance is neither downtime nor an outage", () => {
    const f = availabilityFigures({ ...nov, outages: [iv(140, 150)], maintenance: [iv(130, 200)] });
    expect(f).toMatchObject({ downtime_minutes: 0, outages: 0, uptime_percent: 100, slo_met: true });
  });

  it("the window's edges clip outages and maintenance that cross them", () => {
    const f = availabilityFigures({
      ...nov,
      outages: [
        { start: nov.start - 30 * MIN, end: nov.start + 10 * MIN },
        { start: nov.end - 5 * MIN, end: nov.end + 60 * MIN },
        { start: nov.end, end: nov.end + MIN },
      ],
      maintenance: [{ start: nov.start - DAY, end: nov.start + 60 * MIN }],
    });
    // The first outage lies in maintenance within the window; only the last 5 minutes of the month count.
    expect(f.maintenance_minutes).toBe(60);
    expect(f.downtime_minutes).toBe(5);
    expect(f.outages).toBe(1);
  });

  it("a device created mid-month is counted from its creation", () => {
    const created = at(15 * 1440); // 15 days in
    const f = availabilityFigures({ start: created, end: nov.end, outages: [iv(100, 400), iv(15 * 1440 + 10, 15 * 1440 + 40)], maintenance: [] });
    expect(f.window_minutes).toBe(15 * 1440);
    expect(f.downtime_minutes).toBe(30);
    expect(f.outages).toBe(1);
    expect(f.slo_budget_minutes).toBe(21.6);
    expect(f.uptime_percent).toBe(Math.round(((21600 - 30) / 21600) * 100000) / 1000);
  });

  it("overlapping outages count their union once, and each outage once", () => {
    const f = availabilityFigures({ ...nov, outages: [iv(100, 160), iv(150, 200), iv(300, 301)], maintenance: [iv(190, 195), iv(192, 198)] });
    // Union 100–200 (100 min) less maintenance 190–198 (8 min) = 92, plus 1.
    expect(f.downtime_minutes).toBe(93);
    expect(f.maintenance_minutes).toBe(8);
    expect(f.outages).toBe(3);
  });

  it("maintenance covering the whole window leaves no percentage", () => {
    const f = availabilityFigures({ ...nov, outages: [iv(10, 20)], maintenance: [{ start: nov.start - DAY, end: nov.end + DAY }] });
    expect(f).toMatchObject({ window_minutes: 43200, maintenance_minutes: 43200, downtime_minutes: 0, outages: 0, uptime_percent: null, na_reason: "maintenance", slo_budget_minutes: 0, slo_met: null });
  });

  it("an empty window (created after it ended) leaves no percentage", () => {
    const f = availabilityFigures({ start: nov.end, end: nov.end, outages: [], maintenance: [] });
    expect(f).toMatchObject({ window_minutes: 0, uptime_percent: null, na_reason: "no_data", slo_met: null });
  });

  it("says why there is no percentage: no monitoring data is not announced maintenance (issue 63 item 3)", () => {
    // The record starts after the month: nothing monitored, whatever maintenance there is (none here).
    expect(availabilityFigures({ start: nov.end, end: nov.end, outages: [], maintenance: [], budgetFrom: nov.start })).toMatchObject({ maintenance_minutes: 0, na_reason: "no_data" });
    expect(availabilityFigures({ ...nov, outages: [], maintenance: [{ start: nov.start, end: nov.end }] })).toMatchObject({ na_reason: "maintenance" });
    expect(availabilityFigures({ ...nov, outages: [], maintenance: [] }).na_reason).toBeNull();
  });

  it("the SLO's allowance is the window's, not shrunk by where counting starts (issue 63 item 1)", () => {
    const end = nov.start + 40 * DAY;
    // 1 h at 99.9 % allows 3.6 s; 1 week 604.8 s: also when the record starts 10 minutes before the end.
    const hour = availabilityFigures({ start: end - 10 * MIN, end, outages: [], maintenance: [], budgetFrom: end - 60 * MIN });
    expect(hour.slo_budget_minutes * 60).toBeCloseTo(3.6, 3);
    expect(hour.window_minutes).toBe(10);
    const week = availabilityFigures({ start: end - 7 * DAY, end, outages: [], maintenance: [] });
    expect(week.slo_budget_minutes * 60).toBeCloseTo(604.8, 3);
    // Announced maintenance is left out of the allowance too.
    const maintained = availabilityFigures({ start: end - 60 * MIN, end, outages: [], maintenance: [{ start: end - 30 * MIN, end }] });
    expect(maintained.slo_budget_minutes * 60).toBeCloseTo(1.8, 3);
  });
});

describe("combinedFigures", () => {
  it("an entity adds its devices' minutes: device-minutes, not an average of percentages", () => {
    const a = availabilityFigures({ ...nov, outages: [iv(0, 432)], maintenance: [] }); // 99 %
    const b = availabilityFigures({ start: at(21600), end: nov.end, outages: [], maintenance: [iv(21600, 22600)] }); // half the month, 100 %
    const e = combinedFigures([a, b]);
    expect(e.window_minutes).toBe(43200 + 21600);
    expect(e.maintenance_minutes).toBe(1000);
    expect(e.downtime_minutes).toBe(432);
    expect(e.outages).toBe(1);
    expect(e.uptime_percent).toBe(Math.round(((64800 - 1000 - 432) / (64800 - 1000)) * 100000) / 1000);
    expect(e.slo_budget_minutes).toBeCloseTo(a.slo_budget_minutes + b.slo_budget_minutes, 3);
  });

  it("no devices: no percentage", () => {
    expect(combinedFigures([])).toMatchObject({ window_minutes: 0, uptime_percent: null });
  });
});

describe("monthWindow", () => {
  it("is the UTC calendar month, December into January", () => {
    expect(monthWindow("2026-12")).toEqual({ start: Date.UTC(2026, 11, 1), end: Date.UTC(2027, 0, 1) });
    expect((monthWindow("2028-02").end - monthWindow("2028-02").start) / DAY).toBe(29);
  });
});
