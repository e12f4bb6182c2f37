/** The product views: PCAP session rows and flow analysis reports. */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeFile } from "./analyzer.ts";
import { epochToIso, flowReport, parseEndpoint, sessionId, THRESHOLDS, toSession } from "./report.ts";
import type { ConversationFigures, FlagCounts } from "./types.ts";

const ENCAP = fileURLToPath(new URL("../../tests/fixtures/pcaps/encap/captures/", import.meta.url));

const SHARED = new URL("../../tests/fixtures/pcaps/captures/", import.meta.url).pathname;

const noFlags: FlagCounts = {
  retransmission: 0, fast_retransmission: 0, spurious_retransmission: 0, duplicate_ack: 0,
  out_of_order: 0, lost_segment: 0, zero_window: 0,
};

function tcpConv(over: Partial<ConversationFigures> = {}, a: Partial<FlagCounts> = {}, b: Partial<FlagCounts> = {}): ConversationFigures {
  return {
    key: "tcp 10.0.0.1:5000 10.0.0.2:443",
    proto: "tcp",
    a: "10.0.0.1:5000",
    b: "10.0.0.2:443",
    first_src: "10.0.0.1:5000",
    packets: 300,
    bytes: 200000,
    start_time: 1700000000,
    end_time: 1700000002,
    duration: 2,
    start_time_str: "1700000000.000000000",
    end_time_str: "1700000002.000000000",
    a_to_b: { packets: 100, bytes: 10000, payload_bytes: 4000, analysis: { ...noFlags, ...a }, data_packets: 50, retransmitted_payload_bytes: 0 },
    b_to_a: { packets: 200, bytes: 190000, payload_bytes: 180000, analysis: { ...noFlags, ...b }, data_packets: 150, retransmitted_payload_bytes: 0 },
    analysis: { ...noFlags },
    ack_rtt: { samples: 10, median: 0.02, max: 0.05 },
    app_name: "https",
    server_name: "example.org",
    ...over,
  };
}

describe("session row", () => {
  it("puts the initiator first and gives tx/rx from its side", () => {
    const s = toSession(tcpConv({ first_src: "10.0.0.2:443" }));
    expect(s).toMatchObject({
      src_addr: "10.0.0.2", src_port: 443, dst_addr: "10.0.0.1", dst_port: 5000,
      tx_bytes: 190000, rx_bytes: 10000, tx_packets: 200, rx_packets: 100,
      start_time: "2023-11-14T22:13:20.000000000Z", end_time: "2023-11-14T22:13:22.000000000Z",
      proto: "tcp", app_name: "https", server_name: "example.org", performance: "good",
    });
    expect(s.session_id).toMatch(/^[0-9a-f]{16}$/);
    expect(s.session_id).toBe(sessionId({ key: "tcp 10.0.0.1:5000 10.0.0.2:443" }));
  });

  it("parses IPv6 endpoints and exact times", () => {
    expect(parseEndpoint("[2001:db8::1]:443")).toEqual({ addr: "2001:db8::1", port: 443 });
    expect(epochToIso("1545562209.891237123")).toBe("2018-12-23T10:50:09.891237123Z");
    expect(epochToIso("18446744073709.551360000")).toBeNull(); // beyond a Date
  });
});

