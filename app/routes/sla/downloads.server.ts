import { parseBody } from "../../lib/api.server.ts";
import { platformPdf } from "../../lib/platform-pdf.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { slaCsvText } from "./csv.ts";
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

export async function slaCsv(request: Request): Promise<Response> {
  const q = await queryOrRefusal(request);
  if (q instanceof Response) return q;
  const r = await loadSlaReport(request, q);
  if (!r.data) return text(r.status === 422 ? 400 : r.status, r.error);
  const name = fileName(q, "csv");
  return new Response(slaCsvText(r.data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
