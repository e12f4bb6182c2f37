/**
 * Link-layer and network-layer decoding: from a raw frame to "the first TCP or UDP
 * header and the IP layer that carries it", following the attribution rules of the
 * oracle (tests/fixtures/pcaps/README.md rule 3):
 *
 * - walk the stack from the link layer down; the first TCP or UDP header wins;
 * - a transport header quoted inside an ICMP/ICMPv6 error is not a packet of that flow;
 * - the nearest IP header above the transport gives the addresses (inner IP for
 *   IP-in-IP and GRE);
 * - IP fragments are not reassembled: only the offset-0 fragment carries the transport.
 *
 * Lengths follow Wireshark's "reported length" rules: a layer's length is bounded by
 * its IP total/payload length and by the frame's original length, never by the snap
 * length, so `tcp.len` is right even for packets cut by a snaplen.
 *
 * Everything is written into one reusable `Decoded` object: no allocation per packet.
 */

export const KIND_OTHER = 0;
export const KIND_TCP = 1;
export const KIND_UDP = 2;
/** an ICMP/ICMPv6 error quoting a TCP/UDP header */
export const KIND_ICMP_QUOTED = 3;

/** Encapsulations found inside UDP (mirrored cloud traffic), by number in `Decoded.encap`. */
export const ENCAP_NONE = 0;
export const ENCAP_VXLAN = 1;
export const ENCAP_GENEVE = 2;
export type EncapsulationName = "vxlan" | "geneve";
export const ENCAP_NAMES: readonly (EncapsulationName | null)[] = [null, "vxlan", "geneve"];

/** "Decode as": UDP destination port -> encapsulation, as tshark's `-d udp.port==N,vxlan`. */
export interface DecodeAs {
  udpPort: number;
  encapsulation: EncapsulationName;
}

/** IANA ports, decoded by default (tshark does the same). */
export const DEFAULT_DECODE_AS: readonly DecodeAs[] = [
  { udpPort: 4789, encapsulation: "vxlan" },
  { udpPort: 6081, encapsulation: "geneve" },
];

/** Nested tunnels are followed this deep at most (a crafted packet could nest without end). */
const MAX_ENCAP_DEPTH = 4;

export const TH_FIN = 0x01;
export const TH_SYN = 0x02;
export const TH_RST = 0x04;
export const TH_PUSH = 0x08;
export const TH_ACK = 0x10;

export class Decoded {
  kind = KIND_OTHER;
  /** true when the addresses are IPv6 */
  v6 = false;
  /** IPv4: src0 / dst0 only. IPv6: four 32-bit words each, most significant first. */
  src0 = 0; src1 = 0; src2 = 0; src3 = 0;
  dst0 = 0; dst1 = 0; dst2 = 0; dst3 = 0;
  sport = 0;
  dport = 0;
  /** TCP: the first 16 header bytes were captured (Wireshark then tracks the stream) */
  tcpHeader = false;
  seq = 0;
  ack = 0;
  flags = 0;
  window = 0;
  /** TCP data offset in bytes (may be < 20 on a bogus header) */
  hlen = 0;
  /** the whole TCP header, options included, was captured: tshark prints its analysis
   * fields (flags, ack_rtt) only then -- reading a cut header throws before that point,
   * although the analysis state was already updated */
  tcpHeaderComplete = false;
  /** TCP segment length (tcp.len), or -1 when Wireshark does not compute it
   * (IP fragment, ICMP-quoted header, reported length shorter than the header) */
  seglen = -1;
  /** where the captured TCP/UDP payload starts in the frame buffer, and how much of it was captured */
  payloadOff = 0;
  payloadCap = 0;
  /** UDP length field, or -1 if it was not captured */
  udpLength = -1;
  /** the transport sits in an IP fragment (first fragment of a fragmented datagram) */
  fragmented = false;
  /**
   * Mirror session of an encapsulated packet (VXLAN/GENEVE): the outermost tunnel's
   * kind (ENCAP_*), VNI and outer IP addresses. `encap` is ENCAP_NONE for plain packets.
   */
  encap = ENCAP_NONE;
  vni = 0;
  outerV6 = false;
  outerSrc = new Uint32Array(4);
  outerDst = new Uint32Array(4);
  /** UDP destination port -> ENCAP_* */
  private readonly encapPorts = new Uint8Array(65536);
  private encapDepth = 0;
  /** set while decoding the inside of an ICMP error */
  private inError = false;
  private errorDepth = 0;

