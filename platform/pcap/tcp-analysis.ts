/**
 * TCP sequence analysis, reproducing tshark 4.0's `tcp_analyze_sequence_number()`
 * (epan/dissectors/packet-tcp.c) and the parts of `dissect_tcp()` around it that change
 * its state: port-reuse detection on a SYN, the initial RTT taken from the handshake,
 * and the unacked-segment list that yields `tcp.analysis.ack_rtt`.
 *
 * tshark keys this state by TCP conversation (addresses + ports, no VLAN), keeps one
 * "flow" per direction, and analyses every packet once, in file order. We do the same.
 * State lives in typed arrays indexed by flow = conversation * 2 + direction, so the hot
 * path allocates nothing.
 *
 * Preferences reproduced (the oracle pins them): analyze_sequence_numbers on,
 * relative sequence numbers on (no effect on flags), fastrt_supersedes_ooo on.
 */
import { TH_ACK, TH_FIN, TH_RST, TH_SYN } from "./decode.ts";

// tshark's TCP_A_* bits (only the ones whose state matters are tracked)
const A_RETRANSMISSION = 0x0001;
const A_LOST_PACKET = 0x0002;
const A_ACK_LOST_PACKET = 0x0004;
const A_KEEP_ALIVE = 0x0008;
const A_DUPLICATE_ACK = 0x0010;
const A_ZERO_WINDOW = 0x0020;
const A_ZERO_WINDOW_PROBE = 0x0040;
const A_ZERO_WINDOW_PROBE_ACK = 0x0080;
const A_KEEP_ALIVE_ACK = 0x0100;
const A_OUT_OF_ORDER = 0x0200;
const A_FAST_RETRANSMISSION = 0x0400;
const A_WINDOW_UPDATE = 0x0800;
const A_SPURIOUS_RETRANSMISSION = 0x4000;

/** Flags reported per packet (what the oracle counts). */
export const F_RETRANSMISSION = 1; // tshark prints it for plain, fast and spurious retransmissions
export const F_FAST_RETRANSMISSION = 2;
export const F_SPURIOUS_RETRANSMISSION = 4;
export const F_DUPLICATE_ACK = 8;
export const F_OUT_OF_ORDER = 16;
export const F_LOST_SEGMENT = 32;
export const F_ZERO_WINDOW = 64;

export const FLAG_NAMES = [
  "retransmission",
  "fast_retransmission",
  "spurious_retransmission",
  "duplicate_ack",
  "out_of_order",
  "lost_segment",
  "zero_window",
] as const;
export type FlagName = (typeof FLAG_NAMES)[number];

/** tshark stops remembering unacked segments past this many per direction. */
const MAX_UNACKED_SEGMENTS = 10000;
const BASE_SEQ_SET = 1;

/** Sequence-space comparisons (32-bit wrap-around), as Wireshark's LT_SEQ & co. */
function gtSeq(x: number, y: number): boolean {
  return ((y - x) | 0) < 0;
}
function ltSeq(x: number, y: number): boolean {
  return ((x - y) | 0) < 0;
}
function leSeq(x: number, y: number): boolean {
  return ((x - y) | 0) <= 0;
}

/** `a < b` where both are signed 64-bit nanosecond counts compared as guint64 (C code). */
function unsignedLess(a: number, b: number): boolean {
  if (a >= 0) return b < 0 || a < b;
  return b < 0 && a < b;
}

// Per-flow state, packed: one Uint32Array, one Float64Array and one Int32Array, each
// with a fixed number of slots per flow (flow = conversation * 2 + direction).
const U_NEXTSEQ = 0; // highest nextseq seen (0 = none, as in tshark)
const U_MAXSEQTOBEACKED = 1;
const U_LASTACK = 2;
const U_WINDOW = 3; // raw window of the last segment (0xffffffff before the first)
const U_DUPACKNUM = 4; // a guint32 in tshark
const U_BASESEQ = 5;
const U_FLAGS = 6; // BASE_SEQ_SET | lastsegmentflags << 8
const U_WALKACK = 7; // ACK value of the last walk over this flow's unacked list
const U_STRIDE = 8;
const T_NEXTSEQ_S = 0;
const T_NEXTSEQ_NS = 1;
const T_LASTACK_S = 2;
const T_LASTACK_NS = 3;
const T_STRIDE = 4;
const L_HEAD = 0; // first unacked segment (newest), -1 = none
const L_MARK = 1; // segments from here on are known not to be covered by U_WALKACK (-2 = unknown)
const L_COUNT = 2;
const L_STRIDE = 3;
const NO_MARK = -2;

