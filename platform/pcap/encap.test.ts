/**
 * Decapsulation of mirrored cloud traffic (decode.ts, sessions.ts): VXLAN (RFC 7348) and
 * GENEVE (RFC 8926) on their standard ports or by decode-as, on edge values.
 */
import { describe, expect, it } from "vitest";
import { analyzeBuffer } from "./analyzer.ts";
import { Decoded, KIND_OTHER, KIND_TCP, KIND_UDP } from "./decode.ts";
import { ACK, concat, ether, icmpError, ipv4, ipv6, pcapFile, SYN, tcp, udp, type Bytes, type PcapPacket } from "./test-utils/capture-writer.ts";

const T = 1_700_000_000;

function vxlanHeader(vni: number): Bytes {
  return new Uint8Array([0x08, 0, 0, 0, (vni >> 16) & 255, (vni >> 8) & 255, vni & 255, 0]);
}

function geneveHeader(vni: number, options: Bytes = new Uint8Array(0), protocol = 0x6558, version = 0): Bytes {
  return concat(
    new Uint8Array([(version << 6) | (options.length / 4), 0, protocol >> 8, protocol & 255, (vni >> 16) & 255, (vni >> 8) & 255, vni & 255, 0]),
    options,
  );
}

const seg = (seq: number, flags = ACK, len = 100) => tcp({ sport: 40000, dport: 443, seq, ack: 1, flags, payload: new Uint8Array(len) });
const inner4 = (payload: Bytes, extra = {}) => ipv4({ src: "10.9.0.1", dst: "10.9.0.2", proto: 6, payload, ...extra });
const KEY4 = "tcp 10.9.0.1:40000 10.9.0.2:443";

/** an outer Ethernet/IPv4/UDP frame to `port` carrying `payload` (the tunnel header and inner frame) */
function outer4(payload: Bytes, port = 4789, src = "192.0.2.1", dst = "192.0.2.2", extra = {}): Bytes {
  return ether(0x0800, ipv4({ src, dst, proto: 17, payload: udp(50000, port, payload), ...extra }));
}

function run(packets: (Bytes | PcapPacket)[], decodeAs?: { udpPort: number; encapsulation: "vxlan" | "geneve" }[]) {
  const list = packets.map((p, i) => (p instanceof Uint8Array ? { sec: T, frac: i, data: p } : p));
  return analyzeBuffer(pcapFile(list), { decodeAs });
}

