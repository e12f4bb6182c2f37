import { CSV_BOM, toCsv, type CsvColumn } from "../../lib/csv.ts";
import { parseBody } from "../../lib/api.server.ts";
import { platformPdf } from "../../lib/platform-pdf.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import type { AvailabilityFigures, SlaReport } from "../../../platform/contract/availability.ts";
import { loadSlaReport, slaQueryOf, slaQueryString, type SlaQuery } from "./data.server.ts";

/*
 * The SLA report's downloads (/sla/report.pdf, /sla/report.csv): plain links, no JavaScript. The
 * PDF is the platform's get_sla_report_pdf streamed through; the CSV is get_sla_report's figures,
 * a row for the device (or the entity and then each of its devices), so both equal the platform's.
 */

function text(status: number, body: string) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

const fileName = (q: SlaQuery, ext: string) => `sla-report-${(q.node_id ?? q.entity_id ?? "").replace(/[^A-Za-z0-9._-]/g, "_")}-${q.month}.${ext}`;

async function queryOrRefusal(request: Request): Promise<SlaQuery | Response> {
  await requireSession(request);
  return slaQueryOf(new URL(request.url).searchParams) ?? text(400, "Choose a device or an entity.");
}

export async function slaPdf(request: Request): Promise<Response> {
  const q = await queryOrRefusal(request);
  if (q instanceof Response) return q;
  return platformPdf(request, {
    call: "get_sla_report_pdf",
    query: { ...q } as Record<string, string>,
    fileName: fileName(q, "pdf"),
    download: true,
    back: `/sla?${slaQueryString(q)}`,
    refused: ({ status, body }) => {
      const detail = (parseBody(body) as { detail?: unknown } | null)?.detail;
      return { status: status === 422 ? 400 : status, text: typeof detail === "string" ? detail : "Choose a device or an entity and a month that has begun (YYYY-MM)." };
    },
  });
}

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

export async function slaCsv(request: Request): Promise<Response> {
  const q = await queryOrRefusal(request);
  if (q instanceof Response) return q;
  const r = await loadSlaReport(request, q);
  if (!r.data) return text(r.status === 422 ? 400 : r.status, r.error);
  const name = fileName(q, "csv");
  return new Response(CSV_BOM + toCsv(columns, slaCsvRows(r.data)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
