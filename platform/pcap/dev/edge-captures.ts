/**
 * Hand-made captures for the corner cases of decoding and file formats (dev tool).
 * Each was checked against tshark 4.0.17 with tests/fixtures/pcaps/oracle.sh; the results are
 * kept in platform/pcap/fixtures/ (captures + expected JSON) for the tests.
 *
 *   npx tsx platform/pcap/dev/edge-captures.ts OUT_DIR
 */
import { mkdirSync, writeFileSync } from "node:fs";
import {
  ACK, bytesOf, concat, ether, FIN, gre, icmpError, ipv4, ipv6, nullLoop, pcapFile, pcapngFile, PSH, RST, sll, sll2,
  SYN, tcp, tlsClientHello, udp, type Bytes, type PcapPacket,
} from "../test-utils/capture-writer.ts";

const T0 = 1_700_000_000;

/** A small TCP exchange (handshake, data both ways, a retransmission, FIN) as IP datagrams. */
export function tcpExchange(v6: boolean, opts: { sport?: number; dport?: number; isnC?: number; isnS?: number; payload?: Bytes } = {}): Bytes[] {
  const sport = opts.sport ?? 51000;
  const dport = opts.dport ?? 443;
  const c = opts.isnC ?? 1000;
  const s = opts.isnS ?? 5000;
  const first = opts.payload ?? tlsClientHello("edge.example.org");
  const mk = (fromC: boolean, seq: number, ack: number, flags: number, payload: Bytes = new Uint8Array(0), win = 64000) => {
    const seg = tcp({ sport: fromC ? sport : dport, dport: fromC ? dport : sport, seq, ack, flags, window: win, payload });
    const src = v6 ? (fromC ? "2001:db8::10" : "2001:db8:0:0:1::20") : fromC ? "192.168.1.10" : "192.168.1.20";
    const dst = v6 ? (fromC ? "2001:db8:0:0:1::20" : "2001:db8::10") : fromC ? "192.168.1.20" : "192.168.1.10";
    return v6 ? ipv6({ src, dst, next: 6, payload: seg }) : ipv4({ src, dst, proto: 6, payload: seg });
  };
  const d1 = first;
  const d2 = new Uint8Array(1200).fill(0x41);
  return [
    mk(true, c, 0, SYN),
    mk(false, s, c + 1, SYN | ACK),
    mk(true, c + 1, s + 1, ACK),
    mk(true, c + 1, s + 1, ACK | PSH, d1),
    mk(false, s + 1, c + 1 + d1.length, ACK, d2),
    mk(false, s + 1, c + 1 + d1.length, ACK, d2), // retransmission
    mk(true, c + 1 + d1.length, s + 1 + d2.length, ACK),
    mk(true, c + 1 + d1.length, s + 1 + d2.length, ACK), // duplicate ACK
    mk(true, c + 1 + d1.length, s + 1 + d2.length, ACK | FIN),
    mk(false, s + 1 + d2.length, c + 2 + d1.length, ACK | FIN),
    mk(true, c + 2 + d1.length, s + 2 + d2.length, ACK),
  ];
}

function timed(datagrams: Bytes[], wrap: (d: Bytes) => Bytes, stepUs = 1500): PcapPacket[] {
  return datagrams.map((d, i) => ({ sec: T0 + Math.floor((i * stepUs) / 1e6), frac: (i * stepUs) % 1e6, data: wrap(d) }));
}

const eth4 = (d: Bytes) => ether(0x0800, d);
const eth6 = (d: Bytes) => ether(0x86dd, d);

