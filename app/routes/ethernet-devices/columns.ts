import { idColumn, listColumns } from "../../components/columns.ts";
import { defineListScreen } from "../../components/list-screen.tsx";
import { opStateCell } from "../../components/op-state.tsx";
import { TITLE, type Metro } from "./model.ts";

/* The Metro Ethernet NIDs table (spec 3 §2.11): visible and hidden columns, sortable by the platform. */

export { metroSortable as sortable } from "../../../platform/contract/devices.ts";
export const hideable = ["site_address", "shipping_address"];


export const { columns } = listColumns<Metro>([
  { id: "metro_name", header: "Name", text: (r) => r.metro_name },
  idColumn("metro_id", "Device ID"),
  { id: "prod_code", header: "Product Code", text: (r) => r.prod_code },
  { id: "admin_state", header: "Admin State", text: (r) => r.admin_state },
  { id: "op_state", header: "Op State", cell: (r) => opStateCell(r.op_state), csv: (r) => r.op_state ?? "N/A" },
  { id: "provider_service_id", header: "Provider Service ID", text: (r) => r.provider_service_id },
  { id: "client_circuit_id", header: "Client Circuit ID", text: (r) => r.client_circuit_id },
  idColumn("entity_id", "Entity ID"),
  { id: "account_name", header: "Account Name", text: (r) => r.account_name },
  { id: "entity_name", header: "Entity Name", text: (r) => r.entity_name ?? "" },
  { id: "site_address", header: "Site Address", hidden: true, text: (r) => r.site_address },
  { id: "shipping_address", header: "Shipping Address", hidden: true, text: (r) => r.shipping_address },
]);

/** The screen: single selection (the last clicked), the detail panel, Create Device, Refresh; a readonly user's menu (what only reads). */
const deviceList = { selection: "single", plural: "devices", createLabel: "Create Device", refresh: true, readableMenu: true } as const;
export const screen = defineListScreen<Metro>({ ...deviceList, title: TITLE, caption: TITLE, columns, getRowId: (r) => r.metro_id, rowLabel: (r) => r.metro_name, linkColumn: "metro_name" });
