/**
 * Product views of one analysed conversation: the "PCAP session" row and the
 * "flow analysis report". Pure functions of a ConversationFigures; the thresholds and
 * how each figure is computed are documented in docs/pcap.md.
 */
import { createHash } from "node:crypto";
import { formatMilliseconds, parseMirrorSession, type PcapClientRule, type PcapEncapsulation } from "../contract/pcap.ts";
import type { ConversationFigures, DirectionFigures } from "./types.ts";

/** Thresholds above which a flow counts as degraded (docs/pcap.md, "Thresholds"). */
export const THRESHOLDS = {
  /** retransmitted segments / data segments, per direction */
  retransmissionRate: 0.02,
  /** lost (not captured) segments / data segments, per direction */
  lostSegmentRate: 0.01,
  /** out-of-order segments / data segments, per direction */
  outOfOrderRate: 0.01,
  /** duplicate ACKs / packets, per direction */
  duplicateAckRate: 0.05,
  /** any zero-window advertisement */
  zeroWindows: 0,
  /** median ACK RTT, seconds */
  rttMedianSeconds: 0.3,
} as const;

/** UDP applications that answer every request: no answer at all means a problem. */
const REQUEST_RESPONSE_UDP = new Set(["dns", "ntp", "snmp", "dhcp", "dhcpv6", "cldap", "tftp", "radius", "kerberos", "stun", "mdns", "llmnr", "netbios-ns"]);

export type Performance = "good" | "not good";

export interface PcapSession {
  session_id: string;
  /** ISO 8601 UTC with nanoseconds, e.g. 2018-12-23T10:50:09.891237000Z */
  start_time: string | null;
  end_time: string | null;
  app_name: string | null;
  server_name: string | null;
  /** the client (client_chosen_by says how it was told from the server) */
  src_addr: string;
  src_port: number;
  /** the server */
  dst_addr: string;
  dst_port: number;
  /** the rule that told the client (src) from the server (dst); null: an analysis stored before it, which took the first packet's source */
  client_chosen_by: PcapClientRule | null;
  proto: "tcp" | "udp";
  /** wire bytes / packets sent by src */
  tx_bytes: number;
  rx_bytes: number;
  tx_packets: number;
  rx_packets: number;
  performance: Performance;
  /**
   * Mirrored (encapsulated) traffic: the mirror session it was seen through, e.g.
   * "vxlan:100@192.0.2.1,192.0.2.2", its encapsulation and VNI; null for plain traffic
   */
  mirror_session: string | null;
  encapsulation: PcapEncapsulation | null;
  vni: number | null;
}

/** The mirror session of a session's report (null for plain traffic). */
export interface MirrorSessionInfo {
  name: string;
  encapsulation: PcapEncapsulation;
  vni: number;
  /** the tunnel's two outer addresses, in string order */
  outer_a: string;
  outer_b: string;
}

export interface DirectionQuality {
  quality: Performance;
  data_segments: number;
  retransmissions: number;
  retransmission_rate: number;
  fast_retransmissions: number;
  spurious_retransmissions: number;
  lost_segments: number;
  lost_segment_rate: number;
  out_of_order: number;
  out_of_order_rate: number;
  duplicate_acks: number;
  duplicate_ack_rate: number;
  zero_windows: number;
}

export interface Finding {
  /** which figure, e.g. "retransmission_rate" */
  figure: string;
  /** "client_to_server", "server_to_client" or "flow" */
  direction: string;
  value: number;
  threshold: number;
  text: string;
}

export interface FlowReport {
  summary: {
    performance_degradation: "yes" | "no";
    comment: string;
    findings: Finding[];
  };
  general_info: {
    session_id: string;
    start_time: string | null;
    end_time: string | null;
    duration_seconds: number | null;
    protocol: "tcp" | "udp";
    app_name: string | null;
    server_name: string | null;
    client: { addr: string; port: number };
    server: { addr: string; port: number };
    /** how the client was told from the server (null: an analysis stored before the rule) */
    client_chosen_by: PcapClientRule | null;
    /** mirrored traffic: the mirror session (encapsulation, VNI, outer addresses); null for plain traffic */
    mirror_session: MirrorSessionInfo | null;
  };
  network_data: {
    client_to_server: { packets: number; bytes: number; payload_bytes: number };
    server_to_client: { packets: number; bytes: number; payload_bytes: number };
    total: { packets: number; bytes: number; payload_bytes: number };
    /** bits per second over the conversation's duration (null when it lasted 0 s) */
    throughput_bps: { client_to_server: number | null; server_to_client: number | null; total: number | null };
  };
  flow_quality_assessment: {
    /** null for UDP: no sequence numbers, so no loss figures */
    segment_quality: { client_to_server: DirectionQuality; server_to_client: DirectionQuality } | null;
    packet_loss: {
      retransmissions: number;
      retransmission_rate: number;
      lost_segments: number;
      lost_segment_rate: number;
    } | null;
    out_of_order: { count: number; rate: number } | null;
    dup_acks: { count: number; rate: number } | null;
    efficiency: {
      /** payload bytes / wire bytes */
      payload_ratio: number | null;
      /** (payload bytes - retransmitted payload bytes) / wire bytes */
      goodput_ratio: number | null;
    };
    request_response_stats: {
      ack_rtt_samples: number;
      ack_rtt_median_ms: number | null;
      ack_rtt_max_ms: number | null;
      /** UDP: whether the responder answered at all */
      responses_seen?: boolean;
    };
    zero_windows: number | null;
  };
}

