/**
 * Mirror sessions of encapsulated (VXLAN/GENEVE) traffic. A session is the tunnel's
 * kind, its VNI and the pair of outer IP addresses, in either direction (a kernel VXLAN
 * link sends both ways between the same two addresses; a cloud mirror sends one way to
 * its target). Outer UDP ports are not part of it: senders vary the source port per
 * inner flow for load balancing.
 *
 * Sessions are numbered from 1 (0 = not encapsulated) in order of appearance; the number
 * goes into the conversation key so one inner connection seen through two sessions
 * stays two conversations.
 */
import { ENCAP_NAMES, type Decoded, type EncapsulationName } from "./decode.ts";
import { ipv4ToString, ipv6ToString } from "./format.ts";

export interface MirrorSession {
  /** e.g. "vxlan:100@192.0.2.1,192.0.2.2" (outer addresses in string order) */
  name: string;
  encapsulation: EncapsulationName;
  vni: number;
  outer_a: string;
  outer_b: string;
  packets: number;
}

/** A session's raw identity, compared word by word so a known session costs no string. */
interface RawSession {
  kind: number;
  vni: number;
  v6: boolean;
  a: Uint32Array;
  b: Uint32Array;
  number: number;
}

export class MirrorSessions {
  readonly list: MirrorSession[] = [];
  private readonly byName = new Map<string, number>();
  /**
   * Known sessions by a hash that does not depend on the direction (XOR of the two addresses'
   * words): packets of interleaved sessions find theirs without formatting addresses (the
   * profile of a mirrored capture had address formatting and its garbage as the top cost).
   */
  private readonly byHash = new Map<number, RawSession[]>();
  // the last session seen: consecutive packets nearly always share it
  private lastKind = 0;
  private lastVni = -1;
  private lastV6 = false;
  private readonly lastA = new Uint32Array(4);
  private readonly lastB = new Uint32Array(4);
  private lastNumber = 0;

  /** Session number (1-based) of an encapsulated decoded packet; counts the packet. */
  of(d: Decoded): number {
    const s = d.outerSrc;
    const t = d.outerDst;
    if (
      d.encap === this.lastKind &&
      d.vni === this.lastVni &&
      d.outerV6 === this.lastV6 &&
      samePair(s, t, this.lastA, this.lastB)
    ) {
      this.list[this.lastNumber - 1].packets++;
      return this.lastNumber;
    }
    const hash =
      (Math.imul(d.encap * 0x1000193 + d.vni, 0x9e3779b1) ^
        (s[0] ^ t[0]) ^
        Math.imul(s[1] ^ t[1], 3) ^
        Math.imul(s[2] ^ t[2], 5) ^
        Math.imul(s[3] ^ t[3], 7)) |
      0;
    let n = 0;
    const bucket = this.byHash.get(hash);
    if (bucket) {
      for (const r of bucket) {
        if (
          r.kind === d.encap &&
          r.vni === d.vni &&
          r.v6 === d.outerV6 &&
          samePair(s, t, r.a, r.b)
        ) {
          n = r.number;
          break;
        }
      }
    }
    if (n === 0) {
      n = this.add(d);
      const raw: RawSession = {
        kind: d.encap,
        vni: d.vni,
        v6: d.outerV6,
        a: Uint32Array.from(s),
        b: Uint32Array.from(t),
        number: n,
      };
      if (bucket) bucket.push(raw);
      else this.byHash.set(hash, [raw]);
    }
    this.list[n - 1].packets++;
    this.lastKind = d.encap;
    this.lastVni = d.vni;
    this.lastV6 = d.outerV6;
    this.lastA.set(s);
    this.lastB.set(t);
    this.lastNumber = n;
    return n;
  }

  /** The number of the session of `d` by its name (made once per new raw identity). */
  private add(d: Decoded): number {
    const text = (w: Uint32Array) =>
      d.outerV6 ? ipv6ToString(w[0], w[1], w[2], w[3]) : ipv4ToString(w[0]);
    const x = text(d.outerSrc);
    const y = text(d.outerDst);
    const [a, b] = x <= y ? [x, y] : [y, x];
    const encapsulation = ENCAP_NAMES[d.encap]!;
    const name = `${encapsulation}:${d.vni}@${a},${b}`;
    let n = this.byName.get(name);
    if (n === undefined) {
      this.list.push({
        name,
        encapsulation,
        vni: d.vni,
        outer_a: a,
        outer_b: b,
        packets: 0,
      });
      n = this.list.length;
      this.byName.set(name, n);
    }
    return n;
  }
}

/** The same two addresses (s, t) as (a, b), in either direction. */
function samePair(
  s: Uint32Array,
  t: Uint32Array,
  a: Uint32Array,
  b: Uint32Array,
): boolean {
  const fwd =
    s[0] === a[0] &&
    s[1] === a[1] &&
    s[2] === a[2] &&
    s[3] === a[3] &&
    t[0] === b[0] &&
    t[1] === b[1] &&
    t[2] === b[2] &&
    t[3] === b[3];
  if (fwd) return true;
  return (
    s[0] === b[0] &&
    s[1] === b[1] &&
    s[2] === b[2] &&
    s[3] === b[3] &&
    t[0] === a[0] &&
    t[1] === a[1] &&
    t[2] === a[2] &&
    t[3] === a[3]
  );
}
