/*
 * Availability, the outage record and the SLA report (issue #26 "Beyond the peers"): the constants
 * and messages shared by the platform (platform/routes/availability.ts) and the console
 * (app/routes/outages/, app/routes/sla/, app/routes/main-dashboard/availability.tsx). Plain
 * TypeScript without dependencies: the console may import these values in client code.
 */
import { entityMessages, monitoringMessages } from "./messages.ts";

export type { Availability, AvailabilityFigures, DeviceAvailability, OutageHistoryEntry, OutageRecord, SlaReport, SlaOutage } from "./availability.shapes.ts";

/** The service level objective the figures are held against. */
export const SLO_PERCENT = 99.9;
/** 0.1 % of an average month (365.25 / 12 days): the line the report prints. */
export const SLO_MONTH_MINUTES = 43.8;

/** The named ranges availability and the outage history take (the health tab's toggle). */
export const availabilityRanges = ["1h", "3h", "12h", "1d", "3d", "1w"] as const;
export type AvailabilityRange = (typeof availabilityRanges)[number];

/** A device (CPE or metro id) or an entity. */
export type AvailabilityScope = { node_id: string } | { entity_id: string };

export const availabilityMessages = {
  label: "excl. maintenance",
  sloLine: `SLO ${SLO_PERCENT} % ≈ ${SLO_MONTH_MINUTES} minutes a month`,
  deviceNotFound: "Device not found",
  entityNotFound: entityMessages.notFound,
  outageNotFound: monitoringMessages.outageNotFound,
  oneScope: "Give either node_id or entity_id.",
  oneWindow: "Give either range or month.",
  month: "Month must be YYYY-MM, from 2000-01 to the current month.",
  allMaintenance: "N/A: the whole window was announced maintenance",
  noData: "N/A: no monitoring data in that window",
  noDataMonth: "N/A: no monitoring data in that month",
} as const;

/** 'YYYY-MM' of a time (UTC). */
export const monthOf = (t: number | Date) => new Date(t).toISOString().slice(0, 7);

// One formatter, made once: toLocaleString with options builds one per call (~30 µs each).
const n3Format = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });
/** A figure as every report prints it: up to 3 decimals, thousands separated ('43,200', '99.861'). */
export const n3 = (v: number) => n3Format.format(v);
/** Why there is no percentage, in words ('month': the window is a calendar month). */
export const naText = (f: { na_reason: "no_data" | "maintenance" | null }, month = false) =>
  f.na_reason === "maintenance" ? availabilityMessages.allMaintenance : month ? availabilityMessages.noDataMonth : availabilityMessages.noData;
/** The headline: '99.861 %', or why there is none. */
export const uptimeText = (f: { uptime_percent: number | null; na_reason: "no_data" | "maintenance" | null; window?: string }, month = /^\d{4}-\d{2}$/.test(f.window ?? "")) =>
  f.uptime_percent === null ? naText(f, month) : `${n3(f.uptime_percent)} %`;
/**
 * A duration given in minutes, as a reader takes it in: seconds under a minute (a device watched
 * for a few minutes has an SLO budget of '0.66 seconds', not '0.011 minutes'), minutes otherwise.
 * (The outage page's durationText takes seconds and says '3 min 20 s'.)
 */
export const minutesText = (minutes: number) => {
  const [value, unit] = minutes > 0 && minutes < 1 ? [minutes * 60, "second"] : [minutes, "minute"];
  return `${n3(value)} ${unit}${n3(value) === "1" ? "" : "s"}`;
};

/**
 * Where a device's record starts inside (or after) the window: counting starts there, not at the
 * window's start ('' when the record covers the whole window, or for an entity). `time` formats an ISO time.
 */
export function recordNote(report: { scope: "device" | "entity"; start: string; end: string; devices: readonly { counted_from: string }[] }, time: (iso: string) => string): string {
  const d = report.scope === "device" ? report.devices[0] : undefined;
  if (!d || d.counted_from <= report.start) return "";
  return d.counted_from >= report.end
    ? "The device's record starts after this window: there is no monitoring data to count."
    : `Counted from ${time(d.counted_from)}, when the device's record starts.`;
}