/** A copy of `a`, `n` long (the rest zero): the tables grow by doubling. */
function grown<T extends Uint32Array | Int32Array | Float64Array>(a: T, n: number): T {
  // why the cast: a typed array's constructor is its own class; TypeScript types it as Function.
  const b = new (a.constructor as new (length: number) => T)(n);
  b.set(a);
  return b;
}

export class TcpAnalyzer {
  private cap = 0;
  private u = new Uint32Array(0);
  private tm = new Float64Array(0);
  private lk = new Int32Array(0);
  // per conversation
  private mruSynS = new Float64Array(0);
  private mruSynNs = new Int32Array(0);
  private firstRtt = new Float64Array(0); // signed nanoseconds, 0 = unknown

  // pool of unacked segments (singly linked lists, newest first, like tshark's). tshark
  // also keeps each segment's start and trims it on a partial ACK, but nothing reads
  // that value back, so only the end (nextseq) and the time are kept here.
  private segNext = new Uint32Array(1024);
  private segTsS = new Float64Array(1024);
  private segTsNs = new Int32Array(1024);
  private segLink = new Int32Array(1024);
  private segFree = -1;
  private segUsed = 0;

  /** after `packet()`: whether it produced an ack_rtt value, and the value in ns */
  hasRtt = false;
  rttNs = 0;

  /** Make room for conversations 0 .. n-1. */
  ensure(n: number): void {
    if (n <= this.cap) return;
    let c = this.cap || 256;
    while (c < n) c *= 2;
    const old = this.cap;
    this.u = grown(this.u, c * 2 * U_STRIDE);
    this.tm = grown(this.tm, c * 2 * T_STRIDE);
    this.lk = grown(this.lk, c * 2 * L_STRIDE);
    this.mruSynS = grown(this.mruSynS, c);
    this.mruSynNs = grown(this.mruSynNs, c);
    this.firstRtt = grown(this.firstRtt, c);
    this.cap = c;
    for (let f = old * 2; f < c * 2; f++) this.initFlow(f);
  }

  private initFlow(f: number): void {
    const uo = f * U_STRIDE;
    this.u.fill(0, uo, uo + U_STRIDE);
    this.u[uo + U_WINDOW] = 0xffffffff;
    this.tm.fill(0, f * T_STRIDE, (f + 1) * T_STRIDE);
    const lo = f * L_STRIDE;
    this.lk[lo + L_HEAD] = -1;
    this.lk[lo + L_MARK] = NO_MARK;
    this.lk[lo + L_COUNT] = 0;
  }

  /** Start a fresh tshark conversation for conversation c (what tshark does on port reuse). */
  private resetConversation(c: number): void {
    for (let f = c * 2; f < c * 2 + 2; f++) {
      let s = this.lk[f * L_STRIDE + L_HEAD];
      while (s !== -1) {
        const next = this.segLink[s];
        this.freeSeg(s);
        s = next;
      }
      this.initFlow(f);
    }
    this.mruSynS[c] = 0;
    this.mruSynNs[c] = 0;
    this.firstRtt[c] = 0;
  }

  private allocSeg(): number {
    if (this.segFree !== -1) {
      const s = this.segFree;
      this.segFree = this.segLink[s];
      return s;
    }
    if (this.segUsed === this.segNext.length) {
      const n = this.segNext.length * 2;
      this.segNext = grown(this.segNext, n);
      this.segTsS = grown(this.segTsS, n);
      this.segTsNs = grown(this.segTsNs, n);
      this.segLink = grown(this.segLink, n);
    }
    return this.segUsed++;
  }

  private freeSeg(s: number): void {
    this.segLink[s] = this.segFree;
    this.segFree = s;
  }