export function edgeCaptures(): Record<string, Bytes> {
  const out: Record<string, Bytes> = {};

  // link types
  out["edge-ethernet-ipv4.pcap"] = pcapFile(timed(tcpExchange(false), eth4));
  out["edge-ethernet-ipv6-be-nano.pcap"] = pcapFile(
    timed(tcpExchange(true), eth6).map((p) => ({ ...p, frac: (p.frac ?? 0) * 1000 + 7 })),
    { bigEndian: true, nano: true },
  );
  out["edge-sll.pcap"] = pcapFile(timed(tcpExchange(false), (d) => sll(0x0800, d)), { linkType: 113 });
  out["edge-sll2-ipv6.pcap"] = pcapFile(timed(tcpExchange(true), (d) => sll2(0x86dd, d)), { linkType: 276 });
  out["edge-raw-101.pcap"] = pcapFile(timed([...tcpExchange(false), ...tcpExchange(true, { sport: 52000 })], (d) => d), { linkType: 101 });
  out["edge-raw-12.pcap"] = pcapFile(timed(tcpExchange(false), (d) => d), { linkType: 12 });
  out["edge-raw-14.pcap"] = pcapFile(timed(tcpExchange(true), (d) => d), { linkType: 14 });
  out["edge-raw-228-229.pcapng"] = pcapngFile([
    {
      interfaces: [{ linkType: 228 }, { linkType: 229 }],
      blocks: [
        ...tcpExchange(false).map((d, i) => ({ type: "epb" as const, iface: 0, ts: BigInt(T0) * 1000000n + BigInt(i * 1000), data: d })),
        ...tcpExchange(true).map((d, i) => ({ type: "epb" as const, iface: 1, ts: BigInt(T0) * 1000000n + BigInt(i * 1000 + 500), data: d })),
      ],
    },
  ]);
  out["edge-null-le.pcap"] = pcapFile(
    timed([...tcpExchange(false), ...tcpExchange(true, { sport: 52001 })], (d) => nullLoop(d[0] >> 4 === 6 ? 30 : 2, d)),
    { linkType: 0 },
  );
  out["edge-null-be-af24-af28.pcap"] = pcapFile(
    timed([...tcpExchange(true), ...tcpExchange(true, { sport: 52002 }), ...tcpExchange(false)], (d) =>
      nullLoop(d[0] >> 4 === 6 ? (d[45] === 0x02 ? 24 : 28) : 2, d, true),
    ),
    { linkType: 0 },
  );
  out["edge-loop-108.pcap"] = pcapFile(
    timed([...tcpExchange(false), ...tcpExchange(true)], (d) => nullLoop(d[0] >> 4 === 6 ? 24 : 2, d, true)),
    { linkType: 108 },
  );

  // encapsulations
  const llcSnap = (d: Bytes) => {
    const body = concat(Uint8Array.from([0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00]), d);
    const h = Uint8Array.from([...[2, 0, 0, 0, 0, 2], ...[2, 0, 0, 0, 0, 1], body.length >> 8, body.length & 255]);
    return concat(h, body);
  };
  const mpls = (d: Bytes) => ether(0x8847, concat(Uint8Array.from([0, 0x10, 0x00, 0x40, 0, 0x20, 0x01, 0x40]), d));
  const pppoe = (d: Bytes) => ether(0x8864, concat(Uint8Array.from([0x11, 0, 0, 1, (d.length + 2) >> 8, (d.length + 2) & 255, 0, 0x21]), d));
  const qinq = (d: Bytes) => ether(0x0800, d, [{ tpid: 0x88a8, id: 100 }, { tpid: 0x8100, id: 200 }]);
  const q9100 = (d: Bytes) => ether(0x0800, d, [{ tpid: 0x9100, id: 7 }]);
  const greEth = (d: Bytes) =>
    ether(0x0800, ipv4({ src: "198.51.100.1", dst: "198.51.100.2", proto: 47, payload: gre(0x6558, ether(0x0800, d), { seq: 9 }) }));
  const ip6in4 = (d: Bytes) => ether(0x0800, ipv4({ src: "198.51.100.1", dst: "198.51.100.2", proto: 41, payload: d }));
  out["edge-encapsulations.pcap"] = pcapFile([
    ...timed(tcpExchange(false, { sport: 40001 }), llcSnap),
    ...timed(tcpExchange(false, { sport: 40002 }), mpls),
    ...timed(tcpExchange(false, { sport: 40003 }), pppoe),
    ...timed(tcpExchange(false, { sport: 40004 }), qinq),
    ...timed(tcpExchange(false, { sport: 40005 }), q9100),
    ...timed(tcpExchange(false, { sport: 40006 }), greEth),
    ...timed(tcpExchange(true, { sport: 40007 }), ip6in4),
  ]);

  // IPv6 extension headers (and an atomic fragment)
  const ext = (types: { type: number; fragOffset?: number; more?: boolean }[]) => (d: Bytes) => {
    const next = d[6];
    return eth6(ipv6({ src: "2001:db8::10", dst: "2001:db8:0:0:1::20", next, payload: d.subarray(40), ext: types }));
  };
  out["edge-ipv6-extensions.pcap"] = pcapFile([
    ...timed(tcpExchange(true, { sport: 41001 }), ext([{ type: 0 }])),
    ...timed(tcpExchange(true, { sport: 41002 }), ext([{ type: 0 }, { type: 60 }, { type: 43 }])),
    ...timed(tcpExchange(true, { sport: 41003 }), ext([{ type: 51 }])),
    ...timed(tcpExchange(true, { sport: 41004 }), ext([{ type: 44, fragOffset: 0, more: false }])),
    // a fragmented UDP datagram: first fragment (offset 0, M) and a second fragment
    { sec: T0 + 5, data: eth6(ipv6({ src: "2001:db8::1", dst: "2001:db8::2", next: 17, payload: udp(5353, 53, new Uint8Array(1400)).subarray(0, 1000), ext: [{ type: 44, fragOffset: 0, more: true }] })) },
    { sec: T0 + 5, frac: 10, data: eth6(ipv6({ src: "2001:db8::1", dst: "2001:db8::2", next: 17, payload: new Uint8Array(408), ext: [{ type: 44, fragOffset: 1000, more: false }] })) },
    // a fragmented TCP segment: first fragment has the header but no tcp.len / analysis
    { sec: T0 + 6, data: eth6(ipv6({ src: "2001:db8::1", dst: "2001:db8::2", next: 6, payload: tcp({ sport: 7000, dport: 80, seq: 1, ack: 1, flags: ACK, payload: new Uint8Array(1400) }).subarray(0, 1000), ext: [{ type: 44, fragOffset: 0, more: true }] })) },
  ]);

  // IPv4 oddities
  const seg = (sport: number, payload = new Uint8Array(100)) => tcp({ sport, dport: 80, seq: 100, ack: 200, flags: ACK | PSH, payload });
  const v4 = (p: Bytes, extra: Partial<Parameters<typeof ipv4>[0]> = {}) =>
    ipv4({ src: "10.1.1.1", dst: "10.1.1.2", proto: 6, payload: p, ...extra });
  out["edge-ipv4-oddities.pcap"] = pcapFile([
    { sec: T0, data: eth4(v4(seg(42001), { options: [0x94, 0x04, 0, 0] })) }, // router alert option
    { sec: T0, frac: 1, data: eth4(v4(seg(42002), { totalLength: 0 })) }, // TSO: total length 0
    { sec: T0, frac: 2, data: eth4(v4(seg(42003), { totalLength: 30 })) }, // total length inside the TCP header
    { sec: T0, frac: 3, data: eth4(v4(seg(42004), { totalLength: 2000 })) }, // longer than the frame
    { sec: T0, frac: 4, data: eth4(v4(seg(42005), { moreFragments: true })) }, // first fragment of TCP
    { sec: T0, frac: 5, data: eth4(v4(seg(42005), { fragOffset: 120 })) }, // a later fragment
    { sec: T0, frac: 6, data: eth4(v4(tcp({ sport: 42006, dport: 80, seq: 1, ack: 1, flags: ACK, headerLength: 12 }))) }, // bogus TCP header length
    { sec: T0, frac: 7, data: eth4(v4(tcp({ sport: 42007, dport: 80, seq: 1, ack: 1, flags: ACK, headerLength: 60 }))) }, // header longer than segment
    { sec: T0, frac: 8, data: eth4(v4(seg(42008)).subarray(0, 14 + 20 + 10)), origLen: 154 }, // TCP header cut by snaplen (10 bytes)
    { sec: T0, frac: 9, data: eth4(v4(seg(42009)).subarray(0, 14 + 20 + 3)), origLen: 154 }, // only 3 TCP bytes
    { sec: T0, frac: 10, data: eth4(ipv4({ src: "10.1.1.1", dst: "10.1.1.2", proto: 17, payload: udp(5000, 53, new Uint8Array(50), 0) })) }, // UDP length 0
    { sec: T0, frac: 11, data: eth4(ipv4({ src: "10.1.1.1", dst: "10.1.1.2", proto: 17, payload: udp(5001, 53, new Uint8Array(50), 4) })) }, // UDP length < 8
    { sec: T0, frac: 12, data: eth4(ipv4({ src: "10.1.1.1", dst: "10.1.1.2", proto: 17, payload: udp(5002, 53, new Uint8Array(50), 900) })) }, // UDP length > datagram
    { sec: T0, frac: 13, data: eth4(ipv4({ src: "10.1.1.1", dst: "10.1.1.2", proto: 132, payload: new Uint8Array(40) })) }, // SCTP: other
    { sec: T0, frac: 14, data: ether(0x0806, new Uint8Array(28)) }, // ARP
    { sec: T0, frac: 15, data: eth4(ipv4({ src: "10.1.1.1", dst: "10.1.1.2", proto: 1, payload: new Uint8Array([8, 0, 0, 0, 0, 1, 0, 1]) })) }, // ping
    { sec: T0, frac: 16, data: eth4(concat(Uint8Array.from([0x35]), v4(seg(42010)).subarray(1))) }, // IPv4 header length 20 but version... (IHL 5, ver 3)
  ]);

  // ICMP errors quoting headers, including a SYN with another ISN (tshark: port reuse)
  const ex = tcpExchange(false, { sport: 43000 });
  const quote = (d: Bytes, n: number) => eth4(ipv4({ src: "10.9.9.9", dst: "192.168.1.10", proto: 1, payload: icmpError(3, 1, d.subarray(0, n)) }));
  const otherSyn = ipv4({ src: "192.168.1.10", dst: "192.168.1.20", proto: 6, payload: tcp({ sport: 43000, dport: 443, seq: 777777, flags: SYN }) });
  out["edge-icmp-quoted.pcap"] = pcapFile(
    timed(
      [
        ex[0],
        ex[1],
        ex[2],
        ex[3],
        "Q1",
        ex[4],
        ex[5],
        "Q2",
        ex[6],
        ex[7],
        ex[8],
        "Q3",
        ex[9],
        ex[10],
      ].map((x) => x as Bytes | string) as never,
      (x: Bytes | string) => {
        if (x === "Q1") return quote(otherSyn, 40); // quoted SYN, other ISN, full header
        if (x === "Q2") return quote(ex[4], 28); // quoted data segment, 8 bytes of TCP
        if (x === "Q3") return quote(ipv4({ src: "192.168.1.10", dst: "8.8.8.8", proto: 17, payload: udp(5353, 53, new Uint8Array(20)) }), 28);
        return eth4(x as Bytes);
      },
    ),
  );

  // pcapng: two sections of different byte order, tsresol 2^-n / ms, tsoffset, SPB, OPB,
  // unknown blocks, per-interface link types
  const exA = tcpExchange(false, { sport: 44001 });
  const exB = tcpExchange(true, { sport: 44002 });
  out["edge-pcapng-features.pcapng"] = pcapngFile([
    {
      interfaces: [{ linkType: 1, tsresol: 0x80 | 20 }, { linkType: 113, tsresol: 3, tsoffset: 1000n }],
      blocks: [
        { type: "raw", blockType: 4, body: new Uint8Array([0, 0, 0, 0]) }, // name resolution (empty)
        ...exA.map((d, i) => ({ type: "epb" as const, iface: i % 2, ts: i % 2 === 0 ? BigInt(T0 + i) << 20n | BigInt(i * 4096) : BigInt(T0 + i) * 1000n + BigInt(i), data: i % 2 === 0 ? eth4(d) : sll(0x0800, d) })),
        { type: "raw", blockType: 5, body: new Uint8Array(12) }, // interface statistics
        { type: "opb", iface: 0, ts: BigInt(T0 + 20) << 20n, data: eth4(exA[0]) },
      ],
    },
    {
      bigEndian: true,
      interfaces: [{ linkType: 1, snapLen: 128 }],
      blocks: [
        ...exB.map((d, i) => ({ type: "epb" as const, iface: 0, ts: BigInt(T0 + 100) * 1000000n + BigInt(i * 250), data: eth6(d), capLen: 128 })),
        { type: "spb" as const, data: eth6(exB[3]).subarray(0, 128), origLen: eth6(exB[3]).length },
      ],
    },
  ]);

  // timestamps: nanosecond pcapng with 2^64 wrap-ish values and backwards steps
  out["edge-pcapng-ns-big.pcapng"] = pcapngFile([
    {
      interfaces: [{ linkType: 1, tsresol: 9 }, { linkType: 1, tsresol: 6 }],
      blocks: [
        ...tcpExchange(false, { sport: 45001 }).map((d, i) => ({ type: "epb" as const, iface: 0, ts: 1700000000123456789n + BigInt(i) * 999999n - (i === 5 ? 5000000n : 0n), data: eth4(d) })),
        ...tcpExchange(false, { sport: 45002 }).map((d, i) => ({ type: "epb" as const, iface: 1, ts: 0xfffffffffff00000n + BigInt(i * 1000), data: eth4(d) })),
      ],
    },
  ]);

  // application names: HTTP Host and TLS SNI over IPv4/IPv6, DNS, QUIC port, unknown port
  const http = bytesOf("GET /index.html HTTP/1.1\r\nUser-Agent: t\r\nHost: www.example.com:8080\r\n\r\n");
  out["edge-apps.pcap"] = pcapFile([
    ...timed(tcpExchange(false, { sport: 46001, dport: 80, payload: http }), eth4),
    ...timed(tcpExchange(true, { sport: 46002, dport: 443 }), eth6),
    ...timed(tcpExchange(false, { sport: 46003, dport: 9999, payload: tlsClientHello("odd-port.example") }), eth4),
    ...timed([ipv4({ src: "192.168.1.10", dst: "192.168.1.1", proto: 17, payload: udp(46004, 53, new Uint8Array(30)) })], eth4),
    ...timed([ipv4({ src: "192.168.1.10", dst: "192.168.1.1", proto: 17, payload: udp(46005, 443, new Uint8Array(1200)) })], eth4),
    ...timed([ipv4({ src: "192.168.1.10", dst: "192.168.1.1", proto: 17, payload: udp(46006, 40000, new Uint8Array(12)) })], eth4),
    ...timed([tcp({ sport: 46007, dport: 22, seq: 1, flags: RST })].map((t) => ipv4({ src: "192.168.1.10", dst: "192.168.1.1", proto: 6, payload: t })), eth4),
  ]);

  return out;
}

if (process.argv[1]?.endsWith("edge-captures.ts")) {
  const dir = process.argv[2];
  mkdirSync(`${dir}/captures`, { recursive: true });
  mkdirSync(`${dir}/expected`, { recursive: true });
  for (const [name, data] of Object.entries(edgeCaptures())) writeFileSync(`${dir}/captures/${name}`, data);
}
