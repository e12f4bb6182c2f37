import { callPlatformRaw, sessionEnded, unavailableResponse } from "../../lib/api.server.ts";
import { pdfRefusal, platformPdf } from "../../lib/platform-pdf.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { observe } from "../../../server/observe.mjs";

/*
 * A report made, downloaded from the console (/reports/:reportId/report.pdf and .csv, the links
 * of the history and of the e-mail): the platform's download_report/{id} streamed through with
 * the signed-in user's token. Plain links, no JavaScript.
 */

const notFound = "This report does not exist, or is not made yet.";
const fileBase = (reportId: string) => `service-report-${reportId.replace(/[^A-Za-z0-9._-]/g, "_")}`;

export function reportPdf(request: Request, reportId: string): Promise<Response> {
  return platformPdf(request, {
    call: `download_report/${encodeURIComponent(reportId)}`,
    query: { format: "pdf" },
    fileName: `${fileBase(reportId)}.pdf`,
    download: true,
    back: "/reports",
    refused: () => notFound,
  });
}

export async function reportCsv(request: Request, reportId: string): Promise<Response> {
  const user = await requireSession(request);
  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", `download_report/${encodeURIComponent(reportId)}`, { query: { format: "csv" }, headers: { accept: "text/csv" }, signal: request.signal });
  } catch (error) {
    observe().logger.warn({ err: error }, "platform unreachable");
    return unavailableResponse();
  }
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    return sessionEnded(request, "/reports");
  }
  if (!upstream.ok || !upstream.body) {
    await upstream.body?.cancel();
    if (upstream.status >= 502 && upstream.status <= 504) return unavailableResponse();
    return pdfRefusal(upstream.status === 422 ? 404 : upstream.status, notFound);
  }
  return new Response(upstream.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${fileBase(reportId)}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
