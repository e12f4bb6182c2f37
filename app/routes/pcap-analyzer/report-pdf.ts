import { productName } from "../../lib/env.server.ts";
import { messages, uploadErrorMessage } from "../../lib/pcap.ts";
import { callPlatformRaw, platformUnavailable, sessionEnded } from "../../lib/pcap.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import type { Route } from "./+types/report-pdf";

/*
 * GET /pcap-analyzer/report.pdf?key=…&session=…[&download=1]: the performance insights report of
 * one session (spec 1 §2, §9), proxied from the platform's GET pcap-report-pdf with the session's
 * token and streamed through as it comes. Inline for the dialog's preview; `download=1` makes it
 * an attachment named '{product}-performance-insights-report.pdf' (Download works without JS).
 */

function text(status: number, body: string) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

/**
 * The PDF's headers. Inline (the dialog's preview, an <object> of the page: issue 27 item 11) it
 * may be embedded by its own origin only (frame-ancestors 'self', X-Frame-Options SAMEORIGIN); the
 * page's CSP allows exactly this path as an object (app/lib/csp.server.ts). It runs nothing.
 */
export function reportPdfHeaders(download: boolean, fileName: string): Headers {
  const asciiName = fileName.replace(/[^\x20-\x7E]|["\\]/g, "_");
  return new Headers({
    "Content-Type": "application/pdf",
    "Content-Disposition": `${download ? "attachment" : "inline"}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": download ? "DENY" : "SAMEORIGIN",
    "Content-Security-Policy": `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${download ? "'none'" : "'self'"}`,
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const url = new URL(request.url);
  const key = url.searchParams.get("key");
  const session = url.searchParams.get("session");
  if (!key || !session) return text(400, "The report needs a capture key and a session.");
  const download = url.searchParams.get("download") === "1";

  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", "pcap-report-pdf", {
      query: { pcap_file_key: key, session_id: session },
      headers: { accept: "application/pdf" },
      signal: request.signal,
    });
  } catch (error) {
    console.error("[console] platform unreachable for pcap-report-pdf:", (error as Error).message);
    return platformUnavailable();
  }
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    const back = new URL("/pcap-analyzer", url);
    back.search = new URLSearchParams({ key, session, dialog: "report" }).toString();
    return sessionEnded(request, back.pathname + back.search);
  }
  if (!upstream.ok || !upstream.body) {
    const body = await upstream.text().catch(() => "");
    if (upstream.status === 404) return text(404, messages.noTestData);
    if (upstream.status >= 502 && upstream.status <= 504) return platformUnavailable();
    return text(upstream.status, uploadErrorMessage({ status: upstream.status, body, statusText: upstream.statusText }) ?? messages.unknown);
  }

  const headers = reportPdfHeaders(download, `${productName}-performance-insights-report.pdf`);
  const length = upstream.headers.get("content-length");
  if (length) headers.set("Content-Length", length);
  // The body is passed on as a stream: nothing is buffered here.
  return new Response(upstream.body, { status: 200, headers });
}
