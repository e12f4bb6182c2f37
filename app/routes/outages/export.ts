import { csvExport } from "../../lib/export.server.ts";
import { formatTime } from "../../lib/format.ts";
import type { CsvColumn } from "../../lib/csv.ts";
import type { OutageHistoryEntry } from "../../../platform/contract/availability.ts";
import type { Route } from "./+types/export";

/*
 * GET /outages/export.csv?node_id=…&range=1h|3h|12h|1d|3d|1w: a device's Outage History (the
 * WAN Link Health tab's table) as CSV, from the platform's export_outage_history.
 */

const columns: CsvColumn<OutageHistoryEntry>[] = [
  { header: "Timestamp", value: (r) => formatTime(r.timestamp) },
  { header: "Status", value: (r) => r.status },
  { header: "Self Diagnosis", value: (r) => r.self_diagnosis },
  { header: "Outage ID", value: (r) => r.outage_id },
];

export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, {
    path: "export_outage_history",
    columns,
    fileName: `outage-history-${(new URL(request.url).searchParams.get("node_id") ?? "device").replace(/[^A-Za-z0-9._-]/g, "_")}.csv`,
    filters: ["node_id", "range"],
  });