describe("VXLAN", () => {
  it("analyses the inner flow, keyed by its session; VNIs 0 and 2^24-1 are two sessions", () => {
    const r = run([
      outer4(concat(vxlanHeader(0), ether(0x0800, inner4(seg(1000))))),
      outer4(concat(vxlanHeader(0xffffff), ether(0x0800, inner4(seg(1000))))),
    ]);
    expect(r.conversations.map((c) => c.key)).toEqual([
      `${KEY4} vxlan:0@192.0.2.1,192.0.2.2`,
      `${KEY4} vxlan:16777215@192.0.2.1,192.0.2.2`,
    ]);
    expect(r.conversations.map((c) => c.session)).toEqual(["vxlan:0@192.0.2.1,192.0.2.2", "vxlan:16777215@192.0.2.1,192.0.2.2"]);
    // two sessions, never merged: the second copy is not a retransmission
    expect(r.analysis_totals.retransmission).toBe(0);
    expect(r.tcp_packets).toBe(2);
    expect(r.udp_packets).toBe(0);
    // frame bytes, inner TCP payload
    expect(r.conversations[0].bytes).toBe(r.bytes / 2);
    expect(r.conversations[0].a_to_b.payload_bytes).toBe(100);
    expect(r.encapsulation).toEqual({
      encapsulations: ["vxlan"],
      sessions: [
        { name: "vxlan:0@192.0.2.1,192.0.2.2", encapsulation: "vxlan", vni: 0, outer_a: "192.0.2.1", outer_b: "192.0.2.2", packets: 1 },
        { name: "vxlan:16777215@192.0.2.1,192.0.2.2", encapsulation: "vxlan", vni: 16777215, outer_a: "192.0.2.1", outer_b: "192.0.2.2", packets: 1 },
      ],
    });
  });

  it("keeps both directions of a tunnel in one session, and two mirror targets apart", () => {
    const back = inner4(tcp({ sport: 443, dport: 40000, seq: 1, ack: 1100, flags: ACK }), { src: "10.9.0.2", dst: "10.9.0.1" });
    const r = run([
      outer4(concat(vxlanHeader(7), ether(0x0800, inner4(seg(1000))))),
      outer4(concat(vxlanHeader(7), ether(0x0800, back)), 4789, "192.0.2.2", "192.0.2.1"),
      outer4(concat(vxlanHeader(7), ether(0x0800, inner4(seg(1000)))), 4789, "192.0.2.1", "192.0.2.3"),
    ]);
    expect(r.conversations.map((c) => [c.key, c.a_to_b.packets, c.b_to_a.packets])).toEqual([
      [`${KEY4} vxlan:7@192.0.2.1,192.0.2.2`, 1, 1],
      [`${KEY4} vxlan:7@192.0.2.1,192.0.2.3`, 1, 0],
    ]);
    expect(r.conversations[0].ack_rtt?.samples).toBe(1);
    expect(r.encapsulation?.sessions.map((s) => s.packets)).toEqual([2, 1]);
  });

  it("follows 802.1Q and QinQ tags on the inner frame (not part of the key)", () => {
    const r = run([
      outer4(concat(vxlanHeader(5), ether(0x0800, inner4(seg(1000)), [{ tpid: 0x8100, id: 10 }]))),
      outer4(concat(vxlanHeader(5), ether(0x0800, inner4(seg(1100)), [{ tpid: 0x88a8, id: 20 }, { tpid: 0x8100, id: 30 }]))),
    ]);
    expect(r.conversations.map((c) => [c.key, c.packets])).toEqual([[`${KEY4} vxlan:5@192.0.2.1,192.0.2.2`, 2]]);
    expect(r.analysis_totals.retransmission).toBe(0);
  });

  it("decodes IPv6 outside and inside", () => {
    const in6 = ipv6({ src: "fd00:9::1", dst: "fd00:9::2", next: 6, payload: seg(1000) });
    const out6 = ipv6({ src: "2001:db8::1", dst: "2001:db8:0:0::2", next: 17, payload: udp(50000, 4789, concat(vxlanHeader(9), ether(0x86dd, in6))) });
    const r = run([ether(0x86dd, out6)]);
    expect(r.conversations.map((c) => c.key)).toEqual(["tcp [fd00:9::1]:40000 [fd00:9::2]:443 vxlan:9@2001:db8::1,2001:db8::2"]);
    expect(r.encapsulation?.sessions[0]).toMatchObject({ outer_a: "2001:db8::1", outer_b: "2001:db8::2", vni: 9 });
  });

  it("leaves a packet whose VXLAN header was cut short in the outer UDP flow", () => {
    const full = outer4(concat(vxlanHeader(3), ether(0x0800, inner4(seg(1000)))));
    // Ethernet 14 + IPv4 20 + UDP 8 + 5 of the 8 VXLAN bytes captured
    const r = run([{ sec: T, data: full, capLen: 14 + 20 + 8 + 5 }]);
    expect(r.conversations.map((c) => c.key)).toEqual(["udp 192.0.2.1:50000 192.0.2.2:4789"]);
    expect(r.encapsulation).toBeNull();
  });

  it("an inner frame without TCP/UDP is another packet of the session", () => {
    const arp = ether(0x0806, new Uint8Array(28));
    const r = run([outer4(concat(vxlanHeader(4), arp))]);
    expect(r.conversations).toEqual([]);
    expect(r.other_packets).toBe(1);
    expect(r.encapsulation?.sessions[0].packets).toBe(1);
  });

  it("does not decapsulate a fragmented outer datagram; inner fragments follow the plain rules", () => {
    const tunnelled = udp(50000, 4789, concat(vxlanHeader(6), ether(0x0800, inner4(seg(1000, ACK, 1200)))));
    const innerDatagram = tcp({ sport: 40000, dport: 443, seq: 5000, ack: 1, flags: ACK, payload: new Uint8Array(1600) });
    const r = run([
      // outer first fragment with more-fragments set, then its second fragment
      ether(0x0800, ipv4({ src: "192.0.2.1", dst: "192.0.2.2", proto: 17, payload: tunnelled.subarray(0, 800), moreFragments: true, totalLength: 820 })),
      ether(0x0800, ipv4({ src: "192.0.2.1", dst: "192.0.2.2", proto: 17, payload: tunnelled.subarray(800), fragOffset: 800 })),
      // inner first fragment (counts in the inner flow) and a later inner fragment (other)
      outer4(concat(vxlanHeader(6), ether(0x0800, inner4(innerDatagram.subarray(0, 1000), { moreFragments: true, totalLength: 1020 })))),
      outer4(concat(vxlanHeader(6), ether(0x0800, inner4(innerDatagram.subarray(1000), { fragOffset: 1000 })))),
    ]);
    expect(r.conversations.map((c) => [c.key, c.packets])).toEqual([
      [`${KEY4} vxlan:6@192.0.2.1,192.0.2.2`, 1],
      ["udp 192.0.2.1:50000 192.0.2.2:4789", 1],
    ]);
    expect(r.other_packets).toBe(2);
    expect(r.encapsulation?.sessions[0].packets).toBe(2);
  });

  it("does not decapsulate inside an ICMP error", () => {
    const quoted = ipv4({ src: "192.0.2.1", dst: "192.0.2.2", proto: 17, payload: udp(50000, 4789, concat(vxlanHeader(1), ether(0x0800, inner4(seg(1)))))});
    const r = run([ether(0x0800, ipv4({ src: "192.0.2.2", dst: "192.0.2.1", proto: 1, payload: icmpError(3, 3, quoted) }))]);
    expect(r.icmp_quoted_packets).toBe(1);
    expect(r.encapsulation).toBeNull();
  });
});

