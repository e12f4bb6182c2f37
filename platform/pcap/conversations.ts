/**
 * The conversation table: one entry per (proto, endpoint A, endpoint B), VLAN and
 * interface not included (oracle rule 5).
 *
 * The hot path never builds strings: the 5-tuple is put in canonical order (the
 * numerically lower endpoint first), hashed, and looked up in an open-addressing table
 * of typed arrays. The printed key ("tcp 10.0.0.1:80 10.0.0.2:5000", endpoints sorted as
 * strings) is built once, when a conversation is created. Per-conversation figures
 * are kept in typed arrays (struct of arrays) indexed by conversation number.
 */
import type { PcapClientRule } from "../contract/pcap.ts";
import { isServicePort } from "./app-id.ts";
import { TH_ACK, type Decoded } from "./decode.ts";
import { endpointToString } from "./format.ts";

const KEY_WORDS = 11; // see lookup()
export const FLAG_COUNT = 7;

export class ConversationTable {
  count = 0;
  private cap = 0;
  private slots = new Int32Array(1024); // conversation index + 1, 0 = empty
  private slotMask = 1023;
  private keys = new Uint32Array(0);
  private hashes = new Uint32Array(0);

  // per conversation
  proto = new Uint8Array(0); // 6 or 17
  aIsLow = new Uint8Array(0); // endpoint "a" (string order) is the numerically lower one
  firstSrcIsA = new Uint8Array(0);
  /** Who opened the connection, as far as the capture shows (0: not seen; 1: a; 2: b): from the first SYN, and from the first SYN-ACK. */
  synFrom = new Uint8Array(0);
  synAckTo = new Uint8Array(0);
  startS = new Float64Array(0);
  startNs = new Int32Array(0);
  endS = new Float64Array(0);
  endNs = new Int32Array(0);
  /** printed endpoints */
  a: string[] = [];
  b: string[] = [];
  // per conversation and direction (index = conversation * 2 + d, d = 0 for a -> b)
  packets = new Float64Array(0);
  bytes = new Float64Array(0);
  payload = new Float64Array(0);
  flags = new Uint32Array(0); // FLAG_COUNT per direction
  /** TCP: packets carrying payload, and payload bytes of packets flagged as retransmissions */
  dataPackets = new Float64Array(0);
  retransmittedBytes = new Float64Array(0);

  /** direction of the packet last looked up: 0 = a -> b, 1 = b -> a */
  direction = 0;
  /** the conversation last looked up was just created */
  created = false;

  private ensure(n: number): void {
    if (n <= this.cap) return;
    let c = this.cap || 256;
    while (c < n) c *= 2;
    const grow = <T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.keys = grow(this.keys, c * KEY_WORDS);
    this.hashes = grow(this.hashes, c);
    this.proto = grow(this.proto, c);
    this.aIsLow = grow(this.aIsLow, c);
    this.firstSrcIsA = grow(this.firstSrcIsA, c);
    this.synFrom = grow(this.synFrom, c);
    this.synAckTo = grow(this.synAckTo, c);
    this.startS = grow(this.startS, c);
    this.startNs = grow(this.startNs, c);
    this.endS = grow(this.endS, c);
    this.endNs = grow(this.endNs, c);
    this.packets = grow(this.packets, c * 2);
    this.bytes = grow(this.bytes, c * 2);
    this.payload = grow(this.payload, c * 2);
    this.flags = grow(this.flags, c * 2 * FLAG_COUNT);
    this.dataPackets = grow(this.dataPackets, c * 2);
    this.retransmittedBytes = grow(this.retransmittedBytes, c * 2);
    this.cap = c;
  }

  /** Capacity in conversations (for arrays kept beside this table). */
  get capacity(): number {
    return this.cap;
  }

