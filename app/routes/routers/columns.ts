import { idColumn, listColumns } from "../../components/columns.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import { opStateCell } from "../../components/op-state.tsx";
import type { Cpe } from "./model.ts";
import { TITLE } from "./model.ts";

/* The Internet NIDs table (spec 3 §2.10: the visible columns in its order, then the hidden ones). */

export { cpeSortable as sortable } from "../../../platform/contract/devices.ts";
export const hideable = ["shipping_address", "state", "test_status", "description"];

/** 'N/A' for a value the device has not given. */
const na = (v: string | null | undefined) => (v === null || v === undefined || v === "" ? "N/A" : v);

export const { columns } = listColumns<Cpe>([
  { id: "cpe_name", header: "Name", text: (r) => r.cpe_name, className: "min-w-32" },
  { id: "entity_name", header: "Entity Name", text: (r) => na(r.entity_name) },
  { id: "site_address", header: "Site Address", text: (r) => na(r.site_address), className: "min-w-40" },
  { id: "admin_state", header: "Admin State", text: (r) => r.admin_state },
  { id: "op_state", header: "Op State", cell: (r) => opStateCell(r.op_state), csv: (r) => na(r.op_state) },
  { id: "speed_test_ip", header: "Speed Tester IP", text: (r) => na(r.speed_test_ip) },
  { id: "provider_service_id", header: "Provider Service ID", text: (r) => na(r.provider_service_id) },
  { id: "client_circuit_id", header: "Client Circuit ID", text: (r) => na(r.client_circuit_id) },
  { id: "account_name", header: "Account Name", text: (r) => na(r.account_name) },
  idColumn("cpe_id", "Device ID"),
  { id: "prod_code", header: "Product Code", text: (r) => r.prod_code },
  { id: "shipping_address", header: "Shipping Address", hidden: true, text: (r) => na(r.shipping_address) },
  { id: "state", header: "State", hidden: true, text: (r) => na(r.state) },
  { id: "test_status", header: "Test Status", hidden: true, text: (r) => na(r.test_status) },
  { id: "description", header: "Description", hidden: true, text: (r) => na(r.description) },
]);

/** The screen: title, table, single selection with the detail panel, Create Device, Refresh; a readonly user's menu (what only reads). */
export const screen = defineListScreen<Cpe>({
  title: TITLE,
  caption: TITLE,
  columns,
  getRowId: (r) => r.cpe_id,
  rowLabel: (r) => r.cpe_name,
  selection: "single",
  linkColumn: "cpe_name",
  plural: "devices",
  createLabel: "Create Device",
  refresh: true,
  readableMenu: true,
});
