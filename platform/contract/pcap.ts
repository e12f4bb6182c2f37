/*
 * The PCAP analyzer's contract (spec 1 §5 'PCAP file', §7 'PCAP', §9): limits and formatting, as
 * plain TypeScript (no zod) for the console (app/lib/pcap.ts). The answers' shapes are declared
 * once, as zod, in pcap.shapes.ts; their types are re-exported here.
 */
export type { PcapAnalysis, PcapAnalysisProgress, PcapDirectionQuality, PcapEncapsulationSummary, PcapMirrorSession, PcapEndpoint, PcapFinding, PcapFlowReport, PcapPerformance, PcapSession, PcapSummary, PcapTraffic, PcapUploaded, PcapUploadUrl } from "./pcap.shapes.ts";

/**
 * Where a capture's analysis is (analyze-s3-pcap's `state`): waiting on the job queue, being read
 * by an instance's analysis worker, done (the sessions are answered), or failed (the error answered).
 */
export const PCAP_ANALYSIS_STATES = ["queued", "analyzing", "done", "failed"] as const;
export type PcapAnalysisState = (typeof PCAP_ANALYSIS_STATES)[number];

/**
 * A failed analysis that is not the file's fault (analyze-s3-pcap's 422 detail): the console shows
 * these as they are, and any other 422 as "not a packet capture" (its parser detail goes to the log).
 */
/** An analysis still running after this long is stopped (a 10 GB capture takes a few minutes). */
export const PCAP_ANALYSIS_TIMEOUT_MINUTES = 30;
export const PCAP_ANALYSIS_STOPPED = {
  timedOut: `The analysis of this capture took longer than ${PCAP_ANALYSIS_TIMEOUT_MINUTES} minutes and was stopped.`,
  gaveUp: "The analysis of this capture stopped before its end several times and was given up. Upload the capture again to try once more.",
} as const;

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

/**
 * How the analyzer told the client from the server in a session (docs/pcap.md, "Client and
 * server"): the side that sent the SYN (or received the SYN-ACK) is the client; without the
 * handshake in the capture, the side on a well-known or registered service port is the server and
 * the other the client; else the lower port is taken as the server's, a guess.
 */
export const PCAP_CLIENT_RULES = ["SYN", "well-known port", "port order"] as const;
export type PcapClientRule = (typeof PCAP_CLIENT_RULES)[number];
/** The rule as the sessions table and the report say it: "by SYN", "by well-known port", "by port order (guessed)". */
export const pcapClientRuleText = (rule: PcapClientRule | null | undefined): string | null =>
  rule === "SYN" ? "by SYN" : rule === "well-known port" ? "by well-known port" : rule === "port order" ? "by port order (guessed)" : null;

/** The rule in a sentence, for the report ("Client and server: by SYN: …"); null for an analysis stored before the rule. */
export function pcapClientRuleSentence(rule: PcapClientRule | null | undefined): string | null {
  if (rule === "SYN") return "by SYN: the client opened the connection in this capture";
  if (rule === "well-known port") return "by well-known port: the capture has no SYN (it started mid-connection); the server is the side on the service port";
  if (rule === "port order") return "by port order, a guess: the capture has no SYN and neither side alone is on a service port; the lower port is taken as the server's";
  return null;
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

/** Mirrored cloud traffic (issue 59): the encapsulations the analyzer takes off. */
export const PCAP_ENCAPSULATIONS = ["vxlan", "geneve"] as const;
export type PcapEncapsulation = (typeof PCAP_ENCAPSULATIONS)[number];
/** "VXLAN", "GENEVE": the names as people write them. */
export const pcapEncapsulationLabel = (e: PcapEncapsulation): string => e.toUpperCase();
/** A VNI is 24 bits (VXLAN and GENEVE alike). */
export const PCAP_MAX_VNI = 16777215;

/**
 * A decode-as rule, as tshark's `-d udp.port==N,vxlan`: UDP destination port N carries that
 * encapsulation (a mirror configured on a port other than 4789 / 6081).
 */
export interface PcapDecodeAs {
  udpPort: number;
  encapsulation: PcapEncapsulation;
}
export const PCAP_DECODE_AS_PATTERN = /^udp\.port==([0-9]{1,5}),(vxlan|geneve)$/;
/** "udp.port==8472,vxlan" → the rule; null when it is not one (port 1–65535). */
export function parsePcapDecodeAs(text: string): PcapDecodeAs | null {
  const m = PCAP_DECODE_AS_PATTERN.exec(text.trim().toLowerCase());
  if (!m) return null;
  const udpPort = Number(m[1]);
  if (udpPort < 1 || udpPort > 65535) return null;
  return { udpPort, encapsulation: m[2] as PcapEncapsulation };
}
export const formatPcapDecodeAs = (d: PcapDecodeAs): string => `udp.port==${d.udpPort},${d.encapsulation}`;

/** The mirror session a session was seen through, parsed from its name "vxlan:100@192.0.2.1,192.0.2.2". */
export function parseMirrorSession(name: string): { encapsulation: PcapEncapsulation; vni: number; outer_a: string; outer_b: string } | null {
  const m = /^(vxlan|geneve):([0-9]+)@([^,]+),(.+)$/.exec(name);
  if (!m) return null;
  return { encapsulation: m[1] as PcapEncapsulation, vni: Number(m[2]), outer_a: m[3], outer_b: m[4] };
}
/** A mirror session in words: "VXLAN VNI 100 between 192.0.2.1 and 192.0.2.2" (the report, the PDF). */
export function pcapMirrorSessionText(m: { encapsulation: PcapEncapsulation; vni: number; outer_a: string; outer_b: string }): string {
  return `${pcapEncapsulationLabel(m.encapsulation)} VNI ${m.vni} between ${m.outer_a} and ${m.outer_b}`;
}
