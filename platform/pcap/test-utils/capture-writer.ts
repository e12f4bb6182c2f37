/**
 * Tiny pcap / pcapng writer and packet builders for tests and for generating
 * comparison captures. Not used by the analyzer itself.
 */

export type Bytes = Uint8Array;

export function concat(...parts: Bytes[]): Bytes {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

class Out {
  private parts: number[] = [];
  constructor(private readonly le = false) {}
  u8(v: number): this {
    this.parts.push(v & 255);
    return this;
  }
  u16(v: number): this {
    if (this.le) this.parts.push(v & 255, (v >>> 8) & 255);
    else this.parts.push((v >>> 8) & 255, v & 255);
    return this;
  }
  u32(v: number): this {
    v >>>= 0;
    if (this.le) this.parts.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255);
    else this.parts.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
    return this;
  }
  u64(v: bigint): this {
    const hi = Number((v >> 32n) & 0xffffffffn);
    const lo = Number(v & 0xffffffffn);
    return this.le ? this.u32(lo).u32(hi) : this.u32(hi).u32(lo);
  }
  bytes(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.parts.push(b[i] & 255);
    return this;
  }
  pad4(): this {
    while (this.parts.length % 4) this.parts.push(0);
    return this;
  }
  get length(): number {
    return this.parts.length;
  }
  done(): Bytes {
    return Uint8Array.from(this.parts);
  }
}

// ------------------------------------------------------------------ files

export interface PcapPacket {
  /** seconds since the epoch */
  sec: number;
  /** sub-second part in microseconds (or nanoseconds for nano files) */
  frac?: number;
  data: Bytes;
  /** original length; defaults to data.length */
  origLen?: number;
  /** store only this many bytes (snaplen) */
  capLen?: number;
}

export interface PcapOptions {
  linkType?: number;
  bigEndian?: boolean;
  nano?: boolean;
  snapLen?: number;
}

export function pcapFile(packets: PcapPacket[], opts: PcapOptions = {}): Bytes {
  const o = new Out(!opts.bigEndian);
  o.u32(opts.nano ? 0xa1b23c4d : 0xa1b2c3d4).u16(2).u16(4).u32(0).u32(0).u32(opts.snapLen ?? 262144).u32(opts.linkType ?? 1);
  for (const p of packets) {
    const cap = Math.min(p.capLen ?? p.data.length, p.data.length);
    o.u32(p.sec).u32(p.frac ?? 0).u32(cap).u32(p.origLen ?? p.data.length).bytes(p.data.subarray(0, cap));
  }
  return o.done();
}

export interface NgInterface {
  linkType: number;
  snapLen?: number;
  /** if_tsresol byte (6 = microseconds, 9 = nanoseconds, 0x80|n = 2^-n) */
  tsresol?: number;
  /** if_tsoffset in seconds */
  tsoffset?: bigint;
}

export type NgBlock =
  | { type: "epb"; iface: number; ts: bigint; data: Bytes; origLen?: number; capLen?: number }
  | { type: "spb"; data: Bytes; origLen?: number }
  | { type: "opb"; iface: number; ts: bigint; data: Bytes }
  | { type: "raw"; blockType: number; body: Bytes };

export interface NgSection {
  bigEndian?: boolean;
  interfaces: NgInterface[];
  blocks: NgBlock[];
}

function ngBlock(le: boolean, type: number, body: Bytes): Bytes {
  const pad = (4 - (body.length % 4)) % 4;
  const len = 12 + body.length + pad;
  return new Out(le).u32(type).u32(len).bytes(body).bytes(new Array(pad).fill(0)).u32(len).done();
}

export function pcapngFile(sections: NgSection[]): Bytes {
  const parts: Bytes[] = [];
  for (const s of sections) {
    const le = !s.bigEndian;
    parts.push(ngBlock(le, 0x0a0d0d0a, new Out(le).u32(0x1a2b3c4d).u16(1).u16(0).u64(0xffffffffffffffffn).done()));
    for (const f of s.interfaces) {
      const body = new Out(le).u16(f.linkType).u16(0).u32(f.snapLen ?? 0);
      if (f.tsresol !== undefined) body.u16(9).u16(1).u8(f.tsresol).pad4();
      if (f.tsoffset !== undefined) body.u16(14).u16(8).u64(BigInt.asUintN(64, f.tsoffset));
      if (f.tsresol !== undefined || f.tsoffset !== undefined) body.u16(0).u16(0);
      parts.push(ngBlock(le, 1, body.done()));
    }
    for (const b of s.blocks) {
      if (b.type === "epb") {
        const cap = Math.min(b.capLen ?? b.data.length, b.data.length);
        const body = new Out(le)
          .u32(b.iface)
          .u32(Number(b.ts >> 32n))
          .u32(Number(b.ts & 0xffffffffn))
          .u32(cap)
          .u32(b.origLen ?? b.data.length)
          .bytes(b.data.subarray(0, cap))
          .pad4();
        parts.push(ngBlock(le, 6, body.done()));
      } else if (b.type === "spb") {
        parts.push(ngBlock(le, 3, new Out(le).u32(b.origLen ?? b.data.length).bytes(b.data).pad4().done()));
      } else if (b.type === "opb") {
        const body = new Out(le)
          .u16(b.iface)
          .u16(0)
          .u32(Number(b.ts >> 32n))
          .u32(Number(b.ts & 0xffffffffn))
          .u32(b.data.length)
          .u32(b.data.length)
          .bytes(b.data)
          .pad4();
        parts.push(ngBlock(le, 2, body.done()));
      } else {
        parts.push(ngBlock(le, b.blockType, b.body));
      }
    }
  }
  return concat(...parts);
}

