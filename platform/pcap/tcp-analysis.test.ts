/**
 * The tshark 4.0.17 TCP analysis rules, one small scenario each (all of these were also
 * checked against tshark itself through the fixtures in agreement.test.ts).
 */
import { describe, expect, it } from "vitest";
import { analyzeBuffer } from "./analyzer.ts";
import { ACK, ether, FIN, ipv4, pcapFile, PSH, RST, SYN, tcp, type Bytes } from "./test-utils/capture-writer.ts";
import type { ConversationFigures } from "./types.ts";

const T = 1_700_000_000;
const C = 1000; // client ISN
const S = 9000; // server ISN

/** A packet: t in microseconds from T, c = sent by the client. */
interface P {
  t: number;
  c: boolean;
  seq: number;
  ack?: number;
  flags?: number;
  len?: number;
  win?: number;
}

function run(ps: P[], sport = 40000): ConversationFigures {
  const frames = ps.map((p) => {
    const seg = tcp({
      sport: p.c ? sport : 80,
      dport: p.c ? 80 : sport,
      seq: p.seq >>> 0,
      ack: (p.ack ?? 0) >>> 0,
      flags: p.flags ?? ACK,
      window: p.win ?? 64000,
      payload: new Uint8Array(p.len ?? 0),
    });
    const data: Bytes = ether(0x0800, ipv4({ src: p.c ? "10.0.0.1" : "10.0.0.2", dst: p.c ? "10.0.0.2" : "10.0.0.1", proto: 6, payload: seg }));
    return { sec: T + Math.floor(p.t / 1e6), frac: p.t % 1e6, data };
  });
  const r = analyzeBuffer(pcapFile(frames));
  expect(r.conversations).toHaveLength(1);
  return r.conversations[0];
}

const handshake = (t = 0): P[] => [
  { t, c: true, seq: C, flags: SYN },
  { t: t + 10000, c: false, seq: S, ack: C + 1, flags: SYN | ACK },
  { t: t + 20000, c: true, seq: C + 1, ack: S + 1 },
];

