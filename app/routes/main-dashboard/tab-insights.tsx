import { useLocation } from "react-router";
import { parseZoom } from "../../lib/pcap.ts";
import { DegradedBar, SessionsTable } from "../pcap-analyzer/results.tsx";
import { ReportDialog } from "../pcap-analyzer/report-dialog.tsx";
import type { TabProps } from "./tab-props.ts";
import type { load } from "./tab-insights.server.ts";

/*
 * Application Performance Insights (spec 3 §2.14 'App Flows & Performance Analysis'): the device's
 * flows over the range judged as the PCAP analyzer judges a capture's sessions, shown with the
 * analyzer's own parts: the degraded-flow bar, the sessions table (a row opens its report by URL,
 * `&session=ID&dialog=report`) and the report dialog (summary, PDF preview, zoom, Download), whose
 * PDF is /main-dashboard/flow-report.pdf. Everything works without JavaScript.
 */

const pdfHref = (device: string, range: string, session: string) => (download: boolean) => {
  const q = new URLSearchParams({ device, range, session });
  if (download) q.set("download", "1");
  return `/main-dashboard/flow-report.pdf?${q.toString()}`;
};

export default function InsightsTab({ data, device, range }: TabProps<Awaited<ReturnType<typeof load>>>) {
  const params = new URLSearchParams(useLocation().search);
  const { error, summary, table, report } = data;
  if (error || !summary || !table) return <p className="text-error">{error}</p>;
  const session = params.get("session");
  return (
    <section aria-labelledby="app-flows" className="rounded-box bg-base-100 min-w-0 space-y-4 p-4 shadow-sm">
      <h2 id="app-flows" className="text-xl font-semibold">
        App Flows &amp; Performance Analysis
      </h2>
      <DegradedBar summary={summary} />
      <SessionsTable page={table} exportHref={null} />
      {report && session ? <ReportDialog pdfHref={pdfHref(device.id, range, session)} zoom={parseZoom(params.get("zoom"))} state={report} /> : null}
    </section>
  );
}
