import type { Column } from "../../components/data-table.tsx";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime } from "../../lib/format.ts";
import { deploymentLabels, protoLabel, type AppService } from "./model.ts";

/* The App Services table's columns (spec 1 §2), and the same columns for its CSV export. */

export const sortable = ["app_service_name", "app_service_id", "deployment", "op_state", "size", "health", "proto", "port", "created_at"];
export const hideable = ["created_at"];

/** op_state up: a green dot; anything else red (spec 1 §4). The state is also written out. */
function State({ r }: { r: AppService }) {
  const up = r.op_state === "up";
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap">
      {r.admin_state} /{" "}
      <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${up ? "bg-success" : "bg-error"}`} />
      {r.op_state}
    </span>
  );
}

export const columns: Column<AppService>[] = [
  { id: "app_service_name", header: "Service Name", sortable: true, cell: (r) => r.app_service_name },
  { id: "app_service_id", header: "Service ID", sortable: true, cell: (r) => <code className="text-xs">{r.app_service_id}</code> },
  { id: "deployment", header: "Deployment", sortable: true, cell: (r) => deploymentLabels[r.deployment] ?? r.deployment },
  { id: "op_state", header: "Admin / Op State", sortable: true, cell: (r) => <State r={r} /> },
  { id: "size", header: "Size", sortable: true, cell: (r) => r.size },
  { id: "health", header: "Health", sortable: true, cell: (r) => (r.health === null ? "" : `${r.health}%`) },
  { id: "proto", header: "Protocol", sortable: true, cell: (r) => (r.proto ? protoLabel(r.proto) : "") },
  { id: "port", header: "Port", sortable: true, cell: (r) => (r.port === null ? "" : String(r.port)) },
  { id: "created_at", header: "Created at", sortable: true, hidden: true, cell: (r) => <time dateTime={r.created_at}>{formatTime(r.created_at)}</time> },
];

export const csvColumns: CsvColumn<AppService>[] = [
  { header: "Service Name", value: (r) => r.app_service_name },
  { header: "Service ID", value: (r) => r.app_service_id },
  { header: "Deployment", value: (r) => r.deployment },
  { header: "Admin State", value: (r) => r.admin_state },
  { header: "Op State", value: (r) => r.op_state },
  { header: "Size", value: (r) => r.size },
  { header: "Health", value: (r) => (r.health === null ? "" : String(r.health)) },
  { header: "Protocol", value: (r) => r.proto },
  { header: "Port", value: (r) => (r.port === null ? "" : String(r.port)) },
  { header: "Created at", value: (r) => formatTime(r.created_at) },
];
