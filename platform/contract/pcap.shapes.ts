import { z } from "@hono/zod-openapi";
import { PCAP_CLIENT_RULES, PCAP_ENCAPSULATIONS } from "./pcap.ts";

/*
 * The PCAP analyzer's answers (analyze-s3-pcap, perform-flow-analysis, the uploads). The limits and
 * formatting helpers are in pcap.ts (no zod: the console imports them).
 */

/** A stored capture: its key and the file name it was uploaded as. */
const pcapFileFields = { pcap_file_key: z.string(), pcap_file_name: z.string() };

export const PcapUploadUrl = z
  .object({
    s3_url: z.string().openapi({
      description:
        "Where to PUT the file (raw body), within 15 minutes. Embedded store: a path on this platform, `/api/v1/upload-pcap/{key}?expires=…&max=…&sig=…`, to be resolved against the console's origin; single use. With S3: an absolute presigned S3 PutObject URL.",
    }),
    ...pcapFileFields,
  })
  .openapi("PcapUploadUrl");
export type PcapUploadUrl = z.infer<typeof PcapUploadUrl>;

export const PcapUploaded = z
  .object({ ...pcapFileFields, size: z.number().int().openapi({ description: "bytes stored" }) })
  .openapi("PcapUploaded");
export type PcapUploaded = z.infer<typeof PcapUploaded>;

export const PcapSummary = z
  .object({
    packets: z.number().int(),
    bytes: z.number().int().openapi({ description: "Σ original wire length of every packet" }),
    duration: z.number().openapi({ description: "seconds from the first to the last packet" }),
    sessions: z.number().int(),
    degraded_sessions: z.number().int(),
    degraded_percent: z.number().openapi({ description: "share of sessions whose performance is not good, 0–100" }),
  })
  .openapi("PcapSummary");
export type PcapSummary = z.infer<typeof PcapSummary>;

const performance = z.enum(["good", "not good"]);
const encapsulation = z.enum(PCAP_ENCAPSULATIONS);

/** A mirror session of an encapsulated capture: one tunnel (encapsulation + VNI + the two outer addresses). */
export const PcapMirrorSession = z
  .object({
    name: z.string().openapi({ example: "vxlan:100@192.0.2.1,192.0.2.2" }),
    encapsulation,
    vni: z.number().int(),
    outer_a: z.string().openapi({ description: "outer IP addresses, in string order" }),
    outer_b: z.string(),
    packets: z.number().int().openapi({ description: "encapsulated packets seen through it" }),
    sessions: z.number().int().openapi({ description: "sessions (inner conversations) seen through it" }),
  })
  .openapi("PcapMirrorSession");
export type PcapMirrorSession = z.infer<typeof PcapMirrorSession>;

/** What an encapsulated capture held (null for a capture of plain traffic). */
export const PcapEncapsulationSummary = z
  .object({
    encapsulations: z.array(encapsulation).openapi({ description: "the encapsulations met, sorted" }),
    mirror_sessions: z.array(PcapMirrorSession).openapi({ description: "in order of appearance" }),
  })
  .openapi("PcapEncapsulationSummary");
export type PcapEncapsulationSummary = z.infer<typeof PcapEncapsulationSummary>;
const clientChosenBy = z
  .enum(PCAP_CLIENT_RULES)
  .nullable()
  .openapi({
    description:
      "how the client was told from the server: 'SYN' (the side that opened the connection in the capture), else 'well-known port' (the other side is on a service port), else 'port order' (a guess: the lower port is the server's); null: an analysis stored before the rule, which took the first packet's source",
  });
export type PcapPerformance = z.infer<typeof performance>;

