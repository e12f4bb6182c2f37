import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.shapes.ts";
import { PcapFlowReport, PcapSession, PcapSummary } from "./pcap.shapes.ts";

/*
 * The answers of /main-dashboard's tabs 4–6 for one device (spec 3 §2.14, §3 'Session', 'App
 * visibility', 'Node (DDoS maps)', 'Inbound / Blocked IP entries', 'Blocked history', 'DoS
 * history'), each declared once. A flow of App Performance Insights is a PCAP session row and
 * its report the PCAP analyzer's flow analysis report (pcap.shapes.ts): one shape, one judgement.
 */

const deviceRange = {
  node_id: z.string().openapi({ description: "The CPE or metro device" }),
  range: z.string().openapi({ description: "The time range asked for (1h … 1w)" }),
};

/** Spec 3 §3 Session: one application seen on the device over the range. */
export const AppSession = z
  .object({
    node_id: z.string(),
    start_time: isoTime().openapi({ description: "First seen in the range" }),
    performance: z.enum(["good", "not good"]).openapi({
      description: "'not good' for real-time apps when the link lost packets",
    }),
    app_name: z.string(),
    description: z.string(),
    port: z.number().int(),
    protocol: z.string().openapi({ example: "TCP" }),
    hits: z.number().int(),
    bytes: z.number().int(),
  })
  .openapi("AppSession");
export type AppSession = z.infer<typeof AppSession>;

/** Spec 3 §3 App visibility. */
export const AppVisibility = z
  .object({
    ...deviceRange,
    top_app_by_hits: z.array(z.object({ app_name: z.string(), hits: z.number().int() })).openapi({ description: "At most 10, most hits first" }),
    top_app_by_bytes: z.array(z.object({ app_name: z.string(), bytes: z.number().int() })).openapi({ description: "At most 10, most bytes first" }),
    total_apps: z.number().int(),
    total_visits: z.number().int(),
    total_bytes: z.number().int(),
    sessions: z.array(AppSession).openapi({
      description: "One per application, most bytes first (at most 40)",
    }),
  })
  .openapi("AppVisibility");
export type AppVisibility = z.infer<typeof AppVisibility>;

/** App Flows & Performance Analysis: the device's flows judged as the PCAP analyzer judges a capture's sessions. */
export const AppFlows = z
  .object({
    ...deviceRange,
    summary: PcapSummary,
    sessions: z.array(PcapSession).openapi({
      description: "Newest first (at most 3 per bucket of the range: ≤ 510)",
    }),
  })
  .openapi("AppFlows");
export type AppFlows = z.infer<typeof AppFlows>;

/** One flow's report: the PCAP analyzer's flow analysis report, for a device's flow instead of a capture's. */
export const AppFlowReport = PcapFlowReport.omit({ pcap_file_key: true }).extend(deviceRange).openapi("AppFlowReport");
export type AppFlowReport = z.infer<typeof AppFlowReport>;

/** Spec 3 §3 Node (DDoS maps). */
export const DdosNode = z
  .object({
    node_name: z.string(),
    node_id: z.string(),
    site_address: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    malicious_ips: z.number().int().openapi({ description: "Sources scoring at least 70" }),
    total_ips: z.number().int(),
  })
  .openapi("DdosNode");
export type DdosNode = z.infer<typeof DdosNode>;

const place = {
  city: z.string(),
  country: z.string(),
  latitude: z.number(),
  longitude: z.number(),
};
const score = () => z.number().int().openapi({ description: "0–100; 70 and above is malicious" });

/** Spec 3 §3 Inbound IP entries (outbound alike): a city and the addresses seen there. */
export const GeoEntry = z
  .object({
    ...place,
    malicious_score: score().openapi({
      description: "The highest score of its addresses",
    }),
    ips: z.array(
      z.object({
        ip_address: z.string(),
        malicious_score: score(),
        ports: z.array(z.number().int()),
      }),
    ),
  })
  .openapi("DdosGeoEntry");
export type GeoEntry = z.infer<typeof GeoEntry>;

/** Spec 3 §3 Blocked IP entries. */
export const BlockedEntry = z
  .object({
    ...place,
    ips: z.array(z.object({ ip: z.string(), malicious_score: score() })),
  })
  .openapi("DdosBlockedEntry");
export type BlockedEntry = z.infer<typeof BlockedEntry>;

/** Spec 3 §3 Blocked history. */
export const BlockedHistory = z
  .object({
    ip_address: z.string(),
    country: z.string(),
    city: z.string(),
    malicious_score: score(),
    block_time: isoTime(),
  })
  .openapi("DdosBlockedHistory");
export type BlockedHistory = z.infer<typeof BlockedHistory>;

/** Spec 3 §3 DoS history: one attack. */
export const DosAttack = z
  .object({
    src_addr: z.string(),
    status: z.enum(["detected", "mitigated"]).openapi({
      description: "mitigated: at or above the block threshold with DDoS mitigation on",
    }),
    start_time: isoTime(),
    duration: z.number().int().openapi({ description: "Seconds" }),
    attack_throughput: z.number().openapi({
      description: "Bits per second at the peak (never above the line rate)",
    }),
    attack_volume: z.number().openapi({ description: "Bytes" }),
    attack_name: z.string().openapi({ example: "TCP SYN flood" }),
    attack_count: z.number().int().openapi({
      description: "Packets per second at the peak: what the thresholds judge",
    }),
    threshold: z.enum(["alert", "block", "max"]).openapi({ description: "The highest threshold it crossed" }),
  })
  .openapi("DosAttack");
export type DosAttack = z.infer<typeof DosAttack>;

export const MitigationSample = z
  .object({
    timestamp: isoTime(),
    blocked_bps: z.number(),
    passed_bps: z.number(),
  })
  .openapi("DdosMitigationSample");
export type MitigationSample = z.infer<typeof MitigationSample>;

/** DDoS Protection Suite: the three maps' data, the blocked traffic, the attacks and the mitigation chart. */
export const DdosProtection = z
  .object({
    ...deviceRange,
    malicious_ip_block_enabled: z.boolean(),
    denial_of_service_enabled: z.boolean(),
    inbound: z.object({ node: DdosNode, locations: z.array(GeoEntry) }).openapi({ description: "Originating Traffic Geolocations" }),
    outbound: z.object({ node: DdosNode, locations: z.array(GeoEntry) }).openapi({ description: "Destination Traffic Geolocations" }),
    blocked: z.object({ node: DdosNode, locations: z.array(BlockedEntry) }).openapi({
      description: "Blocked Malicious IPs (none while blocking is off)",
    }),
    blocked_history: z.array(BlockedHistory).openapi({ description: "Newest first" }),
    dos_history: z.array(DosAttack).openapi({ description: "DDoS Attack List, newest first" }),
    mitigation: z.array(MitigationSample).openapi({
      description: "DDoS Mitigation Traffic: bits per second dropped and passed per bucket",
    }),
  })
  .openapi("DdosProtection");
export type DdosProtection = z.infer<typeof DdosProtection>;
