import { z } from "@hono/zod-openapi";
import { body, bool, line, maxMessage, text } from "../lib/fields.ts";
import { ipField, ipList } from "../lib/net-fields.ts";
import { adminStates, ccmIntervals, cpeModes, cpeProductCodes, deviceLimits, deviceMessages, isPrintableAscii, metroProductCodes, oamLimits, scanInterval, SFP_PRODUCT, sfpTypes, testStatuses, wanAddressing, y1564Steps } from "./devices.ts";
import { cidrField, contactFields as contactInputs, cpeId, criteriaFields, description, deviceName, hourOfDay, ipTarget, latitude, longitude, macField, metroId, nodeId, performanceDurationField, optionalIp, optionalText, rateMbps, testType, vlanId, wholeIn } from "./devices-fields.shapes.ts";
import { isoTime, pageOf } from "./common.shapes.ts";
import { LinkSpeedTestSample } from "./monitoring.shapes.ts";

/*
 * The answers of the Internet NID (CPE) and Metro Ethernet NID calls (spec 3 §3, §7.1, §7.2), once
 * each. The console imports their types only (platform/contract/devices.ts).
 */

const when = () => isoTime().nullable();

/** One DDoS threshold set (spec 3 §3), packets per second: alert ≤ block ≤ max. */
export const DdosThresholdSet = z
  .object({ alert_threshold: z.number().int(), block_threshold: z.number().int(), max_threshold: z.number().int() })
  .openapi("DdosThresholdSet");
export type DdosThresholdSet = z.infer<typeof DdosThresholdSet>;

/** get_cpe_denial_of_service_thresholds, set_cpe_denial_of_service_thresholds' body. */
export const DdosThresholdsBody = z
  .object({ tcp_syn_flood_thresholds: DdosThresholdSet, udp_thresholds: DdosThresholdSet, icmp_thresholds: DdosThresholdSet })
  .openapi("DdosThresholds");
export type DdosThresholdsBody = z.infer<typeof DdosThresholdsBody>;

/** A port of a device (spec 3 §3: name, intf, role wan…/lan…, cidr_addr, sfp_type, operational_state, speed, vlan_ids). */
export const DevicePort = z
  .object({
    name: z.string(),
    intf: z.string(),
    role: z.string().openapi({ description: "Starts with wan or lan" }),
    cidr_addr: z.string(),
    sfp_type: z.string().nullable(),
    operational_state: z.enum(["UP", "DOWN"]),
    speed: z.string(),
    vlan_ids: z.object({ mgmt: z.number().int().nullable(), data: z.number().int().nullable(), q_in_q: z.number().int().nullable() }),
  })
  .openapi("DevicePort");
export type DevicePort = z.infer<typeof DevicePort>;
export const MetroPort = DevicePort;
export type MetroPort = DevicePort;

/** An announced maintenance window: the fleet leaves it out of uptime and alerts. */
export const DeviceAnnouncement = z
  .object({ announcement_id: z.string(), start_time: isoTime(), end_time: isoTime(), duration: z.number().int().openapi({ description: "Hours" }), created_at: isoTime() })
  .openapi("DeviceAnnouncement");
export type DeviceAnnouncement = z.infer<typeof DeviceAnnouncement>;

const contactFields = { contact_name: z.string(), contact_email: z.string(), contact_phone: z.string() };
const siteFields = {
  site_address: z.string(),
  shipping_address: z.string(),
  tracking_number: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  region: z.string().openapi({ description: "The provider PoP nearest the site (e.g. FRA)" }),
};
const stateFields = {
  admin_state: z.enum(adminStates),
  admin_state_change_at: isoTime(),
  op_state: z.enum(["up", "down"]).nullable().openapi({ description: "up or down; null (shown N/A) until the device first reports" }),
  op_state_change_at: when(),
  state: z.string().openapi({ description: "Lifecycle: ordered, shipped, registered" }),
  test_status: z.enum(testStatuses),
};
const securityFields = {
  netflow_enabled: z.boolean().openapi({ description: "Appflow" }),
  monitor_inbound_pub_ip_enabled: z.boolean(),
  monitor_outbound_pub_ip_enabled: z.boolean().openapi({ description: "Both true: geo visibility is on" }),
  malicious_ip_block_enabled: z.boolean(),
  denial_of_service_enabled: z.boolean(),
};

