/**
 * Link types, encapsulations, IP details, ICMP quoting, address and number formatting,
 * application identification.
 */
import { describe, expect, it } from "vitest";
import { analyzeBuffer } from "./analyzer.ts";
import { appNameForPorts, httpHost, tlsServerName } from "./app-id.ts";
import { ipv6ToString, pyFloatRepr, pyJson, timeDiffString, timeToString } from "./format.ts";
import {
  ACK, bytesOf, concat, ether, gre, icmpError, ipv4, ipv6, nullLoop, parseIpv6, pcapFile, pcapngFile, SYN, sll,
  sll2, tcp, tlsClientHello, udp, type Bytes,
} from "./test-utils/capture-writer.ts";

const T = 1_700_000_000;
const V4 = (proto: number, payload: Bytes, extra = {}) => ipv4({ src: "192.0.2.1", dst: "192.0.2.2", proto, payload, ...extra });
const V6 = (next: number, payload: Bytes, ext: { type: number; fragOffset?: number; more?: boolean }[] = []) =>
  ipv6({ src: "2001:db8::1", dst: "2001:db8::2", next, payload, ext });
const SEG = (sport = 40000, len = 20) => tcp({ sport, dport: 443, seq: 100, ack: 1, flags: ACK, payload: new Uint8Array(len) });

function one(data: Bytes, linkType = 1) {
  return analyzeBuffer(pcapFile([{ sec: T, data }], { linkType }));
}

describe("link types", () => {
  const cases: [string, number, Bytes, string][] = [
    ["Ethernet", 1, ether(0x0800, V4(6, SEG())), "tcp 192.0.2.1:40000 192.0.2.2:443"],
    ["Linux cooked v1", 113, sll(0x86dd, V6(6, SEG())), "tcp [2001:db8::1]:40000 [2001:db8::2]:443"],
    ["Linux cooked v2", 276, sll2(0x0800, V4(6, SEG())), "tcp 192.0.2.1:40000 192.0.2.2:443"],
    ["raw IP (101), IPv4", 101, V4(6, SEG()), "tcp 192.0.2.1:40000 192.0.2.2:443"],
    ["raw IP (101), IPv6", 101, V6(6, SEG()), "tcp [2001:db8::1]:40000 [2001:db8::2]:443"],
    ["raw IP (12)", 12, V4(17, udp(53, 5353, new Uint8Array(4))), "udp 192.0.2.1:53 192.0.2.2:5353"],
    ["raw IP (14)", 14, V6(17, udp(53, 5353, new Uint8Array(4))), "udp [2001:db8::1]:53 [2001:db8::2]:5353"],
    ["raw IPv4 (228)", 228, V4(6, SEG()), "tcp 192.0.2.1:40000 192.0.2.2:443"],
    ["raw IPv6 (229)", 229, V6(6, SEG()), "tcp [2001:db8::1]:40000 [2001:db8::2]:443"],
    ["BSD loopback, little-endian AF_INET", 0, nullLoop(2, V4(6, SEG())), "tcp 192.0.2.1:40000 192.0.2.2:443"],
    ["BSD loopback, big-endian AF_INET6 (Darwin 30)", 0, nullLoop(30, V6(6, SEG()), true), "tcp [2001:db8::1]:40000 [2001:db8::2]:443"],
    ["BSD loopback, AF_INET6 (FreeBSD 28)", 0, nullLoop(28, V6(6, SEG())), "tcp [2001:db8::1]:40000 [2001:db8::2]:443"],
    ["OpenBSD loopback (108)", 108, nullLoop(24, V6(6, SEG()), true), "tcp [2001:db8::1]:40000 [2001:db8::2]:443"],
  ];
  it.each(cases)("%s", (_n, lt, data, key) => {
    const r = one(data, lt);
    expect(r.conversations.map((c) => c.key)).toEqual([key]);
  });

  it("mixes link types per interface in pcapng", () => {
    const r = analyzeBuffer(pcapngFile([{
      interfaces: [{ linkType: 1 }, { linkType: 113 }],
      blocks: [
        { type: "epb", iface: 0, ts: 1n, data: ether(0x0800, V4(6, SEG(1))) },
        { type: "epb", iface: 1, ts: 2n, data: sll(0x0800, V4(6, SEG(1))) },
      ],
    }]));
    expect(r.tcp_conversations).toBe(1);
    expect(r.conversations[0].packets).toBe(2);
  });

  it("counts unknown link types as other packets", () => {
    const r = one(new Uint8Array(40), 105);
    expect(r.other_packets).toBe(1);
  });
});

