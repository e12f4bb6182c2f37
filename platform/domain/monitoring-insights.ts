import type { MonitoringRange } from "../contract/devices.ts";
import { flowNotFound } from "../contract/monitoring-insights.ts";
import type { AppFlows, AppVisibility, DdosProtection } from "../contract/monitoring-insights.shapes.ts";
import type { PcapSession } from "../contract/pcap.shapes.ts";
import type { DdosThresholds, NetflowRow, WanHealthSample } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { flowReport, toSession, type FlowReport } from "../pcap/report.ts";
import type { ConversationFigures, DirectionFigures } from "../pcap/types.ts";
import { FLAG_NAMES, type FlagName } from "../pcap/tcp-analysis.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { fleetObjectOf, storedNode, type DeviceRef } from "./devices.ts";
import { computeNow, type Remember } from "../lib/auth.ts";

/*
 * /main-dashboard tabs 4–6 for one device of the caller's account (another account's, or an
 * unknown id: 404): application visibility, the device's flows judged as the PCAP analyzer judges
 * a capture's sessions (the same thresholds, report and PDF: platform/pcap/report.ts), and DDoS
 * protection. Every figure comes from the fleet (docs/fleet.md) for the device's site, speed,
 * announced maintenance, resets, protection flags and DDoS thresholds.
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

/** The device, its fleet object and events; its rows through `remember` (the read cache: Remember in lib/auth.ts). */
async function deviceOf(deps: Deps, accountId: string, nodeId: string, remember: Remember = computeNow) {
  const stored = await remember(() => storedNode(deps.db, accountId, nodeId));
  return { d: stored.d, stored, obj: fleetObjectOf(stored.d), events: stored.events, fleet: fleetOf(deps) };
}

/** dashboard_get_app_visibility: spec 3 §3 App visibility over the range. */
export async function appVisibility(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, remember: Remember = computeNow, now = Date.now()): Promise<AppVisibility> {
  const { d, obj, events, fleet } = await deviceOf(deps, accountId, nodeId, remember);
  return { node_id: d.id, range, ...fleet.appVisibility(obj, range, now, events) };
}

// ---------------------------------------------------------------------------------------------
// Flows, judged as the PCAP analyzer judges a capture

/** Wire overheads per packet (Ethernet + IPv4 + TCP with timestamps / UDP) and a full segment's payload. */
const TCP_HEADER = 66;
const UDP_HEADER = 42;
const MSS = 1448;

// why the cast: fromEntries over FLAG_NAMES gives every flag name its 0.
const noFlags = () => Object.fromEntries(FLAG_NAMES.map((n) => [n, 0])) as Record<FlagName, number>;

/** '1764064803.250000000' from an ISO time (exact: the analyzer's *_str fields are exact decimals). */
function epochText(iso: string): string {
  const ms = Date.parse(iso);
  return `${Math.floor(ms / 1000)}.${String(((ms % 1000) + 1000) % 1000).padStart(3, "0")}000000`;
}

/**
 * What the device's flow monitor counts for one netflow row, as the PCAP analyzer's figures of a
 * conversation: packets from the wire bytes (full segments plus delayed ACKs), and what the link
 * did in that bucket (the fleet's WAN health: loss and RTT) as the TCP analysis would see it at
 * the device — segments lost upstream arrive missing and are retransmitted, the client answers
 * each gap with duplicate ACKs, its own losses past the device are retransmitted, and the ACK RTT
 * is the link's. No randomness: the same row and link give the same figures.
 */
export function flowConversation(flow: NetflowRow, link: Pick<WanHealthSample, "RTT_ms" | "Loss Rate"> | undefined): ConversationFigures {
  const proto = flow.proto.toLowerCase() === "udp" ? "udp" : "tcp";
  const client = `${flow.src_addr}:${flow.src_port}`;
  const server = `${flow.dst_addr}:${flow.dst_port}`;
  const loss = Math.min(1, Math.max(0, (link?.["Loss Rate"] ?? 0) / 100));
  const header = proto === "tcp" ? TCP_HEADER : UDP_HEADER;
  const dataOf = (bytes: number) => (bytes > 0 ? Math.ceil(bytes / (MSS + header)) : 0);
  const upData = dataOf(flow.tx_bytes);
  const downData = dataOf(flow.rx_bytes);
  const direction = (bytes: number, data: number, acks: number, flags: Record<FlagName, number> | null): DirectionFigures => {
    const packets = data + acks;
    const payload = Math.max(0, bytes - packets * header);
    if (!flags) return { packets, bytes, payload_bytes: payload };
    return { packets, bytes, payload_bytes: payload, analysis: flags, data_packets: data, retransmitted_payload_bytes: Math.min(payload, flags.retransmission * MSS) };
  };
  let up: DirectionFigures;
  let down: DirectionFigures;
  let analysis: Record<FlagName, number> | undefined;
  if (proto === "tcp") {
    const lostDown = Math.round(downData * loss);
    const lostUp = Math.round(upData * loss);
    const upFlags = { ...noFlags(), retransmission: lostUp, duplicate_ack: 2 * lostDown };
    const downFlags = { ...noFlags(), retransmission: lostDown, fast_retransmission: lostDown, lost_segment: lostDown, duplicate_ack: 2 * lostUp };
    up = direction(flow.tx_bytes, upData, Math.ceil(downData / 2), upFlags);
    down = direction(flow.rx_bytes, downData, Math.ceil(upData / 2), downFlags);
    analysis = noFlags();
    for (const n of FLAG_NAMES) analysis[n] = upFlags[n] + downFlags[n];
  } else {
    up = direction(flow.tx_bytes, upData, 0, null);
    down = direction(flow.rx_bytes, downData, 0, null);
  }
  // The analyzer's conversation: a and b sorted as strings, the client sent the first packet.
  const clientIsA = client <= server;
  const start = Date.parse(flow.start_time);
  const end = Date.parse(flow.end_time);
  const rtt = link ? link.RTT_ms / 1000 : null;
  const samples = proto === "tcp" ? Math.ceil((upData + downData) / 2) : 0;
  return {
    // The start time keeps two flows of one 5-tuple apart (the session id is a hash of the key).
    key: `${proto} ${clientIsA ? client : server} ${clientIsA ? server : client} ${flow.start_time}`,
    proto,
    a: clientIsA ? client : server,
    b: clientIsA ? server : client,
    first_src: client,
    // The device's flow record starts with the connection: its source opened it.
    client,
    client_chosen_by: "SYN",
    packets: up.packets + down.packets,
    bytes: flow.tx_bytes + flow.rx_bytes,
    start_time: start / 1000,
    end_time: end / 1000,
    duration: (end - start) / 1000,
    start_time_str: epochText(flow.start_time),
    end_time_str: epochText(flow.end_time),
    a_to_b: clientIsA ? up : down,
    b_to_a: clientIsA ? down : up,
    ...(analysis ? { analysis, ack_rtt: { samples, median: samples ? rtt : null, max: samples && rtt !== null ? Math.round(rtt * 1.8 * 1e6) / 1e6 : null } } : {}),
    app_name: flow.app_name,
    server_name: null,
  };
}