// ------------------------------------------------------------------ packets

export const MAC_A = [0x02, 0, 0, 0, 0, 1];
export const MAC_B = [0x02, 0, 0, 0, 0, 2];

export function ether(type: number, payload: Bytes, vlans: { tpid: number; id: number }[] = []): Bytes {
  const o = new Out().bytes(MAC_B).bytes(MAC_A);
  for (const v of vlans) o.u16(v.tpid).u16(v.id);
  o.u16(type).bytes(payload);
  // pad to the Ethernet minimum, like a real NIC (tests the IP-length trimming)
  while (o.length < 60) o.u8(0);
  return o.done();
}

export function sll(protocol: number, payload: Bytes): Bytes {
  return new Out().u16(0).u16(1).u16(6).bytes(MAC_A).u16(0).u16(protocol).bytes(payload).done();
}

export function sll2(protocol: number, payload: Bytes): Bytes {
  return new Out().u16(protocol).u16(0).u32(2).u16(1).u8(0).u8(6).bytes(MAC_A).u16(0).bytes(payload).done();
}

/** BSD loopback header: address family in little-endian (x86 capture host) by default. */
export function nullLoop(af: number, payload: Bytes, bigEndian = false): Bytes {
  return new Out(!bigEndian).u32(af).bytes(payload).done();
}

export function parseIpv4(s: string): number[] {
  return s.split(".").map(Number);
}

export function parseIpv6(s: string): number[] {
  const [head, tail] = s.includes("::") ? s.split("::") : [s, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill("0"), ...t];
  const out: number[] = [];
  for (const g of groups) {
    const v = parseInt(g, 16);
    out.push(v >> 8, v & 255);
  }
  return out;
}

function checksum(b: Bytes): number {
  let s = 0;
  for (let i = 0; i < b.length; i += 2) s += (b[i] << 8) | (b[i + 1] ?? 0);
  while (s > 0xffff) s = (s & 0xffff) + (s >>> 16);
  return ~s & 0xffff;
}

export interface Ipv4Options {
  src: string;
  dst: string;
  proto: number;
  payload: Bytes;
  ttl?: number;
  id?: number;
  /** fragment offset in bytes (multiple of 8) */
  fragOffset?: number;
  moreFragments?: boolean;
  /** IP options bytes (padded to 4) */
  options?: number[];
  /** override the total length field */
  totalLength?: number;
}

export function ipv4(p: Ipv4Options): Bytes {
  const opts = p.options ?? [];
  const optLen = (opts.length + 3) & ~3;
  const hl = 20 + optLen;
  const total = p.totalLength ?? hl + p.payload.length;
  const ff = (p.moreFragments ? 0x2000 : 0) | ((p.fragOffset ?? 0) >> 3);
  const h = new Out()
    .u8(0x40 | (hl >> 2))
    .u8(0)
    .u16(total)
    .u16(p.id ?? 1)
    .u16(ff)
    .u8(p.ttl ?? 64)
    .u8(p.proto)
    .u16(0)
    .bytes(parseIpv4(p.src))
    .bytes(parseIpv4(p.dst))
    .bytes(opts)
    .bytes(new Array(optLen - opts.length).fill(1))
    .done();
  const c = checksum(h);
  h[10] = c >> 8;
  h[11] = c & 255;
  return concat(h, p.payload);
}

export interface Ipv6Ext {
  /** 0 hop-by-hop, 43 routing, 44 fragment, 60 destination options, 51 AH */
  type: number;
  /** fragment header fields */
  fragOffset?: number;
  more?: boolean;
}

export interface Ipv6Options {
  src: string;
  dst: string;
  next: number;
  payload: Bytes;
  ext?: Ipv6Ext[];
}