describe("encapsulations", () => {
  it("leaves 802.1Q / 802.1ad / QinQ tags out of the key", () => {
    const r = analyzeBuffer(pcapFile([
      { sec: T, data: ether(0x0800, V4(6, SEG())) },
      { sec: T, data: ether(0x0800, V4(6, SEG()), [{ tpid: 0x8100, id: 42 }]) },
      { sec: T, data: ether(0x0800, V4(6, SEG()), [{ tpid: 0x88a8, id: 10 }, { tpid: 0x8100, id: 20 }]) },
      { sec: T, data: ether(0x0800, V4(6, SEG()), [{ tpid: 0x9100, id: 10 }, { tpid: 0x8100, id: 20 }]) },
    ]));
    expect(r.conversations).toHaveLength(1);
    expect(r.conversations[0].packets).toBe(4);
    // the copies look like retransmissions, as in tshark
    expect(r.conversations[0].analysis!.retransmission).toBe(3);
  });

  it("takes the inner addresses of IP-in-IP and GRE", () => {
    const inner = ipv4({ src: "10.9.0.1", dst: "10.9.0.2", proto: 6, payload: SEG() });
    const r = analyzeBuffer(pcapFile([
      { sec: T, data: ether(0x0800, V4(4, inner)) },
      { sec: T, data: ether(0x0800, V4(47, gre(0x0800, inner, { key: 1 }))) },
      { sec: T, data: ether(0x0800, V4(47, gre(0x6558, ether(0x0800, inner)))) },
      { sec: T, data: ether(0x0800, V4(41, V6(6, SEG()))) },
    ]));
    expect(r.conversations.map((c) => [c.key, c.packets])).toEqual([
      ["tcp 10.9.0.1:40000 10.9.0.2:443", 3],
      ["tcp [2001:db8::1]:40000 [2001:db8::2]:443", 1],
    ]);
  });

  it("attributes a tunnel inside UDP on another port to the outer UDP flow", () => {
    // VXLAN on the standard port 4789 is decapsulated (encap.test.ts); 4790 is not a tunnel port
    const vxlan = udp(50000, 4790, concat(new Uint8Array(8), ether(0x0800, ipv4({ src: "10.9.0.1", dst: "10.9.0.2", proto: 6, payload: SEG() }))));
    const r = one(ether(0x0800, V4(17, vxlan)));
    expect(r.conversations.map((c) => c.key)).toEqual(["udp 192.0.2.1:50000 192.0.2.2:4790"]);
    expect(r.encapsulation).toBeNull();
  });
});

describe("IP details", () => {
  it("walks IPv6 extension headers (hop-by-hop, routing, destination options, AH, fragment)", () => {
    const r = analyzeBuffer(pcapFile([
      { sec: T, data: ether(0x86dd, V6(6, SEG(1), [{ type: 0 }, { type: 43 }, { type: 60 }])) },
      { sec: T, data: ether(0x86dd, V6(6, SEG(2), [{ type: 51 }])) },
      { sec: T, data: ether(0x86dd, V6(6, SEG(3), [{ type: 44, fragOffset: 0, more: false }])) },
    ]));
    expect(r.tcp_packets).toBe(3);
    expect(r.conversations.every((c) => c.a_to_b.payload_bytes === 20)).toBe(true);
  });

  it("counts only the first IPv4 fragment in the flow (no reassembly)", () => {
    const datagram = udp(5353, 53, new Uint8Array(2000));
    const r = analyzeBuffer(pcapFile([
      { sec: T, data: ether(0x0800, V4(17, datagram.subarray(0, 1480), { moreFragments: true, totalLength: 1500 })) },
      { sec: T, data: ether(0x0800, V4(17, datagram.subarray(1480), { fragOffset: 1480 })) },
    ]));
    expect(r.udp_packets).toBe(1);
    expect(r.other_packets).toBe(1);
    // udp.length - 8 of the whole datagram
    expect(r.conversations[0].a_to_b.payload_bytes).toBe(2000);
  });

  it("does not analyse a TCP header inside a fragment (no tcp.len)", () => {
    const r = one(ether(0x0800, V4(6, SEG(), { moreFragments: true })));
    expect(r.tcp_packets).toBe(1);
    expect(r.conversations[0].a_to_b.payload_bytes).toBe(0);
  });

  it("reads IPv4 options and treats a zero total length as TSO", () => {
    const r = analyzeBuffer(pcapFile([
      { sec: T, data: ether(0x0800, V4(6, SEG(1), { options: [0x94, 0x04, 0, 0] })) },
      { sec: T, data: ether(0x0800, V4(6, SEG(2), { totalLength: 0 })) },
      // ends inside the TCP header: ports known, but no tcp.len (and no analysis)
      { sec: T, data: ether(0x0800, V4(6, SEG(3), { totalLength: 30 })) },
      { sec: T, data: ether(0x0800, V4(6, SEG(4), { totalLength: 12 })) }, // shorter than the IP header: bogus
    ]));
    expect(r.conversations.map((c) => [c.key, c.a_to_b.payload_bytes])).toEqual([
      ["tcp 192.0.2.1:1 192.0.2.2:443", 20],
      ["tcp 192.0.2.1:2 192.0.2.2:443", 20],
      ["tcp 192.0.2.1:3 192.0.2.2:443", 0],
    ]);
    expect(r.other_packets).toBe(1);
  });

  it("counts ICMP errors quoting a transport header as other + icmp_quoted", () => {
    const quoted = V4(17, udp(5353, 53, new Uint8Array(10)));
    const r = analyzeBuffer(pcapFile([
      { sec: T, data: ether(0x0800, ipv4({ src: "192.0.2.9", dst: "192.0.2.1", proto: 1, payload: icmpError(3, 3, quoted.subarray(0, 28)) })) },
      { sec: T, data: ether(0x86dd, ipv6({ src: "2001:db8::9", dst: "2001:db8::1", next: 58, payload: icmpError(1, 4, V6(6, SEG()).subarray(0, 44)) })) },
      { sec: T, data: ether(0x0800, ipv4({ src: "192.0.2.9", dst: "192.0.2.1", proto: 1, payload: new Uint8Array([8, 0, 0, 0, 0, 1, 0, 1]) })) },
    ]));
    expect(r.icmp_quoted_packets).toBe(2);
    expect(r.other_packets).toBe(3);
    expect(r.conversations).toEqual([]);
  });
});