describe("GENEVE", () => {
  it("skips options by their length and reads an Ethernet or IP payload", () => {
    const options = concat(
      new Uint8Array([0x01, 0x03, 0x01, 0x01, 0, 0, 0, 42]), // class 0x0103, type 1, 4 bytes of data
      new Uint8Array([0xff, 0xff, 0x80, 0x03, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), // critical bit, 12 bytes
    );
    const r = run([
      outer4(concat(geneveHeader(100, options), ether(0x0800, inner4(seg(1000)))), 6081),
      outer4(concat(geneveHeader(100, new Uint8Array(0), 0x0800), inner4(seg(1100))), 6081), // IPv4 straight after the header
    ]);
    expect(r.conversations.map((c) => [c.key, c.packets, c.a_to_b.payload_bytes])).toEqual([[`${KEY4} geneve:100@192.0.2.1,192.0.2.2`, 2, 200]]);
    expect(r.analysis_totals.retransmission).toBe(0);
    expect(r.encapsulation?.encapsulations).toEqual(["geneve"]);
  });

  it("leaves options longer than the packet, or an unknown version, in the outer UDP flow", () => {
    const longOptions = geneveHeader(1, new Uint8Array(252)).subarray(0, 8 + 20); // says 252 bytes of options, has 20
    const r = run([
      outer4(longOptions, 6081),
      outer4(concat(geneveHeader(1, new Uint8Array(0), 0x6558, 1), ether(0x0800, inner4(seg(1)))), 6081),
    ]);
    expect(r.conversations.map((c) => [c.key, c.packets])).toEqual([["udp 192.0.2.1:50000 192.0.2.2:6081", 2]]);
    expect(r.encapsulation).toBeNull();
  });
});

describe("decode-as", () => {
  const pkt = outer4(concat(vxlanHeader(8), ether(0x0800, inner4(seg(1000, SYN, 0)))), 8472);

  it("decapsulates a non-standard port only when asked", () => {
    expect(run([pkt]).conversations.map((c) => c.key)).toEqual(["udp 192.0.2.1:50000 192.0.2.2:8472"]);
    expect(run([pkt], [{ udpPort: 8472, encapsulation: "vxlan" }]).conversations.map((c) => c.key)).toEqual([`${KEY4} vxlan:8@192.0.2.1,192.0.2.2`]);
  });

  it("rejects a bad port or encapsulation", () => {
    expect(() => new Decoded([{ udpPort: 0, encapsulation: "vxlan" }])).toThrow(RangeError);
    expect(() => new Decoded([{ udpPort: 70000, encapsulation: "geneve" }])).toThrow(RangeError);
    // @ts-expect-error: not an encapsulation the analyzer knows
    expect(() => new Decoded([{ udpPort: 9000, encapsulation: "gre" }])).toThrow(RangeError);
  });

  it("returns the inner kind from the decoder", () => {
    const d = new Decoded();
    const udpInside = outer4(concat(vxlanHeader(2), ether(0x0800, ipv4({ src: "10.9.0.1", dst: "10.9.0.2", proto: 17, payload: udp(5353, 53, new Uint8Array(4)) }))));
    expect(d.decode(udpInside, 0, udpInside.length, udpInside.length, 1)).toBe(KIND_UDP);
    expect([d.encap, d.vni, d.sport, d.dport]).toEqual([1, 2, 5353, 53]);
    const tcpInside = outer4(concat(geneveHeader(3), ether(0x0800, inner4(seg(1)))), 6081);
    expect(d.decode(tcpInside, 0, tcpInside.length, tcpInside.length, 1)).toBe(KIND_TCP);
    expect([d.encap, d.vni, d.seglen]).toEqual([2, 3, 100]);
    const plain = ether(0x0806, new Uint8Array(28));
    expect(d.decode(plain, 0, plain.length, plain.length, 1)).toBe(KIND_OTHER);
    expect(d.encap).toBe(0);
  });
});