export function ipv6(p: Ipv6Options): Bytes {
  const exts = p.ext ?? [];
  const extBytes: Bytes[] = [];
  for (let i = 0; i < exts.length; i++) {
    const nh = i + 1 < exts.length ? exts[i + 1].type : p.next;
    const e = exts[i];
    if (e.type === 44) {
      extBytes.push(new Out().u8(nh).u8(0).u16(((e.fragOffset ?? 0) & 0xfff8) | (e.more ? 1 : 0)).u32(0x1234).done());
    } else if (e.type === 51) {
      // AH: length in 4-byte units minus 2; 12 fixed bytes + 12 bytes ICV = 24 -> len 4
      extBytes.push(new Out().u8(nh).u8(4).u16(0).u32(0x100).u32(1).bytes(new Array(12).fill(0xab)).done());
    } else {
      // 8 bytes: next, len 0, PadN option of 4 bytes + 2 pad bytes
      extBytes.push(new Out().u8(nh).u8(0).u8(1).u8(4).u32(0).done());
    }
  }
  const rest = concat(...extBytes, p.payload);
  const first = exts.length ? exts[0].type : p.next;
  return concat(
    new Out().u32(0x60000000).u16(rest.length).u8(first).u8(64).bytes(parseIpv6(p.src)).bytes(parseIpv6(p.dst)).done(),
    rest,
  );
}

export const FIN = 0x01;
export const SYN = 0x02;
export const RST = 0x04;
export const PSH = 0x08;
export const ACK = 0x10;

export interface TcpOptions {
  sport: number;
  dport: number;
  seq: number;
  ack?: number;
  flags: number;
  window?: number;
  payload?: Bytes;
  /** TCP options bytes (padded to 4) */
  options?: number[];
  /** override data offset (bytes) */
  headerLength?: number;
}

export function tcp(p: TcpOptions): Bytes {
  const opts = p.options ?? [];
  const optLen = (opts.length + 3) & ~3;
  const hl = p.headerLength ?? 20 + optLen;
  return new Out()
    .u16(p.sport)
    .u16(p.dport)
    .u32(p.seq)
    .u32(p.ack ?? 0)
    .u8((hl >> 2) << 4)
    .u8(p.flags)
    .u16(p.window ?? 65535)
    .u16(0)
    .u16(0)
    .bytes(opts)
    .bytes(new Array(optLen - opts.length).fill(1))
    .bytes(p.payload ?? new Uint8Array(0))
    .done();
}

export function udp(sport: number, dport: number, payload: Bytes, lengthOverride?: number): Bytes {
  return new Out()
    .u16(sport)
    .u16(dport)
    .u16(lengthOverride ?? 8 + payload.length)
    .u16(0)
    .bytes(payload)
    .done();
}

/** ICMP error (e.g. type 3 code 3 port unreachable) quoting `quoted` (an IP datagram). */
export function icmpError(type: number, code: number, quoted: Bytes): Bytes {
  const h = new Out().u8(type).u8(code).u16(0).u32(0).bytes(quoted).done();
  const c = checksum(h);
  h[2] = c >> 8;
  h[3] = c & 255;
  return h;
}

export function gre(protocolType: number, payload: Bytes, opts: { key?: number; seq?: number } = {}): Bytes {
  let flags = 0;
  if (opts.key !== undefined) flags |= 0x2000;
  if (opts.seq !== undefined) flags |= 0x1000;
  const o = new Out().u16(flags).u16(protocolType);
  if (opts.key !== undefined) o.u32(opts.key);
  if (opts.seq !== undefined) o.u32(opts.seq);
  return concat(o.done(), payload);
}

export function bytesOf(s: string): Bytes {
  return new TextEncoder().encode(s);
}

/** A TLS 1.2 ClientHello record carrying an SNI extension. */
export function tlsClientHello(serverName: string): Bytes {
  const name = bytesOf(serverName);
  const sni = new Out().u16(0).u16(name.length + 5).u16(name.length + 3).u8(0).u16(name.length).bytes(name).done();
  const exts = concat(new Out().u16(0xff01).u16(1).u8(0).done(), sni);
  const hello = new Out()
    .u16(0x0303)
    .bytes(new Array(32).fill(7))
    .u8(0)
    .u16(4)
    .u16(0xc02f)
    .u16(0x009c)
    .u8(1)
    .u8(0)
    .u16(exts.length)
    .bytes(exts)
    .done();
  const hs = new Out().u8(1).u8(0).u16(hello.length).bytes(hello).done();
  return new Out().u8(22).u16(0x0301).u16(hs.length).bytes(hs).done();
}
