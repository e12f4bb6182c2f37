import { idCell, timeCell } from "../../components/cell.ts";
import type { Column } from "../../components/data-table.tsx";
import { adminOpStateCell } from "../../components/op-state.tsx";
import type { CsvColumn } from "../../lib/csv.ts";
import { formatTime } from "../../lib/format.ts";
import { appServiceSortable } from "../../../platform/contract/app-services.ts";
import { deploymentLabels, protoLabel, type AppService } from "./model.ts";

/* The App Services table's columns (spec 1 §2), and the same columns for its CSV export. Two arrays, not
 * listColumns (app/components/columns.ts): the CSV columns stay out of the browser (the Details tab's JS budget). */

export const sortable = appServiceSortable;
export const hideable = ["created_at"];
/** The fields the columns and the row menu read: the only ones the page's rows carry. */
export const tableFields = ["app_service_id", "app_service_name", "deployment", "admin_state", "op_state", "size", "health", "proto", "port", "created_at"] as const;

export const columns: Column<AppService>[] = [
  { id: "app_service_name", header: "Service Name", sortable: true, cell: (r) => r.app_service_name },
  { id: "app_service_id", header: "Service ID", sortable: true, cell: (r) => idCell(r.app_service_id) },
  { id: "deployment", header: "Deployment", sortable: true, cell: (r) => deploymentLabels[r.deployment] ?? r.deployment },
  { id: "op_state", header: "Admin / Op State", sortable: true, cell: (r) => adminOpStateCell(r.admin_state, r.op_state) },
  { id: "size", header: "Size", sortable: true, cell: (r) => r.size },
  { id: "health", header: "Health", sortable: true, cell: (r) => (r.health === null ? "" : `${r.health}%`) },
  { id: "proto", header: "Protocol", sortable: true, cell: (r) => (r.proto ? protoLabel(r.proto) : "") },
  { id: "port", header: "Port", sortable: true, cell: (r) => (r.port === null ? "" : String(r.port)) },
  { id: "created_at", header: "Created at", sortable: true, hidden: true, cell: (r) => timeCell(r.created_at) },
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
