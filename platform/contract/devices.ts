/*
 * Internet NIDs (CPE) and Metro Ethernet NIDs (spec 3 §2.10, §2.11, §3, §4, §5, §7.1, §7.2, §8,
 * §9): the constants, limits, choices and messages shared by the platform
 * (platform/routes/cpe*.ts, metro*.ts, devices*.ts) and the console (app/routes/routers/,
 * app/routes/ethernet-devices/). Plain TypeScript without dependencies: the console may import
 * these values in client code.
 */
export type {
  Cpe,
  CpeDetail,
  CpeProduct,
  Metro,
  MetroDetail,
  MetroProduct,
  MetroPort,
  DevicePort,
  DeviceAnnouncement,
  DdosThresholdSet,
  DdosThresholdsBody,
  LanInterfaceRow,
  PeerRegion,
  SpeedTestAnswer,
  SpeedTestStarted,
  ActivationStarted,
  ActivationEvent,
  ActivationReport,
  ActivationLinkSpeed,
  TestAcceleration,
  Y1564Step,
  Y1564Performance,
  Y1564Criteria,
  NodeToken,
  DeviceMonitoring,
} from "./devices.shapes.ts";
import { entityMessages, pcapMessages } from "./messages.ts";
export { type ListPage } from "./list.ts";

// ---------------------------------------------------------------------------------------------
// Products (spec 3 §9; get_cpe_products, metro_products)

export interface ProductInfo {
  prod_code: string;
  name: string;
  description: string;
  /** What the circuit is sold as: committed and excess information rate, Mbps. */
  cir_mbps: number;
  eir_mbps: number;
}

/** Internet NID products. BN-CPE-IP: service activation, Edit Site, Details tab only (spec 3 §2.10, §9). */
export const cpeProducts = [
  { prod_code: "BN-CPE-IP", name: "Managed IP access", description: "Internet access delivered on the provider's NID; activated and stopped as a service", cir_mbps: 500, eir_mbps: 500 },
  { prod_code: "BN-CPE-100", name: "Internet NID 100M", description: "Internet NID with SD-WAN monitoring, 100 Mbps", cir_mbps: 100, eir_mbps: 0 },
  { prod_code: "BN-CPE-500", name: "Internet NID 500M", description: "Internet NID with SD-WAN monitoring, 500 Mbps", cir_mbps: 500, eir_mbps: 0 },
  { prod_code: "BN-CPE-1000", name: "Internet NID 1G", description: "Internet NID with SD-WAN monitoring, 1 Gbps", cir_mbps: 1000, eir_mbps: 0 },
] as const satisfies readonly ProductInfo[];
export type CpeProductCode = (typeof cpeProducts)[number]["prod_code"];
export const cpeProductCodes = cpeProducts.map((p) => p.prod_code) as CpeProductCode[];
/** The product with service activation (Activate Service / Stop Service), Edit Site and only the Details tab. */
export const SERVICE_PRODUCT = "BN-CPE-IP";

/** Metro Ethernet NID products (metro_products). BN-METRO-1000F takes SFP modules (spec 3 §9). */
export const metroProducts = [
  { prod_code: "BN-METRO-100", name: "Metro Ethernet NID 100M", description: "Carrier Ethernet demarcation, copper, up to 100 Mbps", cir_mbps: 100, eir_mbps: 0 },
  { prod_code: "BN-METRO-1000", name: "Metro Ethernet NID 1G", description: "Carrier Ethernet demarcation, copper, up to 1 Gbps", cir_mbps: 1000, eir_mbps: 0 },
  { prod_code: "BN-METRO-1000F", name: "Metro Ethernet NID 1G fibre", description: "Carrier Ethernet demarcation, SFP fibre ports, up to 1 Gbps", cir_mbps: 1000, eir_mbps: 0 },
] as const satisfies readonly ProductInfo[];
export type MetroProductCode = (typeof metroProducts)[number]["prod_code"];
export const metroProductCodes = metroProducts.map((p) => p.prod_code) as MetroProductCode[];
/** The one product with SFP choices (spec 3 §5). */
export const SFP_PRODUCT = "BN-METRO-1000F";
export const sfpTypes = ["sfp_mmf", "sfp_smf"] as const;
export type SfpType = (typeof sfpTypes)[number];

