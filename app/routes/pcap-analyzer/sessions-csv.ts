import { data } from "react-router";
import { apiGet, detailText } from "../../lib/api.server.ts";
import { toCsv } from "../../lib/csv.ts";
import { endpoint, messages, PCAP_SESSION_SORTABLE, type PcapSession } from "../../lib/pcap.ts";
import { requireSession } from "../../lib/session.server.ts";
import { parseTableQuery } from "../../lib/table.server.ts";
import type { Route } from "./+types/sessions-csv";
import { sessionQuery } from "./sessions-query.ts";
import { vniFromUrl } from "./mirror.tsx";

/*
 * GET /pcap-analyzer/sessions.csv?key=…&name=…&q=…&sort=…[&vni=…]: the sessions the table's search
 * (and VNI filter) selects (every page), in the table's order, as CSV. The platform searches and sorts.
 */

const columns: { header: string; value: (s: PcapSession) => string | number | null }[] = [
  { header: "Start Time", value: (s) => s.start_time },
  { header: "End Time", value: (s) => s.end_time },
  { header: "App", value: (s) => s.app_name },
  { header: "Server Name", value: (s) => s.server_name },
  { header: "Source", value: (s) => endpoint(s.src_addr, s.src_port) },
  { header: "Destination", value: (s) => endpoint(s.dst_addr, s.dst_port) },
  { header: "Protocol", value: (s) => s.proto.toUpperCase() },
  { header: "TX Bytes", value: (s) => s.tx_bytes },
  { header: "RX Bytes", value: (s) => s.rx_bytes },
  { header: "TX Packets", value: (s) => s.tx_packets },
  { header: "RX Packets", value: (s) => s.rx_packets },
  { header: "Performance", value: (s) => s.performance },
  // How Source (the client) was told from Destination: SYN, well-known port or port order.
  { header: "Client Chosen By", value: (s) => s.client_chosen_by },
];
// Mirrored traffic: the mirror session (encapsulation, VNI, outer addresses), a column only for an
// encapsulated capture (as in the table): a plain capture's CSV is as it was.
const mirrorColumn = { header: "Mirror Session", value: (s: PcapSession) => s.mirror_session ?? null };

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const params = new URL(request.url).searchParams;
  const key = params.get("key");
  const name = params.get("name");
  if (!key || !name) throw data({ message: messages.noTestData }, { status: 400 });
  const { state } = parseTableQuery(request, { sortable: PCAP_SESSION_SORTABLE });
  const res = await apiGet(request, "analyze-s3-pcap", { pcap_file_key: key, pcap_file_name: name, ...sessionQuery(state, false, vniFromUrl(params.get("vni"))) });
  if (!res.ok) throw data({ message: detailText(res.detail, messages.unknown) }, { status: res.status === 404 ? 404 : 400 });
  // Queued or running (202): no sessions yet.
  if (res.data.state !== "done") throw data({ message: messages.stillAnalyzing }, { status: 409, headers: { "Retry-After": "1" } });
  const base = name.replace(/\.(pcapng|pcap|cap)$/i, "").replace(/[^\w.-]+/g, "_").slice(0, 100) || "capture";
  return new Response(toCsv(res.data.encapsulation ? [...columns, mirrorColumn] : columns, res.data.sessions), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${base}-sessions.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