/** Spec 3 §3 CPE: a row of get_cpe. */
export const Cpe = z
  .object({
    cpe_id: z.string().openapi({ example: "cpe-5q2w8e1r4t6y" }),
    cpe_name: z.string(),
    account_id: z.string(),
    account_name: z.string(),
    entity_id: z.string().nullable(),
    entity_name: z.string().nullable(),
    prod_code: z.string(),
    description: z.string(),
    ...siteFields,
    ...stateFields,
    speed_test_ip: z.string(),
    provider_service_id: z.string(),
    client_circuit_id: z.string(),
    ...contactFields,
    ping_dns_ip: z.string(),
    ping_gw_ip: z.string(),
    ping_email_notification: z.boolean(),
    ping_webhook_notification: z.boolean(),
    ip_monitor_target: z.string(),
    scan_gap: z.number().int().openapi({ description: "Down notification interval, minutes" }),
    iperf_server: z.boolean().openapi({ description: "The device answers iPerf3 tests (port 5201)" }),
    app_visibility_enabled: z.boolean(),
    ...securityFields,
    perf_test_scheduled: z.boolean(),
    perf_test_hour_of_day: z.number().int().nullable(),
    perf_test_peer_region: z.string().nullable(),
    perf_test_peer_ip: z.string().nullable(),
    mode: z.enum(cpeModes),
    wan_addressing: z.enum(wanAddressing),
    wan_cidr: z.string(),
    wan_gateway: z.string(),
    dns_servers: z.array(z.string()),
    lan_cidr: z.string(),
    wan_cir_mbps: z.number(),
    wan_eir_mbps: z.number(),
    created_at: isoTime(),
  })
  .openapi("Cpe");
export type Cpe = z.infer<typeof Cpe>;

/** get_cpe_detail: the row, its ports, DDoS thresholds, announcements and registration token's time. */
export const CpeDetail = Cpe.extend({
  ports: z.array(DevicePort),
  ddos_thresholds: DdosThresholdsBody,
  announcements: z.array(DeviceAnnouncement),
  token_issued_at: when(),
}).openapi("CpeDetail");
export type CpeDetail = z.infer<typeof CpeDetail>;

/** Spec 3 §3 Metro: a row of get_metro. */
export const Metro = z
  .object({
    metro_id: z.string().openapi({ example: "metro-5q2w8e1r4t6y" }),
    metro_name: z.string(),
    prod_code: z.string(),
    account_id: z.string(),
    account_name: z.string(),
    entity_id: z.string().nullable(),
    entity_name: z.string().nullable(),
    description: z.string(),
    wan_cir_mbps: z.number().nullable(),
    wan_eir_mbps: z.number().nullable(),
    created_at: isoTime(),
    ...siteFields,
    ...stateFields,
    provider_service_id: z.string(),
    client_circuit_id: z.string(),
    ...contactFields,
    ...securityFields,
    wan_data_vlan_id: z.number().int().nullable(),
    wan_q_in_q_vlan_id: z.number().int().nullable(),
    lan_data_vlan_id: z.number().int().nullable(),
    lan_q_in_q_vlan_id: z.number().int().nullable(),
    wan_mgmt_vlan_id: z.number().int(),
    wan_sfp: z.string().nullable(),
    lan_sfp: z.string().nullable(),
    oam_loopback_enabled: z.boolean(),
    oam_ccp_enabled: z.boolean(),
    oam_ccm_interval: z.enum(ccmIntervals).nullable(),
    oam_md_name: z.string().nullable(),
    oam_md_level: z.number().int().nullable(),
    oam_md_association: z.string().nullable(),
    oam_mep_id: z.number().int().nullable(),
    oam_vlan_id: z.number().int().nullable(),
  })
  .openapi("Metro");
export type Metro = z.infer<typeof Metro>;

export const MetroDetail = Metro.extend({
  ports: z.array(DevicePort),
  ddos_thresholds: DdosThresholdsBody,
  announcements: z.array(DeviceAnnouncement),
  token_issued_at: when(),
}).openapi("MetroDetail");
export type MetroDetail = z.infer<typeof MetroDetail>;