  /**
   * Find (or create, unless `create` is false) the conversation of the decoded TCP/UDP
   * packet. Sets `direction` and `created`. Returns the conversation index, or -1.
   */
  lookup(d: Decoded, proto: number, create = true, session = 0): number {
    // canonical order: lower (address, port) first
    let srcLow: boolean;
    const v6 = d.v6;
    if (!v6) {
      srcLow = d.src0 < d.dst0 || (d.src0 === d.dst0 && d.sport <= d.dport);
    } else {
      srcLow =
        d.src0 !== d.dst0 ? d.src0 < d.dst0
        : d.src1 !== d.dst1 ? d.src1 < d.dst1
        : d.src2 !== d.dst2 ? d.src2 < d.dst2
        : d.src3 !== d.dst3 ? d.src3 < d.dst3
        : d.sport <= d.dport;
    }
    // key layout: [proto|v6, ports, lo0, hi0, lo1, hi1, lo2, hi2, lo3, hi3, session]; an
    // IPv4 key only uses the first four words and the session (the rest stay 0). The
    // session (mirror session of encapsulated traffic, 0 for plain packets) keeps the
    // same inner connection seen through two mirror sessions apart.
    const k0 = proto | (v6 ? 256 : 0);
    const k1 = srcLow ? ((d.sport << 16) | d.dport) >>> 0 : ((d.dport << 16) | d.sport) >>> 0;
    const k2 = srcLow ? d.src0 : d.dst0;
    const k3 = srcLow ? d.dst0 : d.src0;
    let h = Math.imul(k0 ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ k1, 0xcc9e2d51);
    h = (h << 15) | (h >>> 17);
    h = Math.imul(h ^ k2, 0xcc9e2d51);
    h = (h << 15) | (h >>> 17);
    h = Math.imul(h ^ k3, 0xcc9e2d51);
    h = (h << 15) | (h >>> 17);
    let k4 = 0, k5 = 0, k6 = 0, k7 = 0, k8 = 0, k9 = 0;
    if (v6) {
      k4 = srcLow ? d.src1 : d.dst1;
      k5 = srcLow ? d.dst1 : d.src1;
      k6 = srcLow ? d.src2 : d.dst2;
      k7 = srcLow ? d.dst2 : d.src2;
      k8 = srcLow ? d.src3 : d.dst3;
      k9 = srcLow ? d.dst3 : d.src3;
      h = Math.imul(h ^ k4, 0xcc9e2d51);
      h = Math.imul(h ^ k5, 0xcc9e2d51);
      h = (h << 15) | (h >>> 17);
      h = Math.imul(h ^ k6, 0xcc9e2d51);
      h = Math.imul(h ^ k7, 0xcc9e2d51);
      h = (h << 15) | (h >>> 17);
      h = Math.imul(h ^ k8, 0xcc9e2d51);
      h = Math.imul(h ^ k9, 0xcc9e2d51);
    }
    if (session !== 0) h = Math.imul(h ^ session, 0xcc9e2d51);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h >>>= 0;

    const slots = this.slots;
    const mask = this.slotMask;
    const keys = this.keys;
    const hashes = this.hashes;
    let s = h & mask;
    for (;;) {
      const v = slots[s];
      if (v === 0) break;
      const c = v - 1;
      if (hashes[c] === h) {
        const base = c * KEY_WORDS;
        if (
          keys[base + 1] === k1 && keys[base + 2] === k2 && keys[base + 3] === k3 && keys[base] === k0 && keys[base + 10] === session &&
          (!v6 ||
            (keys[base + 4] === k4 && keys[base + 5] === k5 && keys[base + 6] === k6 &&
              keys[base + 7] === k7 && keys[base + 8] === k8 && keys[base + 9] === k9))
        ) {
          this.created = false;
          this.direction = srcLow === (this.aIsLow[c] === 1) ? 0 : 1;
          return c;
        }
      }
      s = (s + 1) & mask;
    }
    if (!create) return -1;
    // new conversation
    const c = this.count++;
    this.ensure(this.count);
    const base = c * KEY_WORDS;
    const kk = this.keys;
    kk[base] = k0; kk[base + 1] = k1; kk[base + 2] = k2; kk[base + 3] = k3; kk[base + 4] = k4;
    kk[base + 5] = k5; kk[base + 6] = k6; kk[base + 7] = k7; kk[base + 8] = k8; kk[base + 9] = k9;
    kk[base + 10] = session;
    this.hashes[c] = h;
    this.proto[c] = proto;
    const low = endpointToString(v6, k2, k4, k6, k8, k1 >>> 16);
    const high = endpointToString(v6, k3, k5, k7, k9, k1 & 0xffff);
    const aIsLow = low <= high;
    this.aIsLow[c] = aIsLow ? 1 : 0;
    this.a[c] = aIsLow ? low : high;
    this.b[c] = aIsLow ? high : low;
    this.direction = srcLow === aIsLow ? 0 : 1;
    this.firstSrcIsA[c] = this.direction === 0 ? 1 : 0;
    this.startS[c] = Infinity;
    this.endS[c] = -Infinity;
    slots[s] = c + 1;
    this.created = true;
    if (this.count * 2 > this.slots.length) this.rehash();
    return c;
  }

