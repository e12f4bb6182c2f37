import { CSV_BOM, toCsv, type CsvColumn } from "../../lib/csv.ts";
import type { AvailabilityFigures, SlaReport } from "../../../platform/contract/availability.ts";

/*
 * The SLA report as CSV (/sla/report.csv): get_sla_report's figures, a row for the device (or the
 * entity and then each of its devices). Pure, so the platform's test of every surface reads the
 * same file a customer downloads.
 */

type Row = AvailabilityFigures & { scope: string; id: string; name: string; month: string; start: string; end: string };

const columns: CsvColumn<Row>[] = [
  { header: "Scope", value: (r) => r.scope },
  { header: "ID", value: (r) => r.id },
  { header: "Name", value: (r) => r.name },
  { header: "Month", value: (r) => r.month },
  { header: "Counted From (UTC)", value: (r) => r.start },
  { header: "Counted To (UTC)", value: (r) => r.end },
  { header: "Availability excl. maintenance (%)", value: (r) => r.uptime_percent },
  { header: "Downtime (minutes)", value: (r) => r.downtime_minutes },
  { header: "Outages", value: (r) => r.outages },
  { header: "Announced Maintenance (minutes)", value: (r) => r.maintenance_minutes },
  { header: "Minutes Counted", value: (r) => r.window_minutes },
  { header: "SLO (%)", value: (r) => r.slo_percent },
  { header: "SLO Budget (minutes)", value: (r) => r.slo_budget_minutes },
  { header: "SLO Met", value: (r) => (r.slo_met === null ? "" : r.slo_met ? "yes" : "no") },
];

/** The report as CSV rows: its own, then (an entity) each device's. */
export function slaCsvRows(r: SlaReport): Row[] {
  const own: Row = { ...r, scope: r.scope };
  const devices = r.scope === "entity" ? r.devices.map((d): Row => ({ ...d, scope: "device", id: d.node_id, month: r.month, start: d.counted_from, end: r.end })) : [];
  return [own, ...devices];
}

/** The whole file, byte order mark first (as served). */
export const slaCsvText = (r: SlaReport): string => CSV_BOM + toCsv(columns, slaCsvRows(r));
