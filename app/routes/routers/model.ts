/*
 * The Internet NIDs screen's shapes and constants (spec 3 §2.10, §3 CPE, §9). The form schemas
 * are in schemas.server.ts (zod stays out of the browser).
 */
export type { Cpe, CpeDetail, CpeProduct, PeerRegion, SpeedTestAnswer, SpeedTestStarted, DeviceMonitoring } from "../../../platform/contract/devices.ts";
export { SERVICE_PRODUCT } from "../../../platform/contract/devices.ts";

export const TITLE = "Internet NIDs";

/** The detail tabs; BN-CPE-IP has Details only (spec 3 §2.10). */
export const CPE_TABS = [
  { id: "details", label: "Details" },
  { id: "monitoring", label: "Monitoring" },
] as const;
export const CPE_TAB_IDS = CPE_TABS.map((t) => t.id);

/** The fields the table's columns and row menus read: the browser gets only these. */
export const ROW_FIELDS = [
  "cpe_id",
  "cpe_name",
  "entity_name",
  "site_address",
  "admin_state",
  "op_state",
  "speed_test_ip",
  "provider_service_id",
  "client_circuit_id",
  "account_name",
  "prod_code",
  "shipping_address",
  "state",
  "test_status",
  "description",
] as const;
