import type { Column } from "../../components/data-table.tsx";
import { adminOpStateCell } from "../../components/op-state.tsx";
import { h, timeCell } from "../../components/cell.ts";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime } from "../../lib/format.ts";
import { deploymentLabel, type Endpoint } from "./model.ts";

/* The Endpoints table's columns, and the same columns (labels, formats) for its CSV export. */

export const sortable = ["ep_name", "ep_id", "deployment", "app_service_id", "admin_state", "op_state", "size", "approval_status", "created_at"];
export const hideable = ["approval_status", "created_at"];

export const columns: Column<Endpoint>[] = [
  { id: "ep_name", header: "EP Name", sortable: true, cell: (r) => r.ep_name, className: "min-w-32" },
  { id: "ep_id", header: "EP Id", sortable: true, cell: (r) => h("span", { class: "font-mono text-xs whitespace-nowrap" }, r.ep_id) },
  { id: "deployment", header: "Deployment", sortable: true, cell: (r) => deploymentLabel(r.deployment) },
  { id: "app_service_id", header: "App Service", sortable: true, cell: (r) => r.app_service_name || r.app_service_id },
  {
    id: "admin_state",
    header: "Admin/Op State",
    sortable: true,
    cell: (r) => adminOpStateCell(r.admin_state, r.op_state),
  },
  { id: "size", header: "Size", sortable: true, cell: (r) => r.size },
  { id: "approval_status", header: "Approval", sortable: true, hidden: true, cell: (r) => r.approval_status },
  {
    id: "created_at",
    header: "Created at",
    sortable: true,
    hidden: true,
    cell: (r) => timeCell(r.created_at),
    className: "whitespace-nowrap",
  },
];

export const csvColumns: CsvColumn<Endpoint>[] = [
  { header: "EP Name", value: (r) => r.ep_name },
  { header: "EP Id", value: (r) => r.ep_id },
  { header: "Deployment", value: (r) => deploymentLabel(r.deployment) },
  { header: "App Service", value: (r) => r.app_service_name || r.app_service_id },
  { header: "App Service Id", value: (r) => r.app_service_id },
  { header: "Admin State", value: (r) => r.admin_state },
  { header: "Op State", value: (r) => r.op_state },
  { header: "Size", value: (r) => r.size },
  { header: "Approval", value: (r) => r.approval_status },
  { header: "Region", value: (r) => r.region },
  { header: "IP Address", value: (r) => r.ip_addr },
  { header: "Created at", value: (r) => formatTime(r.created_at) },
];