const product = { prod_code: z.string(), name: z.string(), description: z.string(), cir_mbps: z.number(), eir_mbps: z.number() };
export const CpeProduct = z.object({ ...product, service_activation: z.boolean(), monitoring: z.boolean() }).openapi("CpeProduct");
export type CpeProduct = z.infer<typeof CpeProduct>;
export const MetroProduct = z.object({ ...product, sfp_types: z.array(z.string()) }).openapi("MetroProduct");
export type MetroProduct = z.infer<typeof MetroProduct>;

export const CpePage = pageOf(Cpe, "CpePage");
export const MetroPage = pageOf(Metro, "MetroPage");
export const CpeCreated = z.object({ cpe_id: z.string(), detail: z.string() }).openapi("CpeCreated");
export const MetroCreated = z.object({ metro_id: z.string(), detail: z.string() }).openapi("MetroCreated");

/** get_cpe_lan_interfaces / get_metro_lan_interfaces. */
export const LanInterfaceRow = z
  .object({
    name: z.string(),
    intf: z.string(),
    role: z.string(),
    mac_address: z.string(),
    speed: z.string(),
    duplex: z.enum(["full", "half"]),
    operational_state: z.enum(["UP", "DOWN"]),
    last_change: isoTime(),
  })
  .openapi("LanInterface");
export type LanInterfaceRow = z.infer<typeof LanInterfaceRow>;

export const PeerRegion = z.object({ peer_region: z.string(), city: z.string(), country: z.string(), peer_ip: z.string() }).openapi("PeerRegion");
export type PeerRegion = z.infer<typeof PeerRegion>;

/** run_ping's and run_traceroute's query (the Ping and Traceroute dialog's form, its device as `device_id`). */
export const ToolQuery = z.object({ node_id: nodeId(), ip_address: ipField("IP address", { blank: deviceMessages.enterIp, wrong: deviceMessages.enterIp }).openapi({ example: "8.8.8.8" }) });

/** run_ping, run_traceroute: the tool's output (spec 3 §7.1 "response data.result"). */
export const ToolResult = z.object({ result: z.string().openapi({ description: "iputils ping / Linux traceroute output" }) }).openapi("ToolResult");

export const NodeToken = z
  .object({ node_id: z.string(), token: z.string().openapi({ description: "Shown once; the previous token stops working" }), expires_at: isoTime(), detail: z.string() })
  .openapi("NodeToken");
export type NodeToken = z.infer<typeof NodeToken>;
export const NodeRegistered = z.object({ node_id: z.string(), detail: z.string() }).openapi("DeviceRegistered");

// ---------------------------------------------------------------------------------------------
// Speed test

export const SpeedTestStarted = z
  .object({ status: z.string().openapi({ description: "What the console shows" }), started_at: isoTime(), finishes_at: isoTime() })
  .openapi("SpeedTestStarted");
export type SpeedTestStarted = z.infer<typeof SpeedTestStarted>;

const anyJson = z.record(z.string(), z.unknown());
/** get_cpe_speedtest_cli_test_result (spec 3 §7.1: "response data.data"). 404 while not ready. */
export const SpeedTestAnswer = z
  .object({
    status: z.enum(["completed", "failed"]),
    detail: z.string().optional(),
    data: z
      .object({
        test_type: z.string(),
        download_speed_mbps: z.number(),
        upload_speed_mbps: z.number(),
        ping_latency_ms: z.number(),
        ping_jitter_ms: z.number(),
        packet_loss: z.number().nullable(),
        server: z.string(),
        result_url: z.string().nullable(),
        started_at: isoTime(),
        finished_at: isoTime(),
        raw: anyJson.openapi({
          description:
            "ookla: the Speedtest CLI's JSON (`speedtest -f json`: ping.latency/jitter ms, download/upload.bandwidth bytes/s, packetLoss, server, result.url); a host: iperf3's JSON (`iperf3 -J`) as {upload, download}",
        }),
      })
      .nullable(),
  })
  .openapi("SpeedTestResult");
export type SpeedTestAnswer = z.infer<typeof SpeedTestAnswer>;

// ---------------------------------------------------------------------------------------------
// The activation test (ITU-T Y.1564)

export const Y1564Criteria = z
  .object({ ftd_max_ms: z.number(), fdv_max_ms: z.number(), flr_max_pct: z.number(), availability_min_pct: z.number() })
  .openapi("Y1564Criteria", { description: "Service acceptance criteria" });
export type Y1564Criteria = z.infer<typeof Y1564Criteria>;