/** The device's flows over the range with their figures (newest first). */
async function deviceFlows(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, now: number) {
  const { d, obj, events, fleet } = await deviceOf(deps, accountId, nodeId);
  const w = fleet.window(range, now);
  const health = fleet.wanHealth(obj, range, now, events);
  const byBucket = new Map(health.map((h) => [Date.parse(h.timestamp), h]));
  const bucketOf = (iso: string) => w.first + Math.floor((Date.parse(iso) - w.first) / w.step) * w.step;
  const conversations = fleet
    .netflows(obj, range, now)
    .sort((x, y) => (x.start_time < y.start_time ? 1 : x.start_time > y.start_time ? -1 : 0))
    .map((f) => flowConversation(f, byBucket.get(bucketOf(f.start_time))));
  return { d, conversations };
}

const asSession = (d: DeviceRef, c: ConversationFigures): PcapSession => ({ ...toSession(c), ep_id: null, app_service_id: null, node_id: d.id });

/** dashboard_get_app_flows: the flows and the degraded share, as the PCAP analyzer's summary says it. */
export async function appFlows(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, now = Date.now()): Promise<AppFlows> {
  const { d, conversations } = await deviceFlows(deps, accountId, nodeId, range, now);
  const sessions = conversations.map((c) => asSession(d, c));
  const degraded = sessions.filter((s) => s.performance !== "good").length;
  const times = conversations.flatMap((c) => [c.start_time ?? 0, c.end_time ?? 0]);
  return {
    node_id: d.id,
    range,
    summary: {
      packets: conversations.reduce((n, c) => n + c.packets, 0),
      bytes: conversations.reduce((n, c) => n + c.bytes, 0),
      duration: times.length ? Math.round((Math.max(...times) - Math.min(...times)) * 1000) / 1000 : 0,
      sessions: sessions.length,
      degraded_sessions: degraded,
      degraded_percent: sessions.length ? Math.round((degraded / sessions.length) * 100_000) / 1000 : 0,
    },
    sessions,
  };
}

/** dashboard_get_app_flow_report: one flow's report (the PCAP analyzer's), or 404 'There is no test data.'. */
export async function appFlowReport(
  deps: Deps,
  accountId: string,
  nodeId: string,
  range: MonitoringRange,
  sessionId: string,
  now = Date.now(),
): Promise<{ device: DeviceRef; session: PcapSession; report: FlowReport }> {
  const { d, conversations } = await deviceFlows(deps, accountId, nodeId, range, now);
  for (const c of conversations) {
    const session = asSession(d, c);
    if (session.session_id === sessionId) return { device: d, session, report: flowReport(c) };
  }
  throw notFound(flowNotFound);
}

// ---------------------------------------------------------------------------------------------
// DDoS

/** The stored thresholds (the contract's names) as the fleet's. */
const fleetThresholds = (t: DeviceRef["ddos"]): DdosThresholds => ({ flood_tcp_syn: t.tcp_syn_flood_thresholds, flood_udp: t.udp_thresholds, flood_icmp: t.icmp_thresholds });

/** dashboard_get_ddos: the DDoS Protection Suite of the device over the range. */
export async function ddosProtection(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, remember: Remember = computeNow, now = Date.now()): Promise<DdosProtection> {
  const { d, stored, obj, events, fleet } = await deviceOf(deps, accountId, nodeId, remember);
  const x = fleet.ddos(obj, range, now, { thresholds: fleetThresholds(d.ddos), blockMalicious: d.flags.malicious, mitigation: d.flags.dos, nodeName: d.name, siteAddress: stored.siteAddress }, events);
  return {
    node_id: d.id,
    range,
    malicious_ip_block_enabled: d.flags.malicious,
    denial_of_service_enabled: d.flags.dos,
    inbound: x.inbound,
    outbound: x.outbound,
    blocked: x.blocked,
    blocked_history: x.blocked_history,
    dos_history: x.attacks.map(({ start: _start, end: _end, ...a }) => a),
    mitigation: x.mitigation,
  };
}
