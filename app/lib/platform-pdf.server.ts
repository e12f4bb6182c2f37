import { callPlatformRaw, sessionEnded, unavailableResponse } from "./api.server.ts";
import { reportPdfHeaders } from "./pdf-headers.ts";
import { requireSession } from "./session.server.ts";
import { observe } from "../../server/observe.mjs";

export { reportPdfHeaders };

/*
 * A PDF the platform draws, proxied to the browser with the caller's token and streamed through as
 * it comes (nothing buffered): the PCAP analyzer's and the dashboard's flow reports, the activation
 * test report, the SLA report. One place for what every such route does: the session, the call
 * (accept PDF), a sign-in that ended (back to the page), the platform's refusal as plain text, the
 * PDF's headers.
 *
 *   export const loader = ({ request }) => platformPdf(request, {
 *     call: "pcap-report-pdf", query: { pcap_file_key: key, session_id: session },
 *     fileName: `${productName}-performance-insights-report.pdf`, download, back: "/pcap-analyzer?…",
 *     refused: () => messages.noTestData,
 *   });
 */

/** A plain-text answer of a PDF route (a refusal the browser shows as it is). */
export function pdfRefusal(status: number, body: string): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

export interface PlatformPdf {
  /** The platform call (GET) and its query. */
  call: string;
  query: Record<string, string>;
  fileName: string;
  /** An attachment (Download) rather than inline (the preview). */
  download: boolean;
  /** Where the sign-in page returns to when the session has ended (the page that showed the PDF). */
  back: string;
  /**
   * The refusal's text and status for a platform answer that is not a PDF (a 502–504 is the
   * console's 'unavailable' page). Default: its status, 422 as 404 (a malformed id is not there).
   */
  refused: (upstream: { status: number; statusText: string; body: string }) => string | { status: number; text: string };
}

export async function platformPdf(request: Request, { call, query, fileName, download, back, refused }: PlatformPdf): Promise<Response> {
  const user = await requireSession(request);
  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", call, { query, headers: { accept: "application/pdf" }, signal: request.signal });
  } catch (error) {
    observe().logger.warn({ err: error, call }, "platform unreachable");
    return unavailableResponse();
  }
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    return sessionEnded(request, back);
  }
  if (!upstream.ok || !upstream.body) {
    const body = await upstream.text().catch(() => "");
    if (upstream.status >= 502 && upstream.status <= 504) return unavailableResponse();
    const answer = refused({ status: upstream.status, statusText: upstream.statusText, body });
    return typeof answer === "string" ? pdfRefusal(upstream.status === 422 ? 404 : upstream.status, answer) : pdfRefusal(answer.status, answer.text);
  }
  const headers = reportPdfHeaders(download, fileName);
  const length = upstream.headers.get("content-length");
  if (length) headers.set("Content-Length", length);
  return new Response(upstream.body, { status: 200, headers });
}