// ---------------------------------------------------------------------------------------------
// States and settings

/** Admin state: BN-CPE-IP starts inactive until Activate Service; other devices are active (spec 3 §4). */
export const adminStates = ["active", "inactive"] as const;
export type AdminState = (typeof adminStates)[number];
/** Op state: up or down; 'N/A' is shown when missing (spec 3 §2.10). */
export const opStates = ["up", "down"] as const;
/** Test status of a device (the hidden column): its last activation test. */
export const testStatuses = ["none", "running", "passed", "failed"] as const;
export type TestStatus = (typeof testStatuses)[number];

/** CPE mode (spec 3 §9: default ROUTER) and WAN addressing (Edit Network Info). */
export const cpeModes = ["ROUTER", "BRIDGE"] as const;
export const DEFAULT_CPE_MODE = "ROUTER";
export const wanAddressing = ["dhcp", "static"] as const;

/** Metro management VLAN default (spec 3 §9). */
export const DEFAULT_MGMT_VLAN = 100;
/** Down notification interval (scan_gap), minutes: default 1 (spec 3 §9). */
export const scanInterval = { default: 1, min: 1, max: 60 } as const;
/** Daily performance test hour of day, UTC (spec 3 §9), shown as HH:00. */
export const perfTestHours = { min: 0, max: 23 } as const;
export const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;

/** Announcement (spec 3 §5): whole hours 00:00–23:00 UTC, duration ≥ 1 hour (at most a week). */
export const announcementLimits = { minHours: 1, maxHours: 168 } as const;

/** Field limits. */
export const deviceLimits = { name: 200, address: 500, text: 200, description: 2000, tracking: 100, contact: 200 } as const;

// ---------------------------------------------------------------------------------------------
// OAM (IEEE 802.1ag / ITU-T Y.1731), metro only

/** metro_ccm_interval: the CCM intervals of IEEE 802.1ag (codes 1–7), in order. */
export const ccmIntervals = ["3.3ms", "10ms", "100ms", "1s", "10s", "1min", "10min"] as const;
export type CcmInterval = (typeof ccmIntervals)[number];
export const oamLimits = {
  mdLevel: { min: 0, max: 7 },
  mepId: { min: 1, max: 8191 },
  vlanId: { min: 1, max: 4094 },
  mdName: { min: 1, max: 43 },
  maName: { min: 1, max: 45 },
} as const;
/** Printable ASCII (0x20–0x7E): the MD and MA name character set. */
export const isPrintableAscii = (s: string) => /^[\x20-\x7E]*$/.test(s);
/** VLAN ids 1–4094 (IEEE 802.1Q) everywhere a VLAN id is given. */
export const vlanRange = oamLimits.vlanId;

// ---------------------------------------------------------------------------------------------
// DDoS thresholds (spec 3 §3, §9), packets per second

