import { productName } from "../../lib/env.server.ts";
import { messages, uploadErrorMessage } from "../../lib/pcap.ts";
import { pdfRefusal, platformPdf } from "../../lib/platform-pdf.server.ts";
import type { Route } from "./+types/report-pdf";

/*
 * GET /pcap-analyzer/report.pdf?key=…&session=…[&download=1]: the performance insights report of
 * one session (spec 1 §2, §9), proxied from the platform's GET pcap-report-pdf with the session's
 * token and streamed through as it comes. Inline for the dialog's preview; `download=1` makes it
 * an attachment named '{product}-performance-insights-report.pdf' (Download works without JS).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const key = url.searchParams.get("key");
  const session = url.searchParams.get("session");
  if (!key || !session) return pdfRefusal(400, "The report needs a capture key and a session.");
  return platformPdf(request, {
    call: "pcap-report-pdf",
    query: { pcap_file_key: key, session_id: session },
    fileName: `${productName}-performance-insights-report.pdf`,
    download: url.searchParams.get("download") === "1",
    back: `/pcap-analyzer?${new URLSearchParams({ key, session, dialog: "report" }).toString()}`,
    refused: ({ status, body, statusText }) => ({ status, text: status === 404 ? messages.noTestData : (uploadErrorMessage({ status, body, statusText }) ?? messages.unknown) }),
  });
}