  constructor(decodeAs: readonly DecodeAs[] = []) {
    for (const d of [...DEFAULT_DECODE_AS, ...decodeAs]) {
      if (!Number.isInteger(d.udpPort) || d.udpPort < 1 || d.udpPort > 65535) throw new RangeError(`decodeAs: bad UDP port ${d.udpPort}`);
      const e = ENCAP_NAMES.indexOf(d.encapsulation);
      if (e <= 0) throw new RangeError(`decodeAs: unknown encapsulation ${String(d.encapsulation)}`);
      this.encapPorts[d.udpPort] = e;
    }
  }

  reset(): void {
    this.kind = KIND_OTHER;
    this.encap = ENCAP_NONE;
    this.encapDepth = 0;
    this.v6 = false;
    this.tcpHeader = false;
    this.tcpHeaderComplete = false;
    this.seglen = -1;
    this.udpLength = -1;
    this.fragmented = false;
    this.inError = false;
    this.errorDepth = 0;
    this.payloadCap = 0;
  }

  /**
   * Decode one frame. `cap` bytes of it are in `b` from `off`; `orig` is its length on
   * the wire. Returns the kind (also left in `this.kind`).
   */
  decode(b: Uint8Array, off: number, cap: number, orig: number, linkType: number): number {
    this.reset();
    const end = off + cap;
    const rep = off + orig; // "reported" end: may lie past the captured bytes
    const lim = end < rep ? end : rep;
    switch (linkType) {
      case 1: // Ethernet
        return this.ether(b, off, lim, rep);
      case 113: // Linux cooked v1
        if (lim - off < 16) return KIND_OTHER;
        if (((b[off + 2] << 8) | b[off + 3]) === 824) return KIND_OTHER; // netlink
        return this.linuxProtocol(b, off + 16, end, rep, (b[off + 14] << 8) | b[off + 15]);
      case 276: // Linux cooked v2
        if (lim - off < 20) return KIND_OTHER;
        if (((b[off + 8] << 8) | b[off + 9]) === 824) return KIND_OTHER;
        return this.linuxProtocol(b, off + 20, end, rep, (b[off] << 8) | b[off + 1]);
      case 101: // raw IP (LINKTYPE_RAW)
      case 12: // DLT_RAW on most BSDs
      case 14: // DLT_RAW on OpenBSD
        return this.rawIp(b, off, end, rep);
      case 228: // raw IPv4
        return this.ip(b, off, end, rep, false);
      case 229: // raw IPv6
        return this.ipv6(b, off, end, rep, false);
      case 0: // BSD loopback: address family in the capturing host's byte order
        return this.nullLoop(b, off, end, rep);
      case 108: // OpenBSD loopback: address family in network byte order
        if (lim - off < 4) return KIND_OTHER;
        return this.addressFamily(b, off + 4, end, rep, ((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) >>> 0);
      case 9: // PPP
      case 50: // PPP in HDLC-like framing
        return this.ppp(b, off, end, rep);
      case 104: // Cisco HDLC: address, control, ethertype
        if (lim - off < 4) return KIND_OTHER;
        return this.etherType(b, off + 4, end, rep, (b[off + 2] << 8) | b[off + 3]);
      default:
        return KIND_OTHER;
    }
  }

  private ether(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 14) return KIND_OTHER;
    const type = (b[p + 12] << 8) | b[p + 13];
    if (type <= 1500) return this.llc(b, p + 14, end, rep);
    return this.etherType(b, p + 14, end, rep, type);
  }