export const ddosFloods = ["tcp_syn_flood_thresholds", "udp_thresholds", "icmp_thresholds"] as const;
export type DdosFlood = (typeof ddosFloods)[number];
export const ddosFloodLabels: Record<DdosFlood, string> = { tcp_syn_flood_thresholds: "TCP SYN flood", udp_thresholds: "UDP flood", icmp_thresholds: "ICMP flood" };
export const DEFAULT_DDOS: Record<DdosFlood, { alert_threshold: number; block_threshold: number; max_threshold: number }> = {
  tcp_syn_flood_thresholds: { alert_threshold: 200, block_threshold: 2000, max_threshold: 5000 },
  udp_thresholds: { alert_threshold: 1000, block_threshold: 5000, max_threshold: 5000 },
  icmp_thresholds: { alert_threshold: 100, block_threshold: 3000, max_threshold: 3000 },
};
export const ddosMax = 10_000_000;
export const ddosThresholds = ["alert_threshold", "block_threshold", "max_threshold"] as const;
export type DdosThreshold = (typeof ddosThresholds)[number];
/** The thresholds' names as Edit DDoS Mitigation labels them ("TCP SYN flood: Alert"). */
export const ddosThresholdLabels: Record<DdosThreshold, string> = { alert_threshold: "Alert", block_threshold: "Block", max_threshold: "Max" };
/** A threshold's field as the dialog labels it, for messages a person reads: "TCP SYN flood: Alert" (never `tcp_syn_flood_thresholds.alert_threshold`). */
export const ddosFieldLabel = (flood: DdosFlood, threshold: DdosThreshold) => `${ddosFloodLabels[flood]}: ${ddosThresholdLabels[threshold]}`;
/** alert ≤ block ≤ max, in the dialog's words: "TCP SYN flood: Alert must be at most Block." (the issue's `loc` still names the field). */
export const ddosOrderMessages = {
  alert: (flood: DdosFlood) => `${ddosFieldLabel(flood, "alert_threshold")} must be at most ${ddosThresholdLabels.block_threshold}.`,
  block: (flood: DdosFlood) => `${ddosFieldLabel(flood, "block_threshold")} must be at most ${ddosThresholdLabels.max_threshold}.`,
};

/** The Monitoring tab's ranges (the fleet's named ranges); default 1d. */
export const monitoringRanges = ["1h", "3h", "12h", "1d", "3d", "1w"] as const;
export type MonitoringRange = (typeof monitoringRanges)[number];

// ---------------------------------------------------------------------------------------------
// Speed test (spec 3 §4, §9) and the activation stream

export const speedTest = { pollMs: 1200, resultEvery: 4, timeoutMs: 120_000, defaultType: "ookla" } as const;
export const activationStream = { startDelayMs: 3000, backoffStartMs: 1000, backoffMaxMs: 30_000 } as const;

// ---------------------------------------------------------------------------------------------
// ITU-T Y.1564 (the activation test)

/** Service configuration test steps, in order: % of CIR, then CIR+EIR, then the overshoot at 125 % of CIR+EIR. */
export const y1564Steps = ["cir_25", "cir_50", "cir_75", "cir_100", "cir_eir", "overshoot"] as const;
export type Y1564StepId = (typeof y1564Steps)[number];
export const y1564StepLabels: Record<Y1564StepId, string> = {
  cir_25: "25 % of CIR",
  cir_50: "50 % of CIR",
  cir_75: "75 % of CIR",
  cir_100: "100 % of CIR",
  cir_eir: "CIR + EIR",
  overshoot: "Overshoot, 125 % of CIR + EIR",
};
/** Service acceptance criteria by default (FTD and FDV in ms, FLR and availability in %). */
export const DEFAULT_Y1564_CRITERIA = { ftd_max_ms: 10, fdv_max_ms: 5, flr_max_pct: 0.01, availability_min_pct: 99.9 } as const;
/**
 * The service performance test's durations ITU-T Y.1564 names (seconds): 15 min (the default, for
 * activation), 2 h and 24 h. Chosen when the test starts (performance_duration_s).
 */
