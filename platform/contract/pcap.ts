/*
 * The PCAP analyzer's contract (spec 1 §5 'PCAP file', §7 'PCAP', §9): the answers of
 * analyze-s3-pcap and perform-flow-analysis and their limits, as plain TypeScript (no zod), so
 * that the platform (platform/routes/pcap.ts checks its schemas against these types) and the
 * console (app/lib/pcap.ts) declare each shape once.
 */

/** Spec 1 §9: one file of at most 10 GB. */
export const MAX_PCAP_BYTES = 10737418240;

/** The sessions table's page sizes and default (spec 1 §2: 50 rows a page). */
export const PCAP_PAGE_SIZES = [10, 25, 50] as const;
export const PCAP_DEFAULT_PAGE_SIZE = 50;
/** The largest `size` analyze-s3-pcap accepts. */
export const PCAP_MAX_PAGE_SIZE = 500;
/** The longest search text. */
export const PCAP_MAX_QUERY = 200;

/** The columns analyze-s3-pcap sorts by (`sort=tx_bytes`, `sort=-tx_bytes`); src and dst are the endpoints. */
export const PCAP_SESSION_SORTABLE = [
  "start_time",
  "end_time",
  "app_name",
  "server_name",
  "src",
  "dst",
  "proto",
  "tx_bytes",
  "rx_bytes",
  "tx_packets",
  "performance",
] as const;
export type PcapSessionSort = (typeof PCAP_SESSION_SORTABLE)[number];

export type PcapPerformance = "good" | "not good";

export interface PcapSummary {
  packets: number;
  /** Σ original wire length of every packet */
  bytes: number;
  /** seconds from the first to the last packet */
  duration: number;
  sessions: number;
  degraded_sessions: number;
  /** share of sessions whose performance is not good, 0–100 */
  degraded_percent: number;
}

export interface PcapSession {
  session_id: string;
  /** ISO 8601 UTC with nanoseconds */
  start_time: string | null;
  end_time: string | null;
  app_name: string | null;
  server_name: string | null;
  src_addr: string;
  src_port: number;
  dst_addr: string;
  dst_port: number;
  proto: "tcp" | "udp";
  tx_bytes: number;
  rx_bytes: number;
  tx_packets: number;
  rx_packets: number;
  ep_id: string | null;
  app_service_id: string | null;
  node_id: string | null;
  performance: PcapPerformance;
}

/** analyze-s3-pcap. With `size`, `sessions` is one page of the sessions matching `q`, and `sessions_total` counts them all. */
export interface PcapAnalysis {
  pcap_file_key: string;
  pcap_file_name: string;
  summary: PcapSummary;
  sessions: PcapSession[];
  /** How many sessions match `q` (all pages). */
  sessions_total: number;
  warnings: string[];
}

export interface PcapDirectionQuality {
  quality: PcapPerformance;
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

export interface PcapTraffic {
  packets: number;
  bytes: number;
  payload_bytes: number;
}

export interface PcapEndpoint {
  addr: string;
  port: number;
}

export interface PcapFinding {
  figure: string;
  /** client_to_server, server_to_client or flow */
  direction: string;
  value: number;
  threshold: number;
  text: string;
}

/** perform-flow-analysis. */
export interface PcapFlowReport {
  pcap_file_key: string;
  session_id: string;
  summary: { performance_degradation: "yes" | "no"; comment: string; findings: PcapFinding[] };
  general_info: {
    session_id: string;
    start_time: string | null;
    end_time: string | null;
    duration_seconds: number | null;
    protocol: "tcp" | "udp";
    app_name: string | null;
    server_name: string | null;
    client: PcapEndpoint;
    server: PcapEndpoint;
  };
  network_data: {
    client_to_server: PcapTraffic;
    server_to_client: PcapTraffic;
    total: PcapTraffic;
    throughput_bps: { client_to_server: number | null; server_to_client: number | null; total: number | null };
  };
  flow_quality_assessment: {
    /** null for UDP */
    segment_quality: { client_to_server: PcapDirectionQuality; server_to_client: PcapDirectionQuality } | null;
    packet_loss: { retransmissions: number; retransmission_rate: number; lost_segments: number; lost_segment_rate: number } | null;
    out_of_order: { count: number; rate: number } | null;
    dup_acks: { count: number; rate: number } | null;
    efficiency: { payload_ratio: number | null; goodput_ratio: number | null };
    request_response_stats: { ack_rtt_samples: number; ack_rtt_median_ms: number | null; ack_rtt_max_ms: number | null; responses_seen?: boolean };
    zero_windows: number | null;
  };
}

/** An address and port as one endpoint: '10.0.0.1:443', '[2001:db8::1]:443' (sorting, search, display). */
export function pcapEndpoint(addr: string, port: number): string {
  return addr.includes(":") ? `[${addr}]:${port}` : `${addr}:${port}`;
}

/**
 * Milliseconds as text, with enough precision for sub-millisecond LAN round trips: 0.012 ms,
 * 1.234 ms, 20.5 ms, 450.0 ms. The one format of every RTT in the flow report's comment, the PDF
 * and the console.
 */
export function formatMilliseconds(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  const abs = Math.abs(ms);
  const digits = abs >= 100 ? 1 : abs >= 10 ? 2 : 3;
  return `${ms.toLocaleString("en-US", { minimumFractionDigits: abs >= 100 ? 1 : 0, maximumFractionDigits: digits })} ms`;
}