  private rehash(): void {
    const n = this.slots.length * 2;
    const slots = new Int32Array(n);
    const mask = n - 1;
    for (let c = 0; c < this.count; c++) {
      let s = this.hashes[c] & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = c + 1;
    }
    this.slots = slots;
    this.slotMask = mask;
  }

  /**
   * A TCP segment's SYN flag (flags: the TCP header's), in direction d of conversation c: a SYN
   * without ACK names its sender as the client, a SYN-ACK its receiver. The first of each counts.
   */
  noteSyn(c: number, d: number, flags: number): void {
    if (flags & TH_ACK) {
      if (this.synAckTo[c] === 0) this.synAckTo[c] = d === 0 ? 2 : 1;
    } else if (this.synFrom[c] === 0) this.synFrom[c] = d === 0 ? 1 : 2;
  }

  /** The client of conversation c and the rule that told it (clientSide()). */
  client(c: number): { clientIsA: boolean; by: PcapClientRule } {
    const port = (ep: string) => Number(ep.slice(ep.lastIndexOf(":") + 1));
    const opened = this.synFrom[c] || this.synAckTo[c];
    return clientSide(this.proto[c] === 6 ? "tcp" : "udp", port(this.a[c]), port(this.b[c]), opened === 0 ? null : opened === 1, this.firstSrcIsA[c] === 1);
  }

  /** Mirror session number of conversation c (0: not encapsulated). */
  session(c: number): number {
    return this.keys[c * KEY_WORDS + 10];
  }

  /** Endpoint strings of the side that sent in direction d of conversation c. */
  source(c: number, d: number): string {
    return d === 0 ? this.a[c] : this.b[c];
  }
}

/**
 * Which side of a conversation is the client (docs/pcap.md, "Client and server"); the conversation
 * key keeps tshark's address order whatever this says.
 * 1. The handshake, when the capture has it: the SYN's sender (or the SYN-ACK's receiver).
 * 2. Else ports: the side on a well-known or registered service port (below 1024, or 3306, 5432,
 *    8080…: app-id.ts) is the server when the other side's is not one.
 * 3. Else a guess: the lower port is the server's (equal ports: the first packet's sender is the client).
 */
export function clientSide(proto: "tcp" | "udp", aPort: number, bPort: number, openedByA: boolean | null, firstSrcIsA: boolean): { clientIsA: boolean; by: PcapClientRule } {
  if (openedByA !== null) return { clientIsA: openedByA, by: "SYN" };
  const aServes = isServicePort(proto, aPort);
  const bServes = isServicePort(proto, bPort);
  if (aServes !== bServes) return { clientIsA: bServes, by: "well-known port" };
  return { clientIsA: aPort === bPort ? firstSrcIsA : aPort > bPort, by: "port order" };
}