const verdict = z.enum(["pass", "fail"]);
/** One service configuration test step: offered rate and what was measured. */
export const Y1564Step = z
  .object({
    step: z.enum(y1564Steps),
    label: z.string(),
    offered_mbps: z.number(),
    ir_mbps: z.number().openapi({ description: "Information rate received" }),
    flr_pct: z.number().openapi({ description: "Frame loss ratio" }),
    ftd_min_ms: z.number(),
    ftd_avg_ms: z.number(),
    ftd_max_ms: z.number(),
    fdv_ms: z.number().openapi({ description: "Frame delay variation" }),
    result: verdict,
    reasons: z.array(z.string()).openapi({ description: "Why it failed (empty when it passed)" }),
  })
  .openapi("Y1564Step");
export type Y1564Step = z.infer<typeof Y1564Step>;

export const Y1564Performance = z
  .object({
    duration_s: z.number(),
    ir_mbps: z.number(),
    flr_pct: z.number(),
    ftd_min_ms: z.number(),
    ftd_avg_ms: z.number(),
    ftd_max_ms: z.number(),
    fdv_ms: z.number(),
    availability_pct: z.number(),
    result: verdict,
    reasons: z.array(z.string()),
  })
  .openapi("Y1564Performance");
export type Y1564Performance = z.infer<typeof Y1564Performance>;

/** Spec 3 §3's link speed test sample, taken during an activation test: what the device sent (tx) and received back (rx). */
export const ActivationLinkSpeed = LinkSpeedTestSample.extend({
  phase: z.string().openapi({ description: "What was running: a configuration step, or the service performance test and how far into it" }),
}).openapi("ActivationLinkSpeed");
export type ActivationLinkSpeed = z.infer<typeof ActivationLinkSpeed>;

/** How many times faster than real time the simulated network ran a test (FLEET_TEST_SPEED, FLEET_SERVICE_PERFORMANCE_SPEED at its start). */
export const TestAcceleration = z
  .object({
    configuration: z.number().openapi({ description: "The link checks and the service configuration test" }),
    performance: z.number().openapi({ description: "The service performance test" }),
  })
  .openapi("TestAcceleration");
export type TestAcceleration = z.infer<typeof TestAcceleration>;

export const ActivationReport = z
  .object({
    sse_id: z.string(),
    device_id: z.string(),
    device_name: z.string(),
    kind: z.enum(["cpe", "metro"]),
    prod_code: z.string(),
    peer: z.string(),
    meg_level: z.number().int().nullable().openapi({ description: "The metro's OAM MD level; null for a CPE" }),
    cir_mbps: z.number(),
    eir_mbps: z.number(),
    started_at: isoTime(),
    finished_at: when(),
    status: z.enum(["running", "completed", "failed"]),
    criteria: Y1564Criteria,
    configuration: z.array(Y1564Step),
    performance: Y1564Performance.nullable(),
    performance_duration_s: z.number().openapi({ description: "The service performance test's duration chosen at the start, seconds (20 for a test started before the choice)" }),
    accelerated: TestAcceleration.nullable().openapi({ description: "The simulated network ran the test faster than real time (tests); null: real time" }),
    link_speed: z.array(ActivationLinkSpeed).openapi({ description: "Link speed samples: one per configuration step, then one per interval of the service performance test" }),
    result: verdict.nullable(),
    detail: z.string().nullable().openapi({ description: "Why the test could not run (the link was down)" }),
  })
  .openapi("ActivationReport");
export type ActivationReport = z.infer<typeof ActivationReport>;

export const ActivationStarted = z.object({ status: z.string(), sse_id: z.string(), started_at: isoTime(), performance_duration_s: z.number().openapi({ description: "The service performance test's duration, seconds" }) }).openapi("ActivationStarted");
export type ActivationStarted = z.infer<typeof ActivationStarted>;

/** One server-sent event's data on check-test-status (one per step; the last has status completed or failed). */
export const ActivationEvent = z
  .object({
    seq: z.number().int(),
    timestamp: isoTime(),
    status: z.enum(["running", "completed", "failed"]),
    progress: z.number().int(),
    message: z.string(),
    step: Y1564Step.nullable(),
    performance: Y1564Performance.nullable(),
    link_speed: ActivationLinkSpeed.nullable().openapi({ description: "The link speed sample this message reports, if any" }),
    result: verdict.nullable(),
  })
  .openapi("ActivationEvent");