export const PcapSession = z
  .object({
    session_id: z.string().openapi({ description: "stable id of the session in its capture; send it to perform-flow-analysis", example: "9f86d081884c7d65" }),
    start_time: z.string().nullable().openapi({ description: "ISO 8601 UTC with nanoseconds", example: "2018-12-23T10:50:09.891237000Z" }),
    end_time: z.string().nullable().openapi({ description: "ISO 8601 UTC with nanoseconds" }),
    app_name: z.string().nullable().openapi({ description: "application by well-known port, e.g. 'https'; null when unknown" }),
    server_name: z.string().nullable().openapi({ description: "TLS SNI or HTTP Host, when seen" }),
    src_addr: z.string().openapi({ description: "the client (client_chosen_by: how it was told from the server)" }),
    src_port: z.number().int(),
    dst_addr: z.string().openapi({ description: "the server" }),
    dst_port: z.number().int(),
    client_chosen_by: clientChosenBy,
    proto: z.enum(["tcp", "udp"]),
    tx_bytes: z.number().int().openapi({ description: "wire bytes sent by src" }),
    rx_bytes: z.number().int().openapi({ description: "wire bytes sent by dst" }),
    tx_packets: z.number().int(),
    rx_packets: z.number().int(),
    ep_id: z.string().nullable().openapi({ description: "null: sessions are not matched to endpoints yet" }),
    app_service_id: z.string().nullable().openapi({ description: "null: not matched yet" }),
    node_id: z.string().nullable().openapi({ description: "null: not matched yet" }),
    performance: performance.openapi({ description: "'not good' when a flow-quality threshold is crossed (see the flow analysis report)" }),
    mirror_session: z.string().nullable().openapi({
      description: "mirrored (VXLAN/GENEVE) traffic: the mirror session it was seen through (encapsulation, VNI, the two outer addresses); null for plain traffic",
      example: "vxlan:100@192.0.2.1,192.0.2.2",
    }),
    encapsulation: encapsulation.nullable().openapi({ description: "the mirror session's encapsulation; null for plain traffic" }),
    vni: z.number().int().nullable().openapi({ description: "the mirror session's VNI (0–16777215); null for plain traffic" }),
  })
  .openapi("PcapSession");
export type PcapSession = z.infer<typeof PcapSession>;

/** analyze-s3-pcap. With `size`, `sessions` is one page of the sessions matching `q`, and `sessions_total` counts them all. */
export const PcapAnalysis = z
  .object({
    ...pcapFileFields,
    summary: PcapSummary,
    sessions: z.array(PcapSession).openapi({ description: "the sessions matching `q`, sorted by `sort`; one page of them with `size`" }),
    sessions_total: z.number().int().openapi({ description: "how many sessions match `q` (all pages)" }),
    warnings: z.array(z.string()).openapi({
      description: "e.g. the file was cut short in the middle of a packet: the packets before are analysed, as Wireshark does",
    }),
    state: z.literal("done").openapi({ description: "the analysis is done (202 answers the other states)" }),
    analyzed_at: z.string().nullable().openapi({ description: "when the analysis was written (ISO 8601); null for one cached before analyses were queued" }),
    encapsulation: PcapEncapsulationSummary.nullable().openapi({
      description: "mirrored cloud traffic (VXLAN/GENEVE): the encapsulations and mirror sessions found; null when no packet was encapsulated",
    }),
    decode_as: z.array(z.string()).openapi({ description: "the decode-as rules the capture was analysed with, e.g. 'udp.port==8472,vxlan' (besides 4789 VXLAN and 6081 GENEVE)" }),
  })
  .openapi("PcapAnalysis");
export type PcapAnalysis = z.infer<typeof PcapAnalysis>;

/** analyze-s3-pcap's 202: the analysis is on the job queue or running; ask again (Retry-After). */
export const PcapAnalysisProgress = z
  .object({
    ...pcapFileFields,
    state: z.enum(["queued", "analyzing"]).openapi({ description: "queued: waiting for an analysis worker; analyzing: an instance is reading the capture" }),
    queued_at: z.string().nullable().openapi({ description: "when the analysis was asked for (ISO 8601)" }),
    started_at: z.string().nullable().openapi({ description: "when its current run started (ISO 8601); null while queued" }),
    size: z.number().int().nullable().openapi({ description: "the capture's size in bytes, when known" }),
  })
  .openapi("PcapAnalysisProgress");