  /** 802.2 LLC: only SNAP with an Ethernet type is followed. */
  private llc(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 8) return KIND_OTHER;
    if (b[p] !== 0xaa || b[p + 1] !== 0xaa || b[p + 2] !== 0x03) return KIND_OTHER;
    if (b[p + 3] !== 0 || b[p + 4] !== 0 || b[p + 5] !== 0) return KIND_OTHER;
    return this.etherType(b, p + 8, end, rep, (b[p + 6] << 8) | b[p + 7]);
  }

  private linuxProtocol(b: Uint8Array, p: number, end: number, rep: number, proto: number): number {
    if (proto === 0x0004) return this.llc(b, p, end, rep); // 802.2 frames
    if (proto <= 1500) return KIND_OTHER;
    return this.etherType(b, p, end, rep, proto);
  }

  private etherType(b: Uint8Array, p: number, end: number, rep: number, type: number): number {
    const lim = end < rep ? end : rep;
    // VLAN tags (802.1Q, 802.1ad, old QinQ types) are skipped: they are not part of the key
    while (type === 0x8100 || type === 0x88a8 || type === 0x9100 || type === 0x9200) {
      if (lim - p < 4) return KIND_OTHER;
      type = (b[p + 2] << 8) | b[p + 3];
      p += 4;
      if (type <= 1500) return this.llc(b, p, end, rep);
    }
    switch (type) {
      case 0x0800:
        return this.ip(b, p, end, rep, false);
      case 0x86dd:
        return this.ipv6(b, p, end, rep, false);
      case 0x8847: // MPLS unicast
      case 0x8848: {
        // skip the label stack, then guess IPv4/IPv6 from the version nibble like Wireshark
        for (;;) {
          if (lim - p < 4) return KIND_OTHER;
          const bottom = b[p + 2] & 1;
          p += 4;
          if (bottom) break;
        }
        if (lim - p < 1) return KIND_OTHER;
        return this.rawIp(b, p, end, rep);
      }
      case 0x8864: // PPPoE session
        if (lim - p < 8) return KIND_OTHER;
        return this.pppProtocol(b, p + 8, end, rep, (b[p + 6] << 8) | b[p + 7]);
      case 0x880b: // PPP (PPTP's enhanced GRE)
        return this.ppp(b, p, end, rep);
      case 0x6558: // transparent Ethernet bridging (GRE)
        return this.ether(b, p, end, rep);
      default:
        return KIND_OTHER;
    }
  }

  private ppp(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 2) return KIND_OTHER;
    if (b[p] === 0xff && b[p + 1] === 0x03) p += 2; // address + control
    if (lim - p < 1) return KIND_OTHER;
    // protocol field may be compressed to one byte (odd value)
    if (b[p] & 1) return this.pppProtocol(b, p + 1, end, rep, b[p]);
    if (lim - p < 2) return KIND_OTHER;
    return this.pppProtocol(b, p + 2, end, rep, (b[p] << 8) | b[p + 1]);
  }

  private pppProtocol(b: Uint8Array, p: number, end: number, rep: number, proto: number): number {
    if (proto === 0x0021) return this.ip(b, p, end, rep, false);
    if (proto === 0x0057) return this.ipv6(b, p, end, rep, false);
    return KIND_OTHER;
  }

  private nullLoop(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 4) return KIND_OTHER;
    // host byte order of the capturing machine: take the reading that gives a small value
    let v = (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
    if ((v & 0xffff0000) !== 0) v = ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
    if (v > 1500) return this.etherType(b, p + 4, end, rep, v & 0xffff);
    return this.addressFamily(b, p + 4, end, rep, v);
  }

  private addressFamily(b: Uint8Array, p: number, end: number, rep: number, af: number): number {
    if (af === 2) return this.ip(b, p, end, rep, false);
    // AF_INET6 differs between BSDs: NetBSD/OpenBSD 24, FreeBSD 28, Darwin 30
    if (af === 24 || af === 28 || af === 30) return this.ipv6(b, p, end, rep, false);
    return KIND_OTHER;
  }

  private rawIp(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 1) return KIND_OTHER;
    const v = b[p] >> 4;
    if (v === 4) return this.ip(b, p, end, rep, false);
    if (v === 6) return this.ipv6(b, p, end, rep, false);
    return KIND_OTHER;
  }

  /** IPv4 (Wireshark's "ip" dissector also hands version-6 packets to IPv6). */
  private ip(b: Uint8Array, p: number, end: number, rep: number, fragmented: boolean): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 1) return KIND_OTHER;
    const ver = b[p] >> 4;
    if (ver === 6) return this.ipv6(b, p, end, rep, fragmented);
    if (ver !== 4) return KIND_OTHER;
    const hl = (b[p] & 15) << 2;
    if (hl < 20 || lim - p < hl) return KIND_OTHER;
    const total = (b[p + 2] << 8) | b[p + 3];
    let ipRep: number;
    if (total === 0) {
      // "TCP segmentation offload": a zero total length means "the rest of the frame"
      ipRep = rep;
    } else {
      if (total < hl) return KIND_OTHER; // bogus total length: tshark stops here
      // a total length past the frame is not trusted (the frame's length is kept)
      ipRep = p + total < rep ? p + total : rep;
    }
    const fo = (b[p + 6] << 8) | b[p + 7];
    if ((fo & 0x1fff) !== 0) return KIND_OTHER; // not the first fragment: no transport header
    if (fo & 0x2000) fragmented = true;
    const proto = b[p + 9];
    this.v6 = false;
    this.src0 = ((b[p + 12] << 24) | (b[p + 13] << 16) | (b[p + 14] << 8) | b[p + 15]) >>> 0;
    this.dst0 = ((b[p + 16] << 24) | (b[p + 17] << 16) | (b[p + 18] << 8) | b[p + 19]) >>> 0;
    this.src1 = this.src2 = this.src3 = 0;
    this.dst1 = this.dst2 = this.dst3 = 0;
    return this.transport(b, p + hl, end, ipRep, proto, fragmented);
  }

  private ipv6(b: Uint8Array, p: number, end: number, rep: number, fragmented: boolean): number {
    let lim = end < rep ? end : rep;
    if (lim - p < 40) return KIND_OTHER;
    if (b[p] >> 4 !== 6) return KIND_OTHER;
    const plen = (b[p + 4] << 8) | b[p + 5];
    let nh = b[p + 6];
    const ipRep = p + 40 + plen < rep ? p + 40 + plen : rep;
    this.v6 = true;
    this.src0 = ((b[p + 8] << 24) | (b[p + 9] << 16) | (b[p + 10] << 8) | b[p + 11]) >>> 0;
    this.src1 = ((b[p + 12] << 24) | (b[p + 13] << 16) | (b[p + 14] << 8) | b[p + 15]) >>> 0;
    this.src2 = ((b[p + 16] << 24) | (b[p + 17] << 16) | (b[p + 18] << 8) | b[p + 19]) >>> 0;
    this.src3 = ((b[p + 20] << 24) | (b[p + 21] << 16) | (b[p + 22] << 8) | b[p + 23]) >>> 0;
    this.dst0 = ((b[p + 24] << 24) | (b[p + 25] << 16) | (b[p + 26] << 8) | b[p + 27]) >>> 0;
    this.dst1 = ((b[p + 28] << 24) | (b[p + 29] << 16) | (b[p + 30] << 8) | b[p + 31]) >>> 0;
    this.dst2 = ((b[p + 32] << 24) | (b[p + 33] << 16) | (b[p + 34] << 8) | b[p + 35]) >>> 0;
    this.dst3 = ((b[p + 36] << 24) | (b[p + 37] << 16) | (b[p + 38] << 8) | b[p + 39]) >>> 0;
    let q = p + 40;
    lim = end < ipRep ? end : ipRep;
    // extension headers
    for (;;) {
      switch (nh) {
        case 0: // hop-by-hop options
        case 43: // routing
        case 60: // destination options
          if (lim - q < 2) return KIND_OTHER;
          nh = b[q];
          q += (b[q + 1] + 1) << 3;
          continue;
        case 44: {
          // fragment
          if (lim - q < 8) return KIND_OTHER;
          const fo = (b[q + 2] << 8) | b[q + 3];
          nh = b[q];
          q += 8;
          if ((fo & 0xfff8) !== 0) return KIND_OTHER; // not the first fragment
          if (fo & 1) fragmented = true;
          continue;
        }
        case 51: // authentication header
          if (lim - q < 2) return KIND_OTHER;
          nh = b[q];
          q += (b[q + 1] + 2) << 2;
          continue;
        default:
          if (q > lim) return KIND_OTHER;
          return this.transport(b, q, end, ipRep, nh, fragmented);
      }
    }
  }

  /** `rep` here is the end of the IP datagram (its reported length). */
  private transport(b: Uint8Array, q: number, end: number, rep: number, proto: number, fragmented: boolean): number {
    const lim = end < rep ? end : rep;
    switch (proto) {
      case 6: {
        // inside an ICMP error any quoted TCP header counts, even one cut short
        if (lim - q < 4) return this.inError ? (this.kind = KIND_TCP) : KIND_OTHER; // no ports: not attributable
        this.sport = (b[q] << 8) | b[q + 1];
        this.dport = (b[q + 2] << 8) | b[q + 3];
        this.fragmented = fragmented;
        if (lim - q >= 16) {
          this.tcpHeader = true;
          this.seq = ((b[q + 4] << 24) | (b[q + 5] << 16) | (b[q + 6] << 8) | b[q + 7]) >>> 0;
          this.ack = ((b[q + 8] << 24) | (b[q + 9] << 16) | (b[q + 10] << 8) | b[q + 11]) >>> 0;
          const hlen = (b[q + 12] >> 4) << 2;
          this.hlen = hlen;
          this.flags = ((b[q + 12] << 8) | b[q + 13]) & 0x0fff;
          this.window = (b[q + 14] << 8) | b[q + 15];
          this.tcpHeaderComplete = hlen >= 20 && lim - q >= hlen;
          const repLen = rep - q;
          if (!fragmented && !this.inError && repLen >= hlen) {
            this.seglen = repLen - hlen;
            const po = q + hlen;
            this.payloadOff = po;
            this.payloadCap = lim > po ? lim - po : 0;
          }
        }
        return (this.kind = KIND_TCP);
      }
      case 17: {
        if (lim - q < 4) return this.inError ? (this.kind = KIND_UDP) : KIND_OTHER;
        this.sport = (b[q] << 8) | b[q + 1];
        this.dport = (b[q + 2] << 8) | b[q + 3];
        this.fragmented = fragmented;
        if (lim - q >= 6) {
          let ulen = (b[q + 4] << 8) | b[q + 5];
          // IPv6 jumbogram: a zero length means "the rest of the datagram"
          if (ulen === 0 && this.v6) ulen = rep - q;
          this.udpLength = ulen;
        }
        const po = q + 8;
        this.payloadOff = po;
        this.payloadCap = lim > po ? lim - po : 0;
        // mirrored traffic: the packet belongs to the flow inside the tunnel. Not inside
        // an ICMP error, and not in a fragment (the inner frame would be incomplete).
        const encap = this.encapPorts[this.dport];
        if (encap !== ENCAP_NONE && !this.inError && !fragmented && this.encapDepth < MAX_ENCAP_DEPTH) {
          // the tunnel ends where the UDP datagram ends
          const ulen = this.udpLength;
          const uRep = ulen >= 8 && q + ulen < rep ? q + ulen : rep;
          const inner = encap === ENCAP_VXLAN ? this.vxlan(b, po, end, uRep) : this.geneve(b, po, end, uRep);
          if (inner >= 0) return inner;
        }
        return (this.kind = KIND_UDP);
      }
      case 1: // ICMP
      case 58: {
        // ICMPv6
        if (lim - q < 8) return KIND_OTHER;
        const t = b[q];
        const isError = proto === 1 ? t === 3 || t === 4 || t === 5 || t === 11 || t === 12 : t >= 1 && t <= 4;
        if (!isError || this.errorDepth >= 4) return KIND_OTHER;
        // the quoted datagram (an error may itself quote an ICMP error)
        const outer = this.inError;
        this.inError = true;
        this.errorDepth++;
        const inner = proto === 1 ? this.ip(b, q + 8, end, rep, false) : this.ipv6(b, q + 8, end, rep, false);
        this.errorDepth--;
        this.inError = outer;
        if (inner === KIND_TCP || inner === KIND_UDP || inner === KIND_ICMP_QUOTED) return (this.kind = KIND_ICMP_QUOTED);
        this.kind = KIND_OTHER;
        return KIND_OTHER;
      }
      case 4: // IPv4 in IP
        return this.ip(b, q, end, rep, fragmented);
      case 41: // IPv6 in IP
        return this.ipv6(b, q, end, rep, fragmented);
      case 47: // GRE
        return this.gre(b, q, end, rep, fragmented);
      default:
        return KIND_OTHER;
    }
  }

  /**
   * VXLAN (RFC 7348): 8-byte header (flags, reserved, 24-bit VNI, reserved), then an
   * Ethernet frame. Like tshark, the I flag is not required. Returns the inner kind,
   * or -1 when the header was not captured whole (the packet stays in the outer UDP flow).
   */
  private vxlan(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 8) return -1;
    this.enterTunnel(ENCAP_VXLAN, (b[p + 4] << 16) | (b[p + 5] << 8) | b[p + 6]);
    return this.ether(b, p + 8, end, rep);
  }

  /**
   * GENEVE (RFC 8926): 8-byte header (version, option length in 4-byte words, flags,
   * protocol type, 24-bit VNI), then the options, skipped by their length, then a frame
   * of the protocol type (0x6558: Ethernet). Returns -1 like vxlan().
   */
  private geneve(b: Uint8Array, p: number, end: number, rep: number): number {
    const lim = end < rep ? end : rep;
    if (lim - p < 8) return -1;
    if (b[p] >> 6 !== 0) return -1; // only version 0 exists
    const h = 8 + ((b[p] & 0x3f) << 2);
    if (lim - p < h) return -1;
    const type = (b[p + 2] << 8) | b[p + 3];
    this.enterTunnel(ENCAP_GENEVE, (b[p + 4] << 16) | (b[p + 5] << 8) | b[p + 6]);
    if (type === 0x6558) return this.ether(b, p + h, end, rep);
    return this.etherType(b, p + h, end, rep, type);
  }

  /** Remember the session (outermost tunnel only) and forget the outer transport. */
  private enterTunnel(kind: number, vni: number): void {
    if (this.encapDepth++ === 0) {
      this.encap = kind;
      this.vni = vni;
      this.outerV6 = this.v6;
      const s = this.outerSrc;
      const d = this.outerDst;
      s[0] = this.src0; s[1] = this.src1; s[2] = this.src2; s[3] = this.src3;
      d[0] = this.dst0; d[1] = this.dst1; d[2] = this.dst2; d[3] = this.dst3;
    }
    this.tcpHeader = false;
    this.tcpHeaderComplete = false;
    this.seglen = -1;
    this.udpLength = -1;
    this.fragmented = false;
    this.payloadCap = 0;
    this.kind = KIND_OTHER;
  }

  private gre(b: Uint8Array, q: number, end: number, rep: number, _fragmented: boolean): number {
    const lim = end < rep ? end : rep;
    if (lim - q < 4) return KIND_OTHER;
    const flags = (b[q] << 8) | b[q + 1];
    const type = (b[q + 2] << 8) | b[q + 3];
    const version = flags & 7;
    if (flags & 0x4000) return KIND_OTHER; // source routing (obsolete): not followed
    let h = 4;
    if (flags & 0x8000) h += 4; // checksum + offset
    if (flags & 0x2000) h += 4; // key (PPTP: payload length + call id)
    if (flags & 0x1000) h += 4; // sequence number
    if (version === 1 && flags & 0x0080) h += 4; // PPTP acknowledgement number
    if (version > 1) return KIND_OTHER;
    const p = q + h;
    if (p > lim) return KIND_OTHER;
    if (type === 0x88be) {
      // ERSPAN: type II has an 8-byte header when the sequence bit is set, type I none
      return this.ether(b, flags & 0x1000 ? p + 8 : p, end, rep);
    }
    return this.etherType(b, p, end, rep, type);
  }
}