  /** The SYN checks dissect_tcp() runs before the analysis (also on ICMP-quoted headers). */
  private synChecks(c: number, f: number, seq: number, flags: number): void {
    // a SYN on a conversation whose base sequence is known either starts a new
    // conversation (other ISN: "port numbers reused") or is a retransmitted SYN (same
    // ISN), for which nextseq is restored from maxseqtobeacked (issue 17616)
    const synAck = flags & (TH_SYN | TH_ACK);
    const uo = f * U_STRIDE;
    if (synAck === TH_SYN && this.u[uo + U_FLAGS] & BASE_SEQ_SET) {
      if (seq !== this.u[uo + U_BASESEQ]) this.resetConversation(c);
      else this.u[uo + U_NEXTSEQ] = this.u[uo + U_MAXSEQTOBEACKED];
    } else if (synAck === (TH_SYN | TH_ACK) && this.u[uo + U_FLAGS] & BASE_SEQ_SET && seq !== this.u[uo + U_BASESEQ]) {
      this.u[uo + U_BASESEQ] = seq;
    }
  }

  /**
   * One TCP packet of conversation `c` sent in direction `d` (0 or 1; both directions of
   * a degenerate conversation whose two endpoints are equal use the same d).
   * `seglen` is tcp.len or -1 when tshark does not analyse the packet (IP fragment,
   * ICMP-quoted header, short reported length). `hlen` is the TCP header length.
   * Returns the reported flags (F_*); `hasRtt` / `rttNs` tell about tcp.analysis.ack_rtt.
   */
  packet(
    c: number,
    d: number,
    seq: number,
    ack: number,
    flags: number,
    win: number,
    seglen: number,
    hlen: number,
    tsS: number,
    tsNs: number,
  ): number {
    const f = c * 2 + d;
    this.hasRtt = false;
    if (flags & TH_SYN) this.synChecks(c, f, seq, flags);
    let out = 0;
    if (seglen >= 0) {
      const ta = this.analyze(c, f, c * 2 + (1 - d), seq, ack, seglen, flags, win, tsS, tsNs);
      if (ta !== 0) {
        if (ta & (A_RETRANSMISSION | A_FAST_RETRANSMISSION | A_SPURIOUS_RETRANSMISSION)) out |= F_RETRANSMISSION;
        if (ta & A_FAST_RETRANSMISSION) out |= F_FAST_RETRANSMISSION;
        if (ta & A_SPURIOUS_RETRANSMISSION) out |= F_SPURIOUS_RETRANSMISSION;
        if (ta & A_DUPLICATE_ACK) out |= F_DUPLICATE_ACK;
        if (ta & A_OUT_OF_ORDER) out |= F_OUT_OF_ORDER;
        if (ta & A_LOST_PACKET) out |= F_LOST_SEGMENT;
        if (ta & A_ZERO_WINDOW) out |= F_ZERO_WINDOW;
      }
    }
    // (cheap test first: after the handshake only the first pure ACK matters)
    if (hlen >= 20 && (flags & TH_SYN || this.firstRtt[c] === 0)) this.handshakeTiming(c, flags, tsS, tsNs);
    return out;
  }

  /**
   * An ICMP error quoting a TCP header of conversation c: tshark does not analyse it,
   * but its dissect_tcp() still runs the SYN checks and the handshake timing.
   */
  quoted(c: number, d: number, seq: number, flags: number, hlen: number, tsS: number, tsNs: number): void {
    this.synChecks(c, c * 2 + d, seq, flags);
    if (hlen >= 20) this.handshakeTiming(c, flags, tsS, tsNs);
  }

  /** ts_mru_syn and ts_first_rtt (tcp.analysis.initial_rtt), used for the out-of-order threshold. */
  private handshakeTiming(c: number, flags: number, tsS: number, tsNs: number): void {
    if (flags & TH_SYN) {
      if (!(flags & TH_ACK)) {
        this.mruSynS[c] = tsS;
        this.mruSynNs[c] = tsNs;
      }
    } else if (flags & TH_ACK && (this.mruSynS[c] !== 0 || this.mruSynNs[c] !== 0) && this.firstRtt[c] === 0) {
      this.firstRtt[c] = (tsS - this.mruSynS[c]) * 1e9 + (tsNs - this.mruSynNs[c]);
    }
  }