export type PcapAnalysisProgress = z.infer<typeof PcapAnalysisProgress>;

const count = () => z.number().int();
const ratio = () => z.number().openapi({ description: "0–1" });

export const PcapDirectionQuality = z
  .object({
    quality: performance,
    data_segments: count(),
    retransmissions: count(),
    retransmission_rate: ratio(),
    fast_retransmissions: count(),
    spurious_retransmissions: count(),
    lost_segments: count(),
    lost_segment_rate: ratio(),
    out_of_order: count(),
    out_of_order_rate: ratio(),
    duplicate_acks: count(),
    duplicate_ack_rate: ratio(),
    zero_windows: count(),
  })
  .openapi("PcapDirectionQuality");
export type PcapDirectionQuality = z.infer<typeof PcapDirectionQuality>;

const PcapTraffic = z.object({ packets: count(), bytes: count(), payload_bytes: count() });
export type PcapTraffic = z.infer<typeof PcapTraffic>;
const PcapEndpoint = z.object({ addr: z.string(), port: z.number().int() });
export type PcapEndpoint = z.infer<typeof PcapEndpoint>;

const PcapFinding = z.object({
  figure: z.string().openapi({ example: "retransmission_rate" }),
  direction: z.string().openapi({ description: "client_to_server, server_to_client or flow" }),
  value: z.number(),
  threshold: z.number(),
  text: z.string(),
});
export type PcapFinding = z.infer<typeof PcapFinding>;

/** perform-flow-analysis. */
export const PcapFlowReport = z
  .object({
    pcap_file_key: z.string(),
    session_id: z.string(),
    summary: z.object({ performance_degradation: z.enum(["yes", "no"]), comment: z.string(), findings: z.array(PcapFinding) }),
    general_info: z.object({
      session_id: z.string(),
      start_time: z.string().nullable(),
      end_time: z.string().nullable(),
      duration_seconds: z.number().nullable(),
      protocol: z.enum(["tcp", "udp"]),
      app_name: z.string().nullable(),
      server_name: z.string().nullable(),
      client: PcapEndpoint,
      server: PcapEndpoint,
      client_chosen_by: clientChosenBy,
      mirror_session: z
        .object({ name: z.string(), encapsulation, vni: z.number().int(), outer_a: z.string(), outer_b: z.string() })
        .nullable()
        .openapi({ description: "mirrored traffic: the mirror session the session was seen through; null for plain traffic" }),
    }),
    network_data: z.object({
      client_to_server: PcapTraffic,
      server_to_client: PcapTraffic,
      total: PcapTraffic,
      throughput_bps: z.object({
        client_to_server: z.number().nullable(),
        server_to_client: z.number().nullable(),
        total: z.number().nullable(),
      }),
    }),
    flow_quality_assessment: z.object({
      segment_quality: z
        .object({ client_to_server: PcapDirectionQuality, server_to_client: PcapDirectionQuality })
        .nullable()
        .openapi({ description: "null for UDP (no sequence numbers)" }),
      packet_loss: z
        .object({ retransmissions: count(), retransmission_rate: ratio(), lost_segments: count(), lost_segment_rate: ratio() })
        .nullable(),
      out_of_order: z.object({ count: count(), rate: ratio() }).nullable(),
      dup_acks: z.object({ count: count(), rate: ratio() }).nullable(),
      efficiency: z.object({ payload_ratio: z.number().nullable(), goodput_ratio: z.number().nullable() }),
      request_response_stats: z.object({
        ack_rtt_samples: count(),
        ack_rtt_median_ms: z.number().nullable(),
        ack_rtt_max_ms: z.number().nullable(),
        responses_seen: z.boolean().optional().openapi({ description: "UDP only: whether the responder answered at all" }),
      }),
      zero_windows: count().nullable(),
    }),
  })
  .openapi("FlowAnalysisReport", { description: "Thresholds and the meaning of each figure: docs/pcap.md" });
export type PcapFlowReport = z.infer<typeof PcapFlowReport>;