export type ActivationEvent = z.infer<typeof ActivationEvent>;

// ---------------------------------------------------------------------------------------------
// Monitoring tab (get_device_monitoring)

export const DeviceMonitoring = z
  .object({
    node_id: z.string(),
    range: z.string(),
    uptime_percent: z.number().nullable().openapi({ description: "Announced maintenance left out (get_availability's figure for the range); null when nothing was counted" }),
    op_state: z.enum(["up", "down"]).nullable().openapi({ description: "null (shown N/A) while the device has never registered" }),
    health: z.array(z.object({ timestamp: isoTime(), health: z.number(), RTT_ms: z.number(), "Loss Rate": z.number() })).openapi({ description: "WAN link health (%), RTT (ms), packet loss (%)" }),
    utilization: z
      .array(z.object({ timestamp: isoTime(), rx_avg_util: z.number(), rx_peak_util: z.number(), tx_avg_util: z.number(), tx_peak_util: z.number() }))
      .openapi({ description: "Ratios 0–1 (shown × 100)" }),
    announcements: z.array(DeviceAnnouncement),
  })
  .openapi("DeviceMonitoring");
export type DeviceMonitoring = z.infer<typeof DeviceMonitoring>;

// ---------------------------------------------------------------------------------------------
// The calls' requests: the platform validates with them and the console's device forms are these
// schemas (app/routes/devices-shared, routers: schemas.server.ts), so both say the same words
// within the same limits. The bodies the two kinds share, each with the kind's id, are built per
// kind (routes/device-kind.ts) from the fields of devices-fields.shapes.ts.

export const ResetInterfaceBody = body({
  node_id: nodeId(),
  interface: z
    .string({ error: (iss) => (iss.input === undefined ? deviceMessages.chooseInterface : "Input should be a valid string") })
    .trim()
    .min(1, deviceMessages.chooseInterface)
    .max(20, maxMessage(20)),
})
  .strict()
  .openapi("ResetInterface");

// Internet NIDs (routes/cpe.ts)

export const CreateCpeBody = body({
  cpe_name: deviceName("Name"),
  // why the cast: z.enum wants a non-empty tuple; the product list is a constant with four codes.
  prod_code: z.enum(cpeProductCodes as [string, ...string[]], { error: (iss) => (iss.input === undefined || iss.input === "" ? deviceMessages.productRequired : `Product code must be one of: ${cpeProductCodes.join(", ")}`) }),
  site_address: deviceName("Site Address").pipe(z.string().max(deviceLimits.address)),
  shipping_address: optionalText(deviceLimits.address),
  provider_service_id: optionalText(deviceLimits.text),
  client_circuit_id: optionalText(deviceLimits.text),
  ...contactInputs,
  description: description().optional(),
  entity_name: optionalText(deviceLimits.name),
  latitude: latitude().nullable().optional(),
  longitude: longitude().nullable().optional(),
})
  .strict()
  .openapi("CreateCpe");

export const UpdateCpeInfoBody = body({
  cpe_id: cpeId(),
  cpe_name: deviceName("Name"),
  site_address: deviceName("Site Address").pipe(z.string().max(deviceLimits.address)),
  provider_service_id: line(deviceLimits.text),
  client_circuit_id: line(deviceLimits.text),
  ping_dns_ip: optionalIp("Ping DNS IP"),
  ping_email_notification: bool(),
  ping_webhook_notification: bool(),
  ping_gw_ip: optionalIp("Ping gateway IP"),
  description: description().optional(),
  latitude: latitude().nullable().optional(),
  longitude: longitude().nullable().optional(),
  shipping_address: optionalText(deviceLimits.address),
  ...contactInputs,
})
  .strict()
  .openapi("UpdateCpeInfo");

type NetworkInfo = { mode: string; wan_addressing: string; wan_cidr: string; wan_gateway: string; lan_cidr: string };

/** Edit Network Info's rules (the call's and the dialog's): static addressing needs the WAN address and gateway, ROUTER mode the LAN address. */
export function networkRules(v: NetworkInfo, ctx: z.core.$RefinementCtx) {
  if (v.wan_addressing === "static") {
    if (!v.wan_cidr) ctx.addIssue({ code: "custom", path: ["wan_cidr"], message: "WAN address is required for static addressing." });
    if (!v.wan_gateway) ctx.addIssue({ code: "custom", path: ["wan_gateway"], message: "WAN gateway is required for static addressing." });
  }
  if (v.mode === "ROUTER" && !v.lan_cidr) ctx.addIssue({ code: "custom", path: ["lan_cidr"], message: "LAN address is required in ROUTER mode." });
}