describe("flow report", () => {
  it("says no degradation, with the figures, for a clean flow", () => {
    const r = flowReport(tcpConv());
    expect(r.summary.performance_degradation).toBe("no");
    expect(r.summary.comment).toMatch(/No threshold crossed: 0 retransmission/);
    expect(r.network_data.throughput_bps.total).toBe(800000);
    expect(r.flow_quality_assessment.efficiency.payload_ratio).toBeCloseTo(184000 / 200000);
    expect(r.flow_quality_assessment.request_response_stats).toEqual({ ack_rtt_samples: 10, ack_rtt_median_ms: 20, ack_rtt_max_ms: 50 });
  });

  it("names each figure that crossed a threshold", () => {
    const conv = tcpConv(
      { ack_rtt: { samples: 4, median: 0.45, max: 1.2 } },
      { retransmission: 3 }, // 3/50 = 6 % > 2 %
      { zero_window: 2, duplicate_ack: 1 },
    );
    const r = flowReport(conv);
    expect(r.summary.performance_degradation).toBe("yes");
    expect(r.summary.findings.map((f) => [f.figure, f.direction])).toEqual([
      ["retransmission_rate", "client_to_server"],
      ["zero_windows", "server_to_client"],
      ["ack_rtt_median", "flow"],
    ]);
    expect(r.summary.comment).toContain("client to server: 3 retransmission(s) for 50 data segment(s) (6.00 % > 2.00 %)");
    expect(r.summary.comment).toContain("median ACK RTT 450.0 ms > 300 ms");
    // A LAN round trip keeps its precision in the comment, as in the report's figures (not "0.0 ms").
    const fast = flowReport(tcpConv({ ack_rtt: { samples: 4, median: 0.000012, max: 0.00002 } }));
    expect(fast.summary.comment).toContain("median ACK RTT 0.012 ms");
    expect(r.flow_quality_assessment.segment_quality!.client_to_server.quality).toBe("not good");
    expect(r.flow_quality_assessment.segment_quality!.server_to_client.quality).toBe("not good");
    expect(toSession(conv).performance).toBe("not good");
    expect(THRESHOLDS.retransmissionRate).toBe(0.02);
  });

  it("judges UDP request/response flows by whether answers came back", () => {
    const udp = (back: number): ConversationFigures => ({
      ...tcpConv(),
      key: "udp 10.0.0.1:5353 10.0.0.2:53", proto: "udp", a: "10.0.0.1:5353", b: "10.0.0.2:53", first_src: "10.0.0.1:5353",
      a_to_b: { packets: 3, bytes: 300, payload_bytes: 200 },
      b_to_a: { packets: back, bytes: back * 100, payload_bytes: back * 60 },
      analysis: undefined, ack_rtt: undefined, app_name: "dns", server_name: null,
    });
    expect(flowReport(udp(3)).summary.performance_degradation).toBe("no");
    const lost = flowReport(udp(0));
    expect(lost.summary.performance_degradation).toBe("yes");
    expect(lost.summary.comment).toMatch(/no dns response was seen for 3 request packet/);
    expect(lost.flow_quality_assessment.packet_loss).toBeNull();
  });

  it("builds rows and reports for every conversation of a real capture", async () => {
    const r = await analyzeFile(`${SHARED}zeek-http-206_example_b.pcap`, { sha256: false });
    const rows = r.conversations.map(toSession);
    // one download with 57 zero windows, 56 retransmissions and 52 out-of-order; one clean
    expect(rows.map((s) => [s.src_port, s.performance])).toEqual([[3254, "not good"], [3257, "good"]]);
    const rep = flowReport(r.conversations[0]);
    expect(rep.summary.findings.map((f) => f.figure)).toEqual([
      "duplicate_ack_rate", "zero_windows", "retransmission_rate", "out_of_order_rate",
    ]);
  });

  it("keeps the mirror session of mirrored traffic in the row and the report; plain traffic has none", async () => {
    const r = await analyzeFile(`${ENCAP}vxlan-kernel.pcap`, { sha256: false });
    const rows = r.conversations.map(toSession);
    expect(rows.every((s) => s.encapsulation === "vxlan" && s.vni !== null && s.mirror_session?.startsWith(`vxlan:${s.vni}@`))).toBe(true);
    expect(new Set(rows.map((s) => s.vni))).toEqual(new Set([100, 200, 0, 16777215]));
    const v6 = r.conversations.find((c) => c.session?.startsWith("vxlan:0@"))!;
    expect(flowReport(v6).general_info.mirror_session).toEqual({
      name: "vxlan:0@2001:db8::1,2001:db8::2",
      encapsulation: "vxlan",
      vni: 0,
      outer_a: "2001:db8::1",
      outer_b: "2001:db8::2",
    });
    const plain = await analyzeFile(`${SHARED}zeek-http-206_example_b.pcap`, { sha256: false });
    expect(plain.conversations.map(toSession).every((s) => s.mirror_session === null && s.encapsulation === null && s.vni === null)).toBe(true);
    expect(flowReport(plain.conversations[0]).general_info.mirror_session).toBeNull();
  });
});
