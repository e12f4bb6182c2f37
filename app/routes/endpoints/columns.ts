import { adminOpStateColumns, idColumn, listColumns, timeColumn } from "../../components/columns.ts";
import { adminOpStateCell } from "../../components/op-state.tsx";
import { endpointSortable } from "../../../platform/contract/endpoints.ts";
import { deploymentLabel, type Endpoint } from "./model.ts";
import { defineListScreen } from "../../components/list-screen.tsx";

/* The Endpoints table's columns, and the same columns (labels, formats) for its CSV export. */

export const sortable = endpointSortable;
export const hideable = ["approval_status", "created_at"];
/** The fields the columns and the row menu read: the only ones the page's rows carry (an endpoint has 40; issue 27 item 19). */
export const tableFields = ["ep_id", "ep_name", "deployment", "app_service_id", "app_service_name", "admin_state", "op_state", "size", "approval_status", "created_at"] as const;

export const { columns, csvColumns } = listColumns<Endpoint>([
  { id: "ep_name", header: "EP Name", sortable: true, text: (r) => r.ep_name, className: "min-w-32" },
  idColumn("ep_id", "EP Id", { sortable: true }),
  { id: "deployment", header: "Deployment", sortable: true, text: (r) => deploymentLabel(r.deployment) },
  { id: "app_service_id", header: "App Service", sortable: true, text: (r) => r.app_service_name || r.app_service_id },
  { header: "App Service Id", value: (r) => r.app_service_id },
  ...adminOpStateColumns<Endpoint>("admin_state", "Admin/Op State", (r) => adminOpStateCell(r.admin_state, r.op_state)),
  { id: "size", header: "Size", sortable: true, text: (r) => r.size },
  { id: "approval_status", header: "Approval", sortable: true, hidden: true, text: (r) => r.approval_status },
  { header: "Region", value: (r) => r.region },
  { header: "IP Address", value: (r) => r.ip_addr },
  timeColumn("created_at", "Created at", { hidden: true }),
]);

/** The screen: its title, the table's name and rows, the writer's buttons. */
export const screen = defineListScreen<Endpoint>({ title: "Endpoints", caption: "Endpoints", columns, getRowId: (r) => r.ep_id, rowLabel: (r) => r.ep_name, selection: "single", linkColumn: "ep_name", readableMenu: true, plural: "endpoints", createLabel: "Create Endpoint" });
