/* The Metro Ethernet NIDs screen's constants (spec 3 §2.11, §3, §5, §9): shared by the dialogs and the server schemas. */

export type { Metro, MetroDetail, MetroProduct, DevicePort } from "../../../platform/contract/devices.ts";
export { ccmIntervals, DEFAULT_MGMT_VLAN, metroProducts, oamLimits, SFP_PRODUCT, sfpTypes, vlanRange } from "../../../platform/contract/devices.ts";

export const KIND = "metro" as const;

/** The fields the table's columns read (columns.ts): the browser gets only these of each row. */
export const ROW_FIELDS = [
  "metro_id",
  "metro_name",
  "prod_code",
  "admin_state",
  "op_state",
  "provider_service_id",
  "client_circuit_id",
  "entity_id",
  "account_name",
  "entity_name",
  "site_address",
  "shipping_address",
] as const;
export const TITLE = "Metro Ethernet NIDs";

/** The dialogs only this screen has. */
export const metroDialogs = { create: "create", edit: "edit-nid", oam: "edit-oam" } as const;

/** The create/edit form's optional VLAN fields and their labels. */
export const vlanFields = [
  ["wan_data_vlan_id", "WAN data VLAN id"],
  ["wan_q_in_q_vlan_id", "WAN Q-in-Q VLAN id"],
  ["lan_data_vlan_id", "LAN data VLAN id"],
  ["lan_q_in_q_vlan_id", "LAN Q-in-Q VLAN id"],
  ["wan_mgmt_vlan_id", "WAN management VLAN id"],
] as const;

/** The create/edit form's text fields (the platform's names) and labels, in the form's order. */
export const siteFields = [
  ["site_address", "Site address"],
  ["shipping_address", "Shipping address"],
  ["provider_service_id", "Provider Service ID"],
  ["client_circuit_id", "Client Circuit ID"],
  ["contact_name", "Contact name"],
  ["contact_email", "Contact email"],
  ["contact_phone", "Contact phone"],
] as const;

export const sfpLabel = (s: string | null | undefined) => (s === "sfp_mmf" ? "sfp_mmf (multi-mode fibre)" : s === "sfp_smf" ? "sfp_smf (single-mode fibre)" : "");