describe("formatting", () => {
  it.each([
    ["2001:db8::1", "2001:db8::1"],
    ["fd00:200:0:0:0:0:0:1", "fd00:200::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["0:0:0:0:0:0:0:0", "::"],
    ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"],
    ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8:1:1:1:1:0:1", "2001:db8:1:1:1:1:0:1"],
    ["0:0:0:0:0:ffff:102:304", "::ffff:1.2.3.4"],
    ["fe80:0:0:0:ABCD:0:0:0", "fe80::abcd:0:0:0"],
  ])("IPv6 %s -> %s", (input, out) => {
    const b = parseIpv6(input);
    const w = (i: number) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
    expect(ipv6ToString(w(0), w(4), w(8), w(12))).toBe(out);
  });

  it("prints floats like Python", () => {
    expect(pyFloatRepr(1361916156)).toBe("1361916156.0");
    expect(pyFloatRepr(0.000162)).toBe("0.000162");
    expect(pyFloatRepr(0.00001)).toBe("1e-05");
    expect(pyFloatRepr(18445321545205.7)).toBe("18445321545205.7");
    expect(pyFloatRepr(1.5e16)).toBe("1.5e+16");
    expect(pyFloatRepr(0)).toBe("0.0");
    expect(pyJson({ a: [1, 2], b: "x", t: 3 }, new Set(["t"]))).toBe('{\n "a": [\n  1,\n  2\n ],\n "b": "x",\n "t": 3.0\n}');
  });

  it("keeps times exact", () => {
    expect(timeToString(1700000000, 5)).toBe("1700000000.000000005");
    expect(timeDiffString(1, 999999999, 3, 1)).toBe("1.000000002");
    expect(timeDiffString(3, 1, 1, 999999999)).toBe("-1.000000002");
  });
});

describe("application identification", () => {
  it("names applications by the responder's well-known port", () => {
    expect(appNameForPorts("tcp", 443, 51000)).toBe("https");
    expect(appNameForPorts("udp", 443, 51000)).toBe("quic");
    expect(appNameForPorts("udp", 51000, 53)).toBe("dns");
    expect(appNameForPorts("tcp", 40000, 41000)).toBeNull();
  });

  it("reads the TLS SNI and the HTTP Host header", () => {
    const hello = tlsClientHello("www.Example.org");
    expect(tlsServerName(hello, 0, hello.length)).toBe("www.example.org");
    expect(tlsServerName(hello, 0, 20)).toBeNull();
    const get = bytesOf("GET / HTTP/1.1\r\nAccept: */*\r\nHOST: api.example.com:8443\r\n\r\n");
    expect(httpHost(get, 0, get.length)).toBe("api.example.com");
    const v6host = bytesOf("GET / HTTP/1.1\r\nHost: [2001:db8::1]:8080\r\n\r\n");
    expect(httpHost(v6host, 0, v6host.length)).toBe("[2001:db8::1]");
    const resp = bytesOf("HTTP/1.1 200 OK\r\nHost: x\r\n\r\n");
    expect(httpHost(resp, 0, resp.length)).toBeNull();
  });

  it("exposes server_name and app_name on conversations", () => {
    const flow = (sport: number, dport: number, payload: Bytes) => [
      ether(0x0800, V4(6, tcp({ sport, dport, seq: 1, flags: SYN }))),
      ether(0x0800, V4(6, tcp({ sport, dport, seq: 2, ack: 1, flags: ACK, payload }))),
    ];
    const frames = [
      ...flow(50001, 443, tlsClientHello("sni.example")),
      ...flow(50002, 80, bytesOf("POST /x HTTP/1.1\r\nHost: host.example\r\nContent-Length: 0\r\n\r\n")),
      ...flow(50003, 5555, new Uint8Array(30)),
    ];
    const r = analyzeBuffer(pcapFile(frames.map((data, i) => ({ sec: T + i, data }))));
    expect(r.conversations.map((c) => [c.app_name, c.server_name])).toEqual([
      ["https", "sni.example"],
      ["http", "host.example"],
      [null, null],
    ]);
  });
});