export const y1564PerformanceDurations = [900, 7200, 86_400] as const;
export type Y1564PerformanceDuration = (typeof y1564PerformanceDurations)[number];
export const DEFAULT_Y1564_PERFORMANCE_DURATION: Y1564PerformanceDuration = 900;
/** A duration as the report and the dialogs say it: "15 min", "2 h", "24 h" ("20 s" for a test started before the choice). */
export function durationText(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

// ---------------------------------------------------------------------------------------------
// The spec's words (spec 3 §5, §8)

export const deviceMessages = {
  cpeCreated: "CPE router created.",
  cpeUpdated: "Updated CPE info successfully.",
  networkUpdated: "Updated network info successfully.",
  assigned: entityMessages.assigned,
  selectEntity: "Select Entity Name",
  diagnostics: "Get diagnostics successfully.",
  downloaded: "Download successfully!",
  noDiagnostics: "No diagnostic data available to download.",
  chooseInterface: "Please choose an interface first.",
  selectPeerRegion: "Select the Peer region and hour of day.",
  productRequired: "Product code is required.",
  fillAll: "Please fill out all fields.",
  /** run_ping's and run_traceroute's address, blank or wrong (the Ping and Traceroute dialog's words). */
  enterIp: "Enter a valid IP address.",
  /** An L2 activation test's peer left blank (the Start Activation Test dialog's words). */
  peerMac: "Please enter the peer MAC address.",
  vlanId: "Please enter the VLAN id.",
  announcement: "Maintenance announcement created.",
  /** An announcement's duration that is no whole number of hours in range (the dialog's words, one sentence). */
  announcementDuration: `Duration must be a whole number of hours from ${announcementLimits.minHours} to ${announcementLimits.maxHours}.`,
  announcementPast: "Start time must not be in the past: announce maintenance from the next hour on.",
  cpeRemoved: "CPE router removed.",
  metroRemoved: "Metro device removed.",
  metroCreated: "Metro device created.",
  metroUpdated: "Updated metro info successfully.",
  oamUpdated: "Updated OAM info successfully.",
  peerIp: "Please enter peer IP address first.",
  noTestData: pcapMessages.noTestData,
  speedDone: "Speed test completed",
  speedTimedOut: "Speed test timed out",
  speedStarted: "Speed test started",
  testStarted: "Activation test started",
  testRunning: "An activation test is already running on this device.",
  serviceActivated: "Service activated.",
  serviceStopped: "Service stopped.",
  alreadyActive: "The service is already active.",
  notActive: "The service is not active.",
  notServiceProduct: "Only BN-CPE-IP devices have service activation.",
  shipping: "Shipping info updated.",
  scanInterval: "Down notification interval updated.",
  monitorTarget: "IP monitor target updated.",
  perfScheduled: "Daily performance test scheduled.",
  perfStopped: "Daily performance test stopped.",
  thresholds: "DDoS thresholds updated.",
  interfaceReset: "Interface reset.",
  unknownInterface: (intf: string, ports: readonly string[]) => `This device has no interface ${intf}: choose one of ${ports.join(", ")}.`,
  deviceReset: "Device reset.",
  tokenGenerated: "Registration token generated.",
  unchanged: "The value is already set.",
  deviceNotFound: (what: "CPE" | "Metro" | "Device") => `${what} not found`,
} as const;

/** The toggles of each kind: call → stored field (spec 3 §7.1, §7.2; Appflow and iPerf server ours). */
export const cpeToggles = {
  toggle_cpe_geo_visibility: "geo_visibility",
  toggle_cpe_malicious_ip_block: "malicious_ip_block_enabled",
  toggle_cpe_app_visibility: "app_visibility_enabled",
  toggle_cpe_denial_of_service: "denial_of_service_enabled",
  toggle_cpe_appflow: "netflow_enabled",
  toggle_cpe_iperf_server: "iperf_server",
} as const;
export const metroToggles = {
  toggle_metro_netflow: "netflow_enabled",
  toggle_metro_geo_visibility: "geo_visibility",
  toggle_metro_denial_of_service: "denial_of_service_enabled",
  toggle_metro_malicious_ip_block: "malicious_ip_block_enabled",
} as const;

/** The columns the lists may be sorted by; default: name. */
export const cpeSortable = ["cpe_name", "entity_name", "site_address", "admin_state", "op_state", "speed_test_ip", "provider_service_id", "client_circuit_id", "cpe_id", "prod_code", "created_at"] as const;
export type CpeSortColumn = (typeof cpeSortable)[number];
export const metroSortable = ["metro_name", "metro_id", "prod_code", "admin_state", "op_state", "provider_service_id", "client_circuit_id", "entity_id", "entity_name", "created_at"] as const;
export type MetroSortColumn = (typeof metroSortable)[number];

/** The announcement call for a device id (spec 3 §5: cpe… → the CPE call, otherwise the metro call). */
export const announcementCall = (deviceId: string) => (deviceId.startsWith("cpe") ? "cpe_add_announcement" : "metro_add_announcement");