  private analyze(
    c: number,
    f: number,
    r: number,
    seq: number,
    ack: number,
    seglen: number,
    flags: number,
    win: number,
    tsS: number,
    tsNs: number,
  ): number {
    const u = this.u;
    const tm = this.tm;
    const fo = f * U_STRIDE;
    const ro = r * U_STRIDE;
    const ft = f * T_STRIDE;
    const rt = r * T_STRIDE;
    // base sequence numbers (dissect_tcp, just before the analysis)
    if (!(u[fo + U_FLAGS] & BASE_SEQ_SET)) {
      u[fo + U_BASESEQ] = flags & TH_SYN ? seq : (seq - 1) >>> 0;
      u[fo + U_FLAGS] |= BASE_SEQ_SET;
    }
    if (!(u[ro + U_FLAGS] & BASE_SEQ_SET) && flags & TH_ACK) {
      u[ro + U_BASESEQ] = (ack - 1) >>> 0;
      u[ro + U_FLAGS] |= BASE_SEQ_SET;
    }

    let ta = 0;
    const nextseqF = u[fo + U_NEXTSEQ];
    const lastackF = u[fo + U_LASTACK];
    const windowF = u[fo + U_WINDOW];
    const noSynFinRst = (flags & (TH_SYN | TH_FIN | TH_RST)) === 0;
    fwd: {
      // zero window probe: 1 byte at the next expected seq while the peer's window is 0
      if (seglen === 1 && seq === nextseqF && u[ro + U_WINDOW] === 0) {
        ta |= A_ZERO_WINDOW_PROBE;
        break fwd;
      }
      if (win === 0 && noSynFinRst) ta |= A_ZERO_WINDOW;
      // a gap: previous segment(s) not captured
      if (nextseqF !== 0 && gtSeq(seq, nextseqF) && (flags & TH_RST) === 0) ta |= A_LOST_PACKET;
      // keep-alive: 0 or 1 byte, one byte before the next expected seq
      if ((seglen === 0 || seglen === 1) && seq === ((nextseqF - 1) >>> 0) && noSynFinRst) ta |= A_KEEP_ALIVE;
      if (seglen === 0 && seq === nextseqF && ack === lastackF && noSynFinRst) {
        if (win !== 0 && win !== windowF) ta |= A_WINDOW_UPDATE;
        // (window full is not tracked: it needs window scaling and no reported figure uses it)
        const lastR = u[ro + U_FLAGS] >>> 8;
        if (win !== 0 && win === windowF && lastR & A_KEEP_ALIVE) {
          ta |= A_KEEP_ALIVE_ACK;
          break fwd;
        }
        if (win === 0 && win === windowF && lastR & A_ZERO_WINDOW_PROBE) {
          ta |= A_ZERO_WINDOW_PROBE_ACK;
          break fwd;
        }
        if (win !== 0 && win === windowF) {
          // (tshark skips this for MPTCP subflows after an MPTCP operation; not reproduced)
          const n = u[fo + U_DUPACKNUM];
          u[fo + U_DUPACKNUM] = n === 0xffffffff ? 1 : n + 1;
          ta |= A_DUPLICATE_ACK;
        }
      }
    }
    if (ack !== lastackF) u[fo + U_DUPACKNUM] = 0;

    // ACKed unseen segment: the peer acknowledges data we never saw. tshark moves the
    // mark forward so the indication is not repeated; when it cannot, it sets the dup-ACK
    // counter to -1 -- a guint32, so that value then passes "dupacknum >= 2" below.
    const maxR = u[ro + U_MAXSEQTOBEACKED];
    if (maxR !== 0 && gtSeq(ack, maxR) && flags & TH_ACK) {
      if (ltSeq(maxR, u[ro + U_NEXTSEQ])) {
        u[ro + U_MAXSEQTOBEACKED] = u[ro + U_NEXTSEQ];
        ta |= A_ACK_LOST_PACKET;
      } else {
        if (u[ro + U_DUPACKNUM] === 0) ta |= A_ACK_LOST_PACKET;
        u[ro + U_DUPACKNUM] = 0xffffffff;
      }
    }

    // retransmission / fast retransmission / spurious / out-of-order
    if (seglen > 0 || flags & (TH_SYN | TH_FIN)) {
      retrans: {
        const ns = u[fo + U_NEXTSEQ];
        let notAdvanced = ns !== 0 && ltSeq(seq, ns);
        if (ta & A_KEEP_ALIVE) break retrans;
        // more than one new byte right after a possible zero-window probe: new data
        if (seglen > 1 && ((ns - 1) >>> 0) === seq) notAdvanced = false;
        const lastackR = u[ro + U_LASTACK];
        if (seglen > 0 && lastackR !== 0 && leSeq((seq + seglen) >>> 0, lastackR)) {
          ta |= A_SPURIOUS_RETRANSMISSION;
          break retrans;
        }
        if (!notAdvanced) break retrans;
        // fast retransmission: >= 2 dup ACKs, seq = their ACK, within 20 ms of the last ACK
        let t = (tsS - tm[rt + T_LASTACK_S]) * 1e9 + (tsNs - tm[rt + T_LASTACK_NS]);
        if (u[ro + U_DUPACKNUM] >= 2 && lastackR === seq && t >= 0 && t < 20000000) {
          ta |= A_FAST_RETRANSMISSION;
          break retrans;
        }
        // out-of-order: shortly after the highest segment (initial RTT, else 3 ms)
        t = (tsS - tm[ft + T_NEXTSEQ_S]) * 1e9 + (tsNs - tm[ft + T_NEXTSEQ_NS]);
        const rtt = this.firstRtt[c];
        const threshold = rtt === 0 ? 3000000 : rtt;
        if (unsignedLess(t, threshold) && ns !== ((seq + seglen + (flags & (TH_SYN | TH_FIN) ? 1 : 0)) >>> 0)) {
          ta |= A_OUT_OF_ORDER;
          break retrans;
        }
        ta |= A_RETRANSMISSION;
      }
    }

    let nextseq = (seq + seglen) >>> 0;
    const lk = this.lk;
    const fl = f * L_STRIDE;
    if ((seglen !== 0 || flags & (TH_SYN | TH_FIN)) && lk[fl + L_COUNT] < MAX_UNACKED_SEGMENTS) {
      if (flags & (TH_SYN | TH_FIN)) nextseq = (nextseq + 1) >>> 0;
      const s = this.allocSeg();
      this.segNext[s] = nextseq;
      this.segTsS[s] = tsS;
      this.segTsNs[s] = tsNs;
      this.segLink[s] = lk[fl + L_HEAD];
      lk[fl + L_HEAD] = s;
      lk[fl + L_COUNT]++;
    }
    // highest nextseq so far (a zero window probe does not advance it)
    const zwp = (ta & A_ZERO_WINDOW_PROBE) !== 0;
    if ((gtSeq(nextseq, u[fo + U_NEXTSEQ]) || u[fo + U_NEXTSEQ] === 0) && !zwp) {
      u[fo + U_NEXTSEQ] = nextseq;
      tm[ft + T_NEXTSEQ_S] = tsS;
      tm[ft + T_NEXTSEQ_NS] = tsNs;
    }
    if ((seq === u[fo + U_MAXSEQTOBEACKED] || u[fo + U_MAXSEQTOBEACKED] === 0) && !zwp) {
      u[fo + U_MAXSEQTOBEACKED] = u[fo + U_NEXTSEQ];
    }
    u[fo + U_WINDOW] = win;
    u[fo + U_LASTACK] = ack;
    tm[ft + T_LASTACK_S] = tsS;
    tm[ft + T_LASTACK_NS] = tsNs;
    u[fo + U_FLAGS] = (u[fo + U_FLAGS] & 0xff) | (ta << 8);

    // drop the reverse direction's segments this ACK covers; an exact match gives ack_rtt
    // (the list is newest first, so with several matches the oldest one wins, as in tshark)
    const rl = r * L_STRIDE;
    let prev = -1;
    let s = lk[rl + L_HEAD];
    if (s !== -1) {
      // segments already checked against this very ACK value need no second look
      const stop = lk[rl + L_MARK] !== NO_MARK && u[ro + U_WALKACK] === ack ? lk[rl + L_MARK] : -1;
      const segNext = this.segNext;
      const segLink = this.segLink;
      let matched = false;
      let rtt = 0;
      while (s !== stop) {
        const next = segNext[s];
        const link = segLink[s];
        if (ack === next) {
          matched = true;
          rtt = (tsS - this.segTsS[s]) * 1e9 + (tsNs - this.segTsNs[s]);
        } else if (gtSeq(next, ack)) {
          prev = s; // not (fully) acknowledged: keep it
          s = link;
          continue;
        }
        if (prev === -1) lk[rl + L_HEAD] = link;
        else segLink[prev] = link;
        this.freeSeg(s);
        lk[rl + L_COUNT]--;
        s = link;
      }
      if (matched && rtt !== 0) {
        this.hasRtt = true;
        this.rttNs = rtt;
      }
    }
    u[ro + U_WALKACK] = ack;
    lk[rl + L_MARK] = lk[rl + L_HEAD];
    return ta;
  }
}
