import { describe, expect, it } from "vitest";
import { defaultCriteria, gradePerformance, gradeStep, overallVerdict, type Measured } from "./y1564.ts";

// ITU-T Y.1564 grading on the edge values of each criterion (defaults: FTD ≤ 10 ms, FDV ≤ 5 ms,
// FLR ≤ 0.01 %; CIR+EIR and overshoot: CIR × (1 − FLR) ≤ IR ≤ CIR + EIR).

const sold = { cir_mbps: 100, eir_mbps: 50 };
const ok: Measured = { offered_mbps: 100, ir_mbps: 100, flr_pct: 0, ftd_min_ms: 1, ftd_avg_ms: 2, ftd_max_ms: 3, fdv_ms: 0.5 };
const step = (m: Partial<Measured>, id: Parameters<typeof gradeStep>[0] = "cir_100") => gradeStep(id, { ...ok, ...m }, sold);

describe("Y.1564 service configuration steps at CIR", () => {
  it("passes at the limits and fails just past them", () => {
    expect(step({ ftd_avg_ms: 10 }).result).toBe("pass");
    expect(step({ ftd_avg_ms: 10.001 }).result).toBe("fail");
    expect(step({ fdv_ms: 5 }).result).toBe("pass");
    expect(step({ fdv_ms: 5.001 }).result).toBe("fail");
    expect(step({ flr_pct: 0.01, ir_mbps: 99.99 }).result).toBe("pass");
    expect(step({ flr_pct: 0.011, ir_mbps: 99.989 }).result).toBe("fail");
  });
  it("fails a step that carries less than the offered rate less the allowed loss", () => {
    expect(step({ ir_mbps: 99.99 }).result).toBe("pass");
    const r = step({ ir_mbps: 99.98 });
    expect(r.result).toBe("fail");
    expect(r.reasons[0]).toMatch(/IR 99.98 Mbps is below 99.99 Mbps/);
    expect(step({ offered_mbps: 25, ir_mbps: 25 }, "cir_25")).toMatchObject({ result: "pass", label: "25 % of CIR", reasons: [] });
  });
  it("names every failed criterion", () => {
    const r = step({ ftd_avg_ms: 12, fdv_ms: 6, flr_pct: 0.5, ir_mbps: 99.5 });
    expect(r.reasons).toHaveLength(4);
    expect(r.reasons.join(" ")).toContain("FTD 12 ms is above 10 ms");
  });
  it("takes other criteria", () => {
    expect(gradeStep("cir_50", { ...ok, offered_mbps: 50, ir_mbps: 50, ftd_avg_ms: 12 }, sold, { ...defaultCriteria(), ftd_max_ms: 15 }).result).toBe("pass");
  });
});

describe("Y.1564 CIR + EIR and overshoot", () => {
  // CIR × (1 − 0.01 %) = 99.99 Mbps; CIR + EIR = 150 Mbps.
  it("CIR + EIR: CIR × (1 − FLR) ≤ IR ≤ CIR + EIR, delay not graded (yellow frames)", () => {
    const eir = (ir: number) => step({ offered_mbps: 150, ir_mbps: ir, ftd_avg_ms: 40, fdv_ms: 20, flr_pct: 5 }, "cir_eir").result;
    expect(eir(99.99)).toBe("pass");
    expect(eir(99.98)).toBe("fail");
    expect(eir(150)).toBe("pass");
    expect(eir(150.001)).toBe("fail");
    expect(eir(130)).toBe("pass");
  });
  it("overshoot: the rate held to CIR + EIR passes, more fails", () => {
    const over = (ir: number) => step({ offered_mbps: 187.5, ir_mbps: ir, flr_pct: 20 }, "overshoot");
    expect(over(150).result).toBe("pass");
    expect(over(149).result).toBe("pass");
    expect(over(150.001).result).toBe("fail");
    expect(over(160).reasons[0]).toContain("was not held to CIR + EIR = 150 Mbps");
    expect(over(99.98).result).toBe("fail");
  });
  it("a circuit without EIR: the CIR + EIR step is the CIR", () => {
    expect(gradeStep("cir_eir", { ...ok, ir_mbps: 100 }, { cir_mbps: 100, eir_mbps: 0 }).result).toBe("pass");
    expect(gradeStep("cir_eir", { ...ok, ir_mbps: 100.5 }, { cir_mbps: 100, eir_mbps: 0 }).result).toBe("fail");
  });
});

describe("Y.1564 service performance test and the overall verdict", () => {
  const perf = (m: Partial<Measured & { availability_pct: number }>) => gradePerformance({ ...ok, duration_s: 20, availability_pct: 100, ...m }, sold);
  it("grades availability at its minimum", () => {
    expect(perf({ availability_pct: 99.9 }).result).toBe("pass");
    expect(perf({ availability_pct: 99.899 }).result).toBe("fail");
    expect(perf({ fdv_ms: 5.5 }).reasons).toEqual(["FDV 5.5 ms is above 5 ms"]);
    expect(perf({})).not.toHaveProperty("offered_mbps");
  });
  it("passes only when every step and the performance test pass", () => {
    const pass = { result: "pass" as const };
    const fail = { result: "fail" as const };
    expect(overallVerdict([pass, pass], pass)).toBe("pass");
    expect(overallVerdict([pass, fail], pass)).toBe("fail");
    expect(overallVerdict([pass], fail)).toBe("fail");
    expect(overallVerdict([pass], null)).toBe("fail");
    expect(overallVerdict([], pass)).toBe("fail");
  });
});
