/*
 * The Internet NIDs screen's shapes and constants (spec 3 §2.10, §3 CPE, §9). The form schemas
 * are in schemas.server.ts (zod stays out of the browser).
 */
export type { Cpe, CpeDetail, CpeProduct, PeerRegion, SpeedTestAnswer, SpeedTestStarted, DeviceMonitoring } from "../../../platform/contract/devices.ts";
export { SERVICE_PRODUCT } from "../../../platform/contract/devices.ts";
import type { SpeedTestAnswer } from "../../../platform/contract/devices.ts";

export const TITLE = "Internet NIDs";

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

/** The URL parameters of a running speed test (`&type=…&started=…&until=…`, set by the start's redirect). */
export const RUN_PARAMS = ["type", "started", "until"] as const;

/** The speed test the URL follows, as the loader found it. */
export type SpeedTestRun =
  | { state: "running"; type: string; startedAt: string; finishesAt: string; progress: number }
  | { state: "done"; type: string; answer: SpeedTestAnswer }
  | { state: "timeout"; type: string }
  | { state: "error"; type: string; message: string };