describe("tshark's TCP flags", () => {
  it("flags a retransmission (data below the next expected sequence number)", () => {
    const c = run([...handshake(), { t: 30000, c: true, seq: C + 1, ack: S + 1, len: 100 }, { t: 500000, c: true, seq: C + 1, ack: S + 1, len: 100 }]);
    expect(c.a_to_b.analysis!.retransmission).toBe(1);
    expect(c.analysis!.out_of_order).toBe(0);
  });

  it("flags a fast retransmission after two duplicate ACKs within 20 ms", () => {
    const c = run([
      ...handshake(),
      { t: 30000, c: true, seq: C + 1, ack: S + 1, len: 100 }, // will be "lost" to the receiver
      { t: 30001, c: true, seq: C + 101, ack: S + 1, len: 100 },
      // same ACK, window and seq as the server's SYN/ACK: each of these is a duplicate
      { t: 40000, c: false, seq: S + 1, ack: C + 1 },
      { t: 40001, c: false, seq: S + 1, ack: C + 1 },
      { t: 45000, c: true, seq: C + 1, ack: S + 1, len: 100 }, // 5 ms after the last one
    ]);
    expect(c.b_to_a.analysis!.duplicate_ack).toBe(2);
    expect(c.a_to_b.analysis!.fast_retransmission).toBe(1);
    expect(c.a_to_b.analysis!.retransmission).toBe(1); // tshark also sets the retransmission field
  });

  it("flags out-of-order within the initial RTT, and lost segments", () => {
    const c = run([
      ...handshake(), // initial RTT = 20 ms (SYN -> third ACK)
      { t: 30000, c: true, seq: C + 101, ack: S + 1, len: 100 }, // gap: previous segment not captured
      { t: 35000, c: true, seq: C + 1, ack: S + 1, len: 100 }, // 5 ms later: out of order
    ]);
    expect(c.a_to_b.analysis!.lost_segment).toBe(1);
    expect(c.a_to_b.analysis!.out_of_order).toBe(1);
    expect(c.a_to_b.analysis!.retransmission).toBe(0);
  });

  it("flags a spurious retransmission of data the peer already acknowledged", () => {
    const c = run([
      ...handshake(),
      { t: 30000, c: true, seq: C + 1, ack: S + 1, len: 100 },
      { t: 40000, c: false, seq: S + 1, ack: C + 101 },
      { t: 900000, c: true, seq: C + 1, ack: S + 1, len: 100 },
    ]);
    expect(c.a_to_b.analysis!.spurious_retransmission).toBe(1);
    expect(c.a_to_b.analysis!.retransmission).toBe(1);
  });

  it("flags zero windows but not on SYN/FIN/RST", () => {
    const c = run([...handshake(), { t: 30000, c: false, seq: S + 1, ack: C + 1, win: 0 }, { t: 40000, c: false, seq: S + 1, ack: C + 1, flags: RST | ACK, win: 0 }]);
    expect(c.b_to_a.analysis!.zero_window).toBe(1);
  });

  it("does not count a keep-alive as a retransmission", () => {
    const c = run([
      ...handshake(),
      { t: 30000, c: true, seq: C + 1, ack: S + 1, len: 10 },
      { t: 40000, c: false, seq: S + 1, ack: C + 11 },
      { t: 5000000, c: true, seq: C + 10, ack: S + 1, len: 1 }, // keep-alive: one byte before nextseq
    ]);
    expect(c.analysis!.retransmission).toBe(0);
  });

  it("starts afresh when a SYN with another ISN reuses the ports", () => {
    const second = [
      { t: 100000, c: true, seq: 50000, flags: SYN },
      { t: 110000, c: false, seq: 70000, ack: 50001, flags: SYN | ACK },
      { t: 120000, c: true, seq: 50001, ack: 70001 },
      { t: 130000, c: true, seq: 50001, ack: 70001, len: 10, flags: ACK | PSH },
    ];
    const c = run([...handshake(), { t: 30000, c: true, seq: C + 1, ack: S + 1, flags: FIN | ACK }, ...second]);
    expect(c.packets).toBe(8);
    expect(c.analysis).toEqual({
      retransmission: 0, fast_retransmission: 0, spurious_retransmission: 0, duplicate_ack: 0,
      out_of_order: 0, lost_segment: 0, zero_window: 0,
    });
  });

  it("measures ACK RTT from the unacked segment list", () => {
    const c = run([
      ...handshake(),
      { t: 30000, c: true, seq: C + 1, ack: S + 1, len: 100 },
      { t: 30000 + 2500, c: false, seq: S + 1, ack: C + 101 }, // 2.5 ms
    ]);
    // SYN/ACK acks the SYN (10 ms), third ACK acks the SYN/ACK (10 ms), data ACK 2.5 ms
    expect(c.ack_rtt).toEqual({ samples: 3, median: 0.01, max: 0.01 });
  });

  it("handles sequence numbers that wrap around 2^32", () => {
    const isn = 0xffffff00;
    const c = run([
      { t: 0, c: true, seq: isn, flags: SYN },
      { t: 1000, c: false, seq: S, ack: isn + 1, flags: SYN | ACK },
      { t: 2000, c: true, seq: isn + 1, ack: S + 1 },
      { t: 3000, c: true, seq: isn + 1, ack: S + 1, len: 1000 }, // crosses 2^32
      { t: 4000, c: true, seq: (isn + 1001) >>> 0, ack: S + 1, len: 1000 },
      { t: 5000, c: false, seq: S + 1, ack: (isn + 2001) >>> 0 },
    ]);
    expect(c.analysis!.lost_segment).toBe(0);
    expect(c.analysis!.retransmission).toBe(0);
    expect(c.ack_rtt!.samples).toBe(3);
  });
});
