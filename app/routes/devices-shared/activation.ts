/*
 * The activation test (ITU-T Y.1564) of both kinds of device, spec 3 §4, §5, §7, §8, §9: what the
 * dialogs, the resource routes and the screens (routers, ethernet-devices) share. Zod-free: the
 * page's JavaScript imports it.
 */
import { activationStream, deviceMessages, DEFAULT_Y1564_CRITERIA, DEFAULT_Y1564_PERFORMANCE_DURATION, durationText, y1564PerformanceDurations } from "../../../platform/contract/devices.ts";
import type { ActivationReport } from "../../../platform/contract/devices.ts";
import { deviceKinds, type DeviceKind } from "./kind.ts";

export type { ActivationEvent, ActivationLinkSpeed, ActivationReport, ActivationStarted, Y1564Step, Y1564Performance, Y1564Criteria } from "../../../platform/contract/devices.ts";
export { activationStream, deviceMessages, DEFAULT_Y1564_CRITERIA, DEFAULT_Y1564_PERFORMANCE_DURATION, durationText, y1564PerformanceDurations };

export type { DeviceKind };
/** A kind named by a URL (the resource routes' `:kind`), or null. */
export const kindOf = (s: string | undefined): DeviceKind | null => (s === "cpe" || s === "metro" ? s : null);

/** The dialogs (`?dialog=…&id=<device id>`): the start form, the live view (`&sse_id=`), the report. */
export const activationDialogs = { start: "activation-test", progress: "activation-progress", report: "activation-report" } as const;
/** The live view's parameter naming the test. */
export const SSE_PARAM = "sse_id";
/** Without JavaScript the live view reloads itself every this many seconds until the test is done. */
export const REFRESH_SECONDS = 3;
/** `&refresh=off` on the live view: the user stopped the reloading (WCAG 2.2.1). */
export const REFRESH_PARAM = "refresh";

/** The id field of each kind's calls. */
export const idField = (kind: DeviceKind) => deviceKinds[kind].idField;

/** Our resource route that follows the platform's event stream (check-test-status/<kind>). */
export const activationStreamHref = (kind: DeviceKind, deviceId: string, sseId: string) =>
  `/devices/${kind}/${encodeURIComponent(deviceId)}/activation-events?${new URLSearchParams({ [SSE_PARAM]: sseId })}`;

/** Our resource route for the report's PDF (an attachment: Download works without JavaScript). */
export const activationReportHref = (kind: DeviceKind, deviceId: string) => `/devices/${kind}/${encodeURIComponent(deviceId)}/activation-report.pdf`;

/** The criteria fields of the start form, in the platform's names, with their labels and units. */
export const criteriaFields = [
  { name: "ftd_max_ms", label: "Frame transfer delay at most (ms)" },
  { name: "fdv_max_ms", label: "Frame delay variation at most (ms)" },
  { name: "flr_max_pct", label: "Frame loss ratio at most (%)" },
  { name: "availability_min_pct", label: "Availability at least (%)" },
] as const satisfies readonly { name: keyof typeof DEFAULT_Y1564_CRITERIA; label: string }[];

/** The start form's choice of the service performance test's duration (ITU-T Y.1564: 15 min, 2 h, 24 h; seconds as values). */
export const performanceDurationOptions = y1564PerformanceDurations.map((s) => ({
  value: String(s),
  label: { 900: "15 minutes", 7200: "2 hours", 86400: "24 hours" }[s] + (s === DEFAULT_Y1564_PERFORMANCE_DURATION ? " (default)" : ""),
}));

/** An accelerated test in words (the report's "Clock"), or null for one run in real time. */
export function accelerationText(r: Pick<ActivationReport, "accelerated" | "performance_duration_s">): string | null {
  const a = r.accelerated;
  if (!a) return null;
  const times = (x: number) => (x === 1 ? "in real time" : `${figure(x)} times faster than real time`);
  return `Accelerated: the simulated network ran the configuration test ${times(a.configuration)} and the ${durationText(r.performance_duration_s)} service performance test ${times(a.performance)}.`;
}

/** The live view's state from the events so far. */
export function testState(events: readonly { status: string; progress: number; result: "pass" | "fail" | null }[]) {
  const last = events.at(-1);
  return { done: last ? last.status !== "running" : false, progress: last?.progress ?? 0, status: last?.status ?? "running", result: last?.result ?? null };
}

/** Figures as the report prints them: at most 3 decimals. */
export const figure = (n: number) => String(Math.round(n * 1000) / 1000);
export const verdictLabel = (v: "pass" | "fail" | null) => (v === "pass" ? "PASS" : v === "fail" ? "FAIL" : "N/A");
