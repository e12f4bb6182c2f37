import { endpoint as pcapEndpointText, messages, PCAP_DEFAULT_PAGE_SIZE, PCAP_SESSION_SORTABLE, type PcapSession } from "../../lib/pcap.ts";
import { pageRows, parseTableQuery } from "../../lib/table.server.ts";
import type { ReportState } from "../pcap-analyzer/report-dialog.tsx";
import { deviceFeed } from "./feeds.server.ts";
import type { DeviceTabContext } from "./model.ts";

/*
 * Application Performance Insights' part of the loader: dashboard_get_app_flows for the device and
 * range (at most 510 flows: bounded), the sessions table searched, sorted and paged by the URL as
 * the PCAP analyzer's is, and with `&session=ID&dialog=report` that flow's report
 * (dashboard_get_app_flow_report) for the PCAP analyzer's report dialog.
 */

export async function load(request: Request, ctx: DeviceTabContext) {
  const feed = await deviceFeed(request, "dashboard_get_app_flows", ctx);
  if (!feed.ok) return { error: feed.error, summary: null, table: null, report: null };
  const { state } = parseTableQuery(request, {
    sortable: PCAP_SESSION_SORTABLE,
    defaultSize: PCAP_DEFAULT_PAGE_SIZE,
    cookieName: "pcap_page_size",
  });
  const table = pageRows<PcapSession>(feed.data.sessions, state, {
    getRowId: (s) => s.session_id,
    search: (s) => `${s.app_name ?? ""} ${pcapEndpointText(s.src_addr, s.src_port)} ${pcapEndpointText(s.dst_addr, s.dst_port)} ${s.proto} ${s.performance} ${s.start_time ?? ""}`,
    sortValue: (s, col) => (col === "src" ? pcapEndpointText(s.src_addr, s.src_port) : col === "dst" ? pcapEndpointText(s.dst_addr, s.dst_port) : s[col as keyof PcapSession]),
  });
  const session = ctx.params.get("dialog") === "report" ? ctx.params.get("session") : null;
  let report: ReportState | null = null;
  if (session) {
    const found = await deviceFeed(request, "dashboard_get_app_flow_report", ctx, { session_id: session });
    // why the field: the dialog reads the PCAP analyzer's report type, whose capture key a device's flow has none of.
    report = found.ok ? { ok: true, report: { ...found.data, pcap_file_key: "" } } : { ok: false, message: messages.noTestData };
  }
  return { error: null, summary: feed.data.summary, table, report };
}