export const UpdateCpeNetworkBody = body({
  cpe_id: cpeId(),
  mode: z.enum(cpeModes, { error: `Mode must be one of: ${cpeModes.join(", ")}` }),
  wan_addressing: z.enum(wanAddressing, { error: `WAN addressing must be one of: ${wanAddressing.join(", ")}` }),
  wan_cidr: cidrField("WAN address").default(""),
  wan_gateway: optionalIp("WAN gateway").default(""),
  dns_servers: ipList("DNS servers").default([]),
  lan_cidr: cidrField("LAN address").default(""),
})
  .strict()
  .superRefine(networkRules)
  .openapi("UpdateCpeNetworkInfo");

export const SetCpeScanIntervalBody = body({ cpe_id: cpeId(), scan_interval: wholeIn("Down notification interval", scanInterval.min, scanInterval.max) }).strict().openapi("SetCpeScanInterval");
export const UpdateCpeIpMonitorTargetBody = body({ cpe_id: cpeId(), ip_monitor_target: ipTarget("IP monitor target") }).strict().openapi("UpdateCpeIpMonitorTarget");


/** Edit Daily Performance Test's rule (the call's and the dialog's): Start needs a peer region and an hour (spec 3 §5). */
export function perfTestRules(v: { enable: boolean; peer_region?: string | undefined; hour_of_day?: number | undefined }, ctx: z.core.$RefinementCtx) {
  if (v.enable && (!v.peer_region || v.hour_of_day === undefined)) ctx.addIssue({ code: "custom", path: [v.peer_region ? "hour_of_day" : "peer_region"], message: deviceMessages.selectPeerRegion });
}

export const ConfigurePerfTestBody = body({ cpe_id: cpeId(), peer_region: line(20).optional(), hour_of_day: hourOfDay().optional(), enable: bool() })
  .strict()
  .superRefine(perfTestRules)
  .openapi("ConfigurePerfTestSchedule");

export const StartCpeSpeedTestBody = body({ cpe_id: cpeId(), test_type: testType() }).strict().openapi("StartCpeSpeedTest");

// Metro Ethernet NIDs (routes/metro.ts)

const optionalVlan = (what: string) => vlanId(what).nullable().optional();
/** Create Device's and Edit NID info's fields (a blank VLAN id, rate or SFP is null: none). */
export const metroFields = {
  metro_name: text(deviceLimits.name, { min: 1, minMessage: "Metro name is required." }),
  // why the cast: z.enum wants a non-empty tuple; the product list is a constant with three codes.
  prod_code: z.enum(metroProductCodes as [string, ...string[]], { error: (iss) => (iss.input === undefined || iss.input === "" ? deviceMessages.productRequired : `Product code must be one of: ${metroProductCodes.join(", ")}`) }),
  shipping_address: optionalText(deviceLimits.address),
  site_address: optionalText(deviceLimits.address),
  provider_service_id: optionalText(deviceLimits.text),
  client_circuit_id: optionalText(deviceLimits.text),
  ...contactInputs,
  wan_data_vlan_id: optionalVlan("WAN data VLAN id"),
  wan_q_in_q_vlan_id: optionalVlan("WAN Q-in-Q VLAN id"),
  lan_data_vlan_id: optionalVlan("LAN data VLAN id"),
  lan_q_in_q_vlan_id: optionalVlan("LAN Q-in-Q VLAN id"),
  wan_mgmt_vlan_id: optionalVlan("WAN management VLAN id").openapi({ description: "Default 100" }),
  wan_cir_mbps: rateMbps("WAN CIR").nullable().optional(),
  wan_eir_mbps: rateMbps("WAN EIR").nullable().optional(),
  wan_sfp: z.enum(sfpTypes, { error: `SFP must be one of: ${sfpTypes.join(", ")}` }).nullable().optional(),
  lan_sfp: z.enum(sfpTypes, { error: `SFP must be one of: ${sfpTypes.join(", ")}` }).nullable().optional(),
  entity_name: optionalText(deviceLimits.name),
  latitude: latitude().nullable().optional(),
  longitude: longitude().nullable().optional(),
};
/** SFP choices only for BN-METRO-1000F (spec 3 §5): the calls' rule and the dialogs'. */
export const sfpOnlyForFibre = (v: { prod_code: string; wan_sfp?: string | null; lan_sfp?: string | null }, ctx: z.core.$RefinementCtx) => {
  if (v.prod_code === SFP_PRODUCT) return;
  for (const f of ["wan_sfp", "lan_sfp"] as const) if (v[f]) ctx.addIssue({ code: "custom", path: [f], message: `SFP choices are only for ${SFP_PRODUCT}` });
};