/** Split "1.2.3.4:80" / "[2001:db8::1]:443" into address and port. */
export function parseEndpoint(ep: string): { addr: string; port: number } {
  const i = ep.lastIndexOf(":");
  let addr = ep.slice(0, i);
  if (addr.startsWith("[") && addr.endsWith("]")) addr = addr.slice(1, -1);
  return { addr, port: Number(ep.slice(i + 1)) };
}

/** Stable id of a conversation: the first 16 hex digits of SHA-256 of its key. */
export function sessionId(conv: Pick<ConversationFigures, "key">): string {
  return createHash("sha256").update(conv.key).digest("hex").slice(0, 16);
}

/** "1545562209.891237000" -> "2018-12-23T10:50:09.891237000Z" (exact, no float rounding). */
export function epochToIso(epoch: string | null): string | null {
  if (epoch === null) return null;
  const neg = epoch.startsWith("-");
  const [intPart, frac = ""] = (neg ? epoch.slice(1) : epoch).split(".");
  let sec = Number(intPart) * (neg ? -1 : 1);
  let nanos = Number(frac.padEnd(9, "0").slice(0, 9));
  if (neg && nanos > 0) {
    sec -= 1;
    nanos = 1e9 - nanos;
  }
  const d = new Date(sec * 1000);
  if (Number.isNaN(d.getTime())) return null; // beyond what a date can hold (bogus timestamps)
  return d.toISOString().replace(/\.\d{3}Z$/, `.${String(nanos).padStart(9, "0")}Z`);
}

/**
 * The client and the server of a conversation and the rule that told them (analyzer.ts); an
 * analysis stored before the rule took the first packet's source as the client.
 */
function sides(conv: ConversationFigures): { client: string; server: string; by: PcapClientRule | null } {
  const client = conv.client ?? conv.first_src;
  return { client, server: client === conv.a ? conv.b : conv.a, by: conv.client_chosen_by ?? null };
}

function directions(conv: ConversationFigures): { toServer: DirectionFigures; toClient: DirectionFigures } {
  return sides(conv).client === conv.a ? { toServer: conv.a_to_b, toClient: conv.b_to_a } : { toServer: conv.b_to_a, toClient: conv.a_to_b };
}

function rate(n: number, d: number): number {
  return d > 0 ? n / d : n > 0 ? 1 : 0;
}

