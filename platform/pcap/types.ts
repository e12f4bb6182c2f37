/**
 * Result types of the capture analysis. Field names and meanings follow the oracle's
 * JSON (tests/fixtures/pcaps/README.md), so the CLI output can be diffed against expected/*.json.
 */
import type { PcapClientRule } from "../contract/pcap.ts";
import type { EncapsulationName } from "./decode.ts";
import type { MirrorSession } from "./sessions.ts";
import type { FlagName } from "./tcp-analysis.ts";

export type FlagCounts = Record<FlagName, number>;

export interface DirectionFigures {
  packets: number;
  /** Σ frame.len (wire bytes) */
  bytes: number;
  /** TCP: Σ tcp.len; UDP: Σ (udp.length - 8) */
  payload_bytes: number;
  /** TCP only: packets of this direction carrying each flag */
  analysis?: FlagCounts;
  /** TCP only (not an oracle figure): packets with payload */
  data_packets?: number;
  /** TCP only (not an oracle figure): payload bytes of packets flagged as retransmissions */
  retransmitted_payload_bytes?: number;
}

export interface AckRtt {
  samples: number;
  /** seconds; null when there is no sample */
  median: number | null;
  max: number | null;
  /** present (true) only when the median had to be estimated (very many samples) */
  approximate?: boolean;
}

export interface ConversationFigures {
  /** "<proto> <A> <B>" */
  key: string;
  proto: "tcp" | "udp";
  a: string;
  b: string;
  /** source endpoint of the first packet (tshark's; not always the client: a capture may start mid-connection) */
  first_src: string;
  /**
   * The client endpoint (a or b) and the rule that told it (conversations.ts, clientSide()). Not
   * oracle figures; absent in an analysis stored before they existed, which took first_src.
   */
  client?: string;
  client_chosen_by?: PcapClientRule;
  packets: number;
  bytes: number;
  /** seconds since the epoch (float64; the *_str fields are exact); null without timestamps */
  start_time: number | null;
  end_time: number | null;
  duration: number | null;
  start_time_str: string | null;
  end_time_str: string | null;
  a_to_b: DirectionFigures;
  b_to_a: DirectionFigures;
  /** TCP only */
  analysis?: FlagCounts;
  /** TCP only */
  ack_rtt?: AckRtt;
  /** application by well-known port, e.g. "https"; null when the ports are not known */
  app_name: string | null;
  /** TLS SNI or HTTP Host seen in the first data segments, else null */
  server_name: string | null;
  /**
   * Encapsulated (mirrored) traffic only: the mirror session it was seen through, e.g.
   * "vxlan:100@192.0.2.1,192.0.2.2"; the key then ends with it
   */
  session?: string;
}

/** What a capture of mirrored cloud traffic held. */
export interface EncapsulationSummary {
  /** the encapsulations met, sorted */
  encapsulations: EncapsulationName[];
  /** the mirror sessions in order of appearance (packets: encapsulated packets seen through it) */
  sessions: MirrorSession[];
}

export interface AnalysisResult {
  oracle_version: 1;
  analyzer_version: string;
  file: string | null;
  file_sha256: string | null;
  file_size: number;
  /** 0, or 2 when the file could only be read in part (see warnings), like tshark */
  exit_code: number;
  warnings: string[];
  packets: number;
  bytes: number;
  captured_bytes: number;
  first_time: number | null;
  last_time: number | null;
  duration: number | null;
  first_time_str: string | null;
  last_time_str: string | null;
  duration_str: string | null;
  tcp_packets: number;
  udp_packets: number;
  other_packets: number;
  icmp_quoted_packets: number;
  tcp_conversations: number;
  udp_conversations: number;
  analysis_totals: FlagCounts;
  conversations: ConversationFigures[];
  /** "pcap" or "pcapng" (null if the file header could not be read) */
  format: "pcap" | "pcapng" | null;
  link_types: number[];
  /** null when no packet was encapsulated (optional: results stored before it existed lack it) */
  encapsulation?: EncapsulationSummary | null;
}

/** Keys whose numbers are floats in the oracle's JSON (printed like Python floats). */
export const FLOAT_KEYS: ReadonlySet<string> = new Set([
  "first_time",
  "last_time",
  "duration",
  "start_time",
  "end_time",
  "median",
  "max",
]);