export const CreateMetroBody = body(metroFields).strict().superRefine(sfpOnlyForFibre).openapi("CreateMetro");
export const UpdateMetroInfoBody = body({ metro_id: metroId(), ...metroFields, description: description().optional() }).strict().superRefine(sfpOnlyForFibre).openapi("UpdateMetroInfo");

// Edit OAM info (routes/metro.ts): IEEE 802.1ag / ITU-T Y.1731

/** An MD or MA name: printable ASCII within the range; one sentence for anything else (the dialog's). */
const asciiName = (what: string, range: { min: number; max: number }) => {
  const message = `${what} must be ${range.min}–${range.max} printable ASCII characters.`;
  return z
    .string({ error: message })
    .max(range.max, message)
    .refine((s) => s.length >= range.min && isPrintableAscii(s), message);
};

/**
 * A CFM number as sent: a whole number in its range (the dialog's sentence for anything else), a
 * real zod range so the document and the dialog's input (min, max) carry it; blank or null is none,
 * which the rule refuses with continuity check on.
 */
const cfmNumber = (what: string, range: { min: number; max: number }) =>
  z.preprocess((v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v), wholeIn(what, range.min, range.max).optional());

/** The CFM text fields' checks, applied only with continuity check on (spec 3 §5); the words are the dialog's. */
const cfmChecks = {
  // An empty choice asks for one; the list is for a value that is not on it (issue 63 item 23).
  ccm_interval: z.enum(ccmIntervals, { error: (iss) => (iss.input === undefined || iss.input === "" ? "Choose a CCM interval." : `CCM interval must be one of: ${ccmIntervals.join(", ")}.`) }),
  md_name: asciiName("MD name", oamLimits.mdName),
  md_association: asciiName("MA name", oamLimits.maName),
};
/** The CFM numbers' words for none, with continuity check on (their ranges are their fields'). */
const cfmRequired = { md_level: "MD level is required.", mep_id: "MEP id is required.", vlan_id: "VLAN id is required." };
/** The CFM fields in the dialog's order (the rule says their messages in it). */
const cfmOrder = ["ccm_interval", "md_name", "md_level", "md_association", "mep_id", "vlan_id"] as const;

/** edit_oam's fields as sent; the CFM text fields are checked by `oamRules`, the numbers by their ranges. */
export const oamFields = {
  metro_id: metroId(),
  loopback_enabled: bool(),
  ccp_enabled: bool(),
  ccm_interval: z.string().max(10, maxMessage(10)).optional().openapi({ enum: [...ccmIntervals] }),
  md_name: z.string().max(200, maxMessage(200)).optional(),
  md_level: cfmNumber("MD level", oamLimits.mdLevel),
  md_association: z.string().max(200, maxMessage(200)).optional(),
  mep_id: cfmNumber("MEP id", oamLimits.mepId),
  vlan_id: cfmNumber("VLAN id", oamLimits.vlanId),
};
type OamFields = { metro_id: string; loopback_enabled: boolean; ccp_enabled: boolean; ccm_interval?: string; md_name?: string; md_level?: number; md_association?: string; mep_id?: number; vlan_id?: number };

/**
 * edit_oam's input with continuity check off: the CFM fields left out before they are read, so
 * they are neither checked nor sent (spec 3 §5: they apply only with continuity check on). Before
 * the form's coercion too, so a checkbox's "on" is on.
 */
export const oamInput = (v: unknown) => {
  if (typeof v !== "object" || v === null) return v;
  const on = "ccp_enabled" in v ? v.ccp_enabled : undefined;
  if (on === true || on === "on") return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !(cfmOrder as readonly string[]).includes(k)));
};