function directionQuality(d: DirectionFigures): DirectionQuality {
  const a = d.analysis!;
  // segments this side sent that could be retransmitted or lost: its data segments
  // (at least 1 when it retransmitted a SYN/FIN without any data)
  const dataSegments = d.data_packets ?? 0;
  const base = Math.max(dataSegments, a.retransmission > 0 || a.lost_segment > 0 || a.out_of_order > 0 ? 1 : 0);
  const q: DirectionQuality = {
    quality: "good",
    data_segments: dataSegments,
    retransmissions: a.retransmission,
    retransmission_rate: rate(a.retransmission, base),
    fast_retransmissions: a.fast_retransmission,
    spurious_retransmissions: a.spurious_retransmission,
    lost_segments: a.lost_segment,
    lost_segment_rate: rate(a.lost_segment, base),
    out_of_order: a.out_of_order,
    out_of_order_rate: rate(a.out_of_order, base),
    duplicate_acks: a.duplicate_ack,
    duplicate_ack_rate: rate(a.duplicate_ack, d.packets),
    zero_windows: a.zero_window,
  };
  if (
    q.retransmission_rate > THRESHOLDS.retransmissionRate ||
    q.lost_segment_rate > THRESHOLDS.lostSegmentRate ||
    q.out_of_order_rate > THRESHOLDS.outOfOrderRate ||
    q.duplicate_ack_rate > THRESHOLDS.duplicateAckRate ||
    q.zero_windows > THRESHOLDS.zeroWindows
  ) {
    q.quality = "not good";
  }
  return q;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(x < 0.1 ? 2 : 1)} %`;
}

/** Everything that crossed a threshold, in plain words. */
function findings(conv: ConversationFigures): Finding[] {
  const out: Finding[] = [];
  if (conv.proto === "udp") {
    const { toClient } = directions(conv);
    if (conv.app_name !== null && REQUEST_RESPONSE_UDP.has(conv.app_name) && toClient.packets === 0) {
      out.push({
        figure: "responses_seen",
        direction: "server_to_client",
        value: 0,
        threshold: 1,
        text: `no ${conv.app_name} response was seen for ${directions(conv).toServer.packets} request packet(s)`,
      });
    }
    return out;
  }
  const { toServer, toClient } = directions(conv);
  for (const [name, d] of [["client_to_server", toServer], ["server_to_client", toClient]] as const) {
    const q = directionQuality(d);
    const who = name === "client_to_server" ? "client to server" : "server to client";
    const check = (figure: string, value: number, threshold: number, text: string) => {
      if (value > threshold) out.push({ figure, direction: name, value, threshold, text });
    };
    check("retransmission_rate", q.retransmission_rate, THRESHOLDS.retransmissionRate,
      `${who}: ${q.retransmissions} retransmission(s) for ${q.data_segments} data segment(s) (${pct(q.retransmission_rate)} > ${pct(THRESHOLDS.retransmissionRate)})`);
    check("lost_segment_rate", q.lost_segment_rate, THRESHOLDS.lostSegmentRate,
      `${who}: ${q.lost_segments} segment(s) missing before the capture point (${pct(q.lost_segment_rate)} > ${pct(THRESHOLDS.lostSegmentRate)})`);
    check("out_of_order_rate", q.out_of_order_rate, THRESHOLDS.outOfOrderRate,
      `${who}: ${q.out_of_order} out-of-order segment(s) (${pct(q.out_of_order_rate)} > ${pct(THRESHOLDS.outOfOrderRate)})`);
    check("duplicate_ack_rate", q.duplicate_ack_rate, THRESHOLDS.duplicateAckRate,
      `${who}: ${q.duplicate_acks} duplicate ACK(s) in ${d.packets} packet(s) (${pct(q.duplicate_ack_rate)} > ${pct(THRESHOLDS.duplicateAckRate)})`);
    check("zero_windows", q.zero_windows, THRESHOLDS.zeroWindows,
      `${who}: ${q.zero_windows} zero-window advertisement(s) (receiver buffer full)`);
  }
  const rtt = conv.ack_rtt;
  if (rtt && rtt.median !== null && rtt.median > THRESHOLDS.rttMedianSeconds) {
    out.push({
      figure: "ack_rtt_median",
      direction: "flow",
      value: rtt.median,
      threshold: THRESHOLDS.rttMedianSeconds,
      text: `median ACK RTT ${formatMilliseconds(rtt.median * 1000)} > ${THRESHOLDS.rttMedianSeconds * 1000} ms over ${rtt.samples} sample(s)`,
    });
  }
  return out;
}

export function sessionPerformance(conv: ConversationFigures): Performance {
  return findings(conv).length > 0 ? "not good" : "good";
}

/** The "PCAP session" row of a conversation. */
export function toSession(conv: ConversationFigures): PcapSession {
  const { client, server, by } = sides(conv);
  const src = parseEndpoint(client);
  const dst = parseEndpoint(server);
  const { toServer, toClient } = directions(conv);
  return {
    session_id: sessionId(conv),
    start_time: epochToIso(conv.start_time_str),
    end_time: epochToIso(conv.end_time_str),
    app_name: conv.app_name,
    server_name: conv.server_name,
    src_addr: src.addr,
    src_port: src.port,
    dst_addr: dst.addr,
    dst_port: dst.port,
    client_chosen_by: by,
    proto: conv.proto,
    tx_bytes: toServer.bytes,
    rx_bytes: toClient.bytes,
    tx_packets: toServer.packets,
    rx_packets: toClient.packets,
    performance: sessionPerformance(conv),
    ...mirrorFields(conv),
  };
}

/** The mirror session of a conversation, parsed from its name (types.ts, ConversationFigures.session). */
export function mirrorSessionOf(conv: Pick<ConversationFigures, "session">): MirrorSessionInfo | null {
  const parsed = conv.session ? parseMirrorSession(conv.session) : null;
  return parsed && conv.session ? { name: conv.session, ...parsed } : null;
}

function mirrorFields(conv: ConversationFigures): Pick<PcapSession, "mirror_session" | "encapsulation" | "vni"> {
  const m = mirrorSessionOf(conv);
  return { mirror_session: m?.name ?? null, encapsulation: m?.encapsulation ?? null, vni: m?.vni ?? null };
}

/** The "flow analysis report" of a conversation. */
export function flowReport(conv: ConversationFigures): FlowReport {
  const { toServer, toClient } = directions(conv);
  const side = sides(conv);
  const client = parseEndpoint(side.client);
  const server = parseEndpoint(side.server);
  const found = findings(conv);
  const duration = conv.duration;
  const bps = (bytes: number) => (duration !== null && duration > 0 ? (bytes * 8) / duration : null);
  const payload = toServer.payload_bytes + toClient.payload_bytes;
  const isTcp = conv.proto === "tcp";
  const retransmittedPayload = (toServer.retransmitted_payload_bytes ?? 0) + (toClient.retransmitted_payload_bytes ?? 0);
  let quality: FlowReport["flow_quality_assessment"]["segment_quality"] = null;
  let loss: FlowReport["flow_quality_assessment"]["packet_loss"] = null;
  let ooo: FlowReport["flow_quality_assessment"]["out_of_order"] = null;
  let dup: FlowReport["flow_quality_assessment"]["dup_acks"] = null;
  if (isTcp) {
    const qs = directionQuality(toServer);
    const qc = directionQuality(toClient);
    quality = { client_to_server: qs, server_to_client: qc };
    const data = qs.data_segments + qc.data_segments;
    const a = conv.analysis!;
    loss = {
      retransmissions: a.retransmission,
      retransmission_rate: rate(a.retransmission, data),
      lost_segments: a.lost_segment,
      lost_segment_rate: rate(a.lost_segment, data),
    };
    ooo = { count: a.out_of_order, rate: rate(a.out_of_order, data) };
    dup = { count: a.duplicate_ack, rate: rate(a.duplicate_ack, conv.packets) };
  }
  let comment: string;
  if (found.length > 0) {
    comment = `Performance is degraded: ${found.map((f) => f.text).join("; ")}.`;
    if (found.some((f) => f.figure === "lost_segment_rate")) {
      comment += " (Missing segments can also mean the capture started mid-stream or was filtered.)";
    }
  } else if (isTcp) {
    const a = conv.analysis!;
    comment =
      `No threshold crossed: ${a.retransmission} retransmission(s), ${a.lost_segment} missing segment(s), ` +
      `${a.out_of_order} out-of-order, ${a.duplicate_ack} duplicate ACK(s), ${a.zero_window} zero window(s)` +
      (conv.ack_rtt && conv.ack_rtt.median !== null ? `, median ACK RTT ${formatMilliseconds(conv.ack_rtt.median * 1000)}.` : ".");
  } else {
    comment = "UDP carries no sequence numbers, so loss cannot be measured; " +
      (toClient.packets > 0 ? "traffic was seen in both directions." : "no reverse traffic was seen (expected for one-way protocols).");
  }
  return {
    summary: { performance_degradation: found.length > 0 ? "yes" : "no", comment, findings: found },
    general_info: {
      session_id: sessionId(conv),
      start_time: epochToIso(conv.start_time_str),
      end_time: epochToIso(conv.end_time_str),
      duration_seconds: duration,
      protocol: conv.proto,
      app_name: conv.app_name,
      server_name: conv.server_name,
      client,
      server,
      client_chosen_by: side.by,
      mirror_session: mirrorSessionOf(conv),
    },
    network_data: {
      client_to_server: { packets: toServer.packets, bytes: toServer.bytes, payload_bytes: toServer.payload_bytes },
      server_to_client: { packets: toClient.packets, bytes: toClient.bytes, payload_bytes: toClient.payload_bytes },
      total: { packets: conv.packets, bytes: conv.bytes, payload_bytes: payload },
      throughput_bps: { client_to_server: bps(toServer.bytes), server_to_client: bps(toClient.bytes), total: bps(conv.bytes) },
    },
    flow_quality_assessment: {
      segment_quality: quality,
      packet_loss: loss,
      out_of_order: ooo,
      dup_acks: dup,
      efficiency: {
        payload_ratio: conv.bytes > 0 ? payload / conv.bytes : null,
        goodput_ratio: conv.bytes > 0 ? (payload - retransmittedPayload) / conv.bytes : null,
      },
      request_response_stats: {
        ack_rtt_samples: conv.ack_rtt?.samples ?? 0,
        ack_rtt_median_ms: conv.ack_rtt?.median != null ? conv.ack_rtt.median * 1000 : null,
        ack_rtt_max_ms: conv.ack_rtt?.max != null ? conv.ack_rtt.max * 1000 : null,
        ...(isTcp ? {} : { responses_seen: toClient.packets > 0 }),
      },
      zero_windows: isTcp ? conv.analysis!.zero_window : null,
    },
  };
}
