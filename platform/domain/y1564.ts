import { DEFAULT_Y1564_CRITERIA, y1564StepLabels, type Y1564StepId } from "../contract/devices.ts";
import type { Y1564Criteria, Y1564Performance, Y1564Step } from "../contract/devices.shapes.ts";
import type { SatMeasurement } from "../fleet/devices.ts";

/*
 * ITU-T Y.1564 grading: pure functions from a step's measurements and the service acceptance
 * criteria (SAC) to a verdict with its reasons.
 *
 * - CIR steps (25, 50, 75, 100 % of CIR): FLR ≤ FLR_max, FTD ≤ FTD_max (the step's mean frame
 *   transfer delay), FDV ≤ FDV_max, and the information rate carried: IR ≥ offered × (1 − FLR_max).
 * - CIR + EIR: frames over CIR (yellow) carry no SAC; the step passes when
 *   CIR × (1 − FLR_max) ≤ IR ≤ CIR + EIR.
 * - Overshoot (125 % of CIR + EIR): the policer holds the rate: CIR × (1 − FLR_max) ≤ IR ≤ CIR + EIR.
 * - Service performance test (at CIR): the CIR step's criteria plus availability ≥ its minimum.
 * Defaults: FTD ≤ 10 ms, FDV ≤ 5 ms, FLR ≤ 0.01 %, availability ≥ 99.9 %.
 */

export type Criteria = Y1564Criteria;
export const defaultCriteria = (): Criteria => ({ ...DEFAULT_Y1564_CRITERIA });

/** What a step measured: the fleet's SAT measurement (one definition). */
export type Measured = SatMeasurement;

/** Rates are reported to 1 kbit/s: comparisons allow that rounding and nothing more. */
const EPS = 0.0005;
const fmt = (v: number) => String(Math.round(v * 1000) / 1000);

function sacReasons(m: Measured, c: Criteria): string[] {
  const reasons: string[] = [];
  if (m.flr_pct > c.flr_max_pct) reasons.push(`FLR ${fmt(m.flr_pct)} % is above ${fmt(c.flr_max_pct)} %`);
  if (m.ftd_avg_ms > c.ftd_max_ms) reasons.push(`FTD ${fmt(m.ftd_avg_ms)} ms is above ${fmt(c.ftd_max_ms)} ms`);
  if (m.fdv_ms > c.fdv_max_ms) reasons.push(`FDV ${fmt(m.fdv_ms)} ms is above ${fmt(c.fdv_max_ms)} ms`);
  return reasons;
}

/** The least a step may carry: `rate` less the loss the criteria allow. */
const floorOf = (rate: number, c: Criteria) => rate * (1 - c.flr_max_pct / 100);

/** The verdict of one service configuration step. */
export function gradeStep(step: Y1564StepId, m: Measured, sold: { cir_mbps: number; eir_mbps: number }, c: Criteria = defaultCriteria()): Y1564Step {
  const reasons: string[] = [];
  const cirEir = sold.cir_mbps + sold.eir_mbps;
  if (step === "cir_eir" || step === "overshoot") {
    const low = floorOf(sold.cir_mbps, c);
    if (m.ir_mbps < low - EPS) reasons.push(`IR ${fmt(m.ir_mbps)} Mbps is below CIR × (1 - FLR) = ${fmt(low)} Mbps`);
    if (m.ir_mbps > cirEir + EPS) {
      reasons.push(step === "overshoot" ? `IR ${fmt(m.ir_mbps)} Mbps was not held to CIR + EIR = ${fmt(cirEir)} Mbps` : `IR ${fmt(m.ir_mbps)} Mbps is above CIR + EIR = ${fmt(cirEir)} Mbps`);
    }
  } else {
    const low = floorOf(m.offered_mbps, c);
    if (m.ir_mbps < low - EPS) reasons.push(`IR ${fmt(m.ir_mbps)} Mbps is below ${fmt(low)} Mbps`);
    reasons.push(...sacReasons(m, c));
  }
  return { step, label: y1564StepLabels[step], ...m, result: reasons.length ? "fail" : "pass", reasons };
}

/** The verdict of the service performance test at CIR. */
export function gradePerformance(m: Measured & { duration_s: number; availability_pct: number }, sold: { cir_mbps: number }, c: Criteria = defaultCriteria()): Y1564Performance {
  const reasons: string[] = [];
  const low = floorOf(sold.cir_mbps, c);
  if (m.ir_mbps < low - EPS) reasons.push(`IR ${fmt(m.ir_mbps)} Mbps is below ${fmt(low)} Mbps`);
  reasons.push(...sacReasons(m, c));
  if (m.availability_pct < c.availability_min_pct) reasons.push(`Availability ${fmt(m.availability_pct)} % is below ${fmt(c.availability_min_pct)} %`);
  const { offered_mbps: _offered, ...rest } = m;
  return { ...rest, result: reasons.length ? "fail" : "pass", reasons };
}

/** The overall verdict: every step and the performance test passed. */
export function overallVerdict(steps: readonly { result: "pass" | "fail" }[], performance: { result: "pass" | "fail" } | null): "pass" | "fail" {
  return performance !== null && performance.result === "pass" && steps.length > 0 && steps.every((s) => s.result === "pass") ? "pass" : "fail";
}