/** edit_oam's rule, the call's and the dialog's: with continuity check on, each CFM field given and right (every one said at once). */
export function oamRules(v: OamFields, ctx: z.core.$RefinementCtx) {
  if (!v.ccp_enabled) return;
  for (const k of cfmOrder) {
    if (k === "md_level" || k === "mep_id" || k === "vlan_id") {
      if (v[k] === undefined) ctx.addIssue({ code: "custom", path: [k], message: cfmRequired[k] });
      continue;
    }
    for (const issue of cfmChecks[k].safeParse(v[k]).error?.issues ?? []) ctx.addIssue({ code: "custom", path: [k], message: issue.message });
  }
}

/** edit_oam's body as the call takes it (after oamRules): the CFM fields only with continuity check on. */
export function oamValue(v: OamFields) {
  if (!v.ccp_enabled) return { metro_id: v.metro_id, loopback_enabled: v.loopback_enabled, ccp_enabled: false };
  // why the casts below: oamRules refused each of them missing or wrong, so zod never answers this object without them.
  return {
    metro_id: v.metro_id,
    loopback_enabled: v.loopback_enabled,
    ccp_enabled: true,
    ccm_interval: v.ccm_interval as string,
    md_name: v.md_name as string,
    md_level: v.md_level as number,
    md_association: v.md_association as string,
    mep_id: v.mep_id as number,
    vlan_id: v.vlan_id as number,
  };
}

export const EditOamBody = z
  .preprocess(oamInput, body(oamFields).strict().superRefine(oamRules))
  .transform(oamValue)
  .openapi("EditOam", {
    description: "IEEE 802.1ag / ITU-T Y.1731: with ccp_enabled, ccm_interval from metro_ccm_interval, md_level 0–7, mep_id 1–8191, vlan_id 1–4094, md_name 1–43 and md_association (MA name) 1–45 printable ASCII",
  });

// The activation test's start (routes/devices.ts): the dialog's form for both kinds

/** The peer's IP (L3): 'Please enter peer IP address first.' when none is given (spec 3 §5). */
const peerIp = () => z.string({ error: (iss) => (iss.input === undefined ? deviceMessages.peerIp : "Input should be a valid string") }).pipe(ipField("Peer IP", { blank: deviceMessages.peerIp }));

export const StartCpeTestBody = body({ cpe_id: cpeId(), peer_ip: peerIp(), ...criteriaFields, performance_duration_s: performanceDurationField() }).strict().openapi("StartCpeTest");

/** start_metro_test's fields as sent; which peer is checked is `metroPeerRule`'s. */
export const startMetroFields = {
  metro_id: metroId(),
  peer_ip: z.string().max(45, maxMessage(45)).optional(),
  peer_mac: z.string().max(17, maxMessage(17)).optional(),
  vlan_id: z.unknown().optional().openapi({ type: "integer", minimum: 1, maximum: 4094 }),
  ...criteriaFields,
  performance_duration_s: performanceDurationField(),
};

/** L3: a peer IP; L2: a peer MAC with its VLAN (spec 3 §5), each asked for by name when blank. The call's rule and the dialog's. */
export function metroPeerRule(v: { peer_ip?: string; peer_mac?: string; vlan_id?: unknown }, ctx: z.core.$RefinementCtx) {
  const blank = (x: unknown) => x === undefined || x === null || (typeof x === "string" && x.trim() === "");
  const say = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (!blank(v.peer_ip)) {
    for (const i of ipField("Peer IP", { blank: deviceMessages.peerIp }).safeParse(v.peer_ip).error?.issues ?? []) say("peer_ip", i.message);
  } else if (v.peer_mac !== undefined || v.vlan_id !== undefined) {
    if (blank(v.peer_mac)) say("peer_mac", deviceMessages.peerMac);
    else for (const i of macField().safeParse(v.peer_mac).error?.issues ?? []) say("peer_mac", i.message);
    if (blank(v.vlan_id)) say("vlan_id", deviceMessages.vlanId);
    else for (const i of vlanId("VLAN id").safeParse(v.vlan_id).error?.issues ?? []) say("vlan_id", i.message);
  } else {
    say("peer_ip", deviceMessages.peerIp);
  }
}

export const StartMetroTestBody = body(startMetroFields).strict().superRefine(metroPeerRule).openapi("StartMetroTest", { description: "L3: peer_ip; or L2: peer_mac and vlan_id (1–4094)" });
