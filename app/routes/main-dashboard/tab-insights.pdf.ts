import { productName } from "../../lib/env.server.ts";
import { platformPdf } from "../../lib/platform-pdf.server.ts";
import { flowNotFound } from "../../../platform/contract/monitoring-insights.ts";
import type { Route } from "./+types/tab-insights.pdf";

/*
 * GET /main-dashboard/flow-report.pdf?device=…&range=…&session=…[&download=1]: the PCAP analyzer's
 * performance insights report of one of the device's flows (platform
 * dashboard_get_app_flow_report_pdf), streamed through: inline for the report dialog's preview,
 * an attachment with `download=1` (works without JavaScript).
 */

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const device = params.get("device") ?? "";
  return platformPdf(request, {
    call: "dashboard_get_app_flow_report_pdf",
    query: {
      node_id: device,
      range: params.get("range") ?? "",
      session_id: params.get("session") ?? "",
    },
    fileName: `${productName}-performance-insights-report.pdf`,
    download: params.get("download") === "1",
    back: `/main-dashboard?tab=performance&device=${encodeURIComponent(device)}`,
    // An unknown device or flow, or a malformed query (422 → 404): the flow is not there.
    refused: () => flowNotFound,
  });
}
