/**
 * File formats and damaged input, on captures built in memory
 * (test-utils/capture-writer.ts).
 */
import { describe, expect, it } from "vitest";
import { analyzeBuffer, analyzeStream } from "./analyzer.ts";
import { PcapFormatError } from "./errors.ts";
import { CaptureReader } from "./reader.ts";
import {
  ACK, concat, ether, ipv4, pcapFile, pcapngFile, PSH, SYN, tcp, udp, type Bytes, type NgBlock,
} from "./test-utils/capture-writer.ts";

const T = 1_700_000_000;

function seg(sport: number, seq: number, flags = ACK, len = 10): Bytes {
  return ether(0x0800, ipv4({ src: "10.0.0.1", dst: "10.0.0.2", proto: 6, payload: tcp({ sport, dport: 80, seq, ack: 1, flags, payload: new Uint8Array(len) }) }));
}

function expectPcapError(fn: () => unknown, kind: string, message: RegExp, offset?: number): PcapFormatError {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(PcapFormatError);
  const e = err as PcapFormatError;
  expect(e.kind).toBe(kind);
  expect(e.message).toMatch(message);
  if (offset !== undefined) expect(e.offset).toBe(offset);
  return e;
}

describe("classic pcap", () => {
  const packets = [
    { sec: T, frac: 123456, data: seg(1000, 1, SYN, 0) },
    { sec: T + 1, frac: 5, data: seg(1000, 2) },
  ];

  it.each([
    ["little-endian, microseconds", { bigEndian: false, nano: false }, "1700000000.123456000", "1700000001.000005000"],
    ["big-endian, microseconds", { bigEndian: true, nano: false }, "1700000000.123456000", "1700000001.000005000"],
    ["little-endian, nanoseconds", { bigEndian: false, nano: true }, "1700000000.000123456", "1700000001.000000005"],
    ["big-endian, nanoseconds", { bigEndian: true, nano: true }, "1700000000.000123456", "1700000001.000000005"],
  ])("reads %s", (_name, opts, first, last) => {
    const r = analyzeBuffer(pcapFile(packets, opts));
    expect(r.format).toBe("pcap");
    expect(r.packets).toBe(2);
    expect(r.first_time_str).toBe(first);
    expect(r.last_time_str).toBe(last);
    expect(r.tcp_conversations).toBe(1);
    expect(r.exit_code).toBe(0);
  });

  it("counts original and captured lengths separately (snaplen)", () => {
    const r = analyzeBuffer(pcapFile([{ sec: T, data: seg(1, 1, ACK, 500), capLen: 60 }]));
    expect(r.bytes).toBe(14 + 20 + 20 + 500);
    expect(r.captured_bytes).toBe(60);
    // tcp.len comes from the IP length, not from what was captured
    expect(r.conversations[0].a_to_b.payload_bytes).toBe(500);
  });

  it("keeps the minimum and maximum time when timestamps step backwards", () => {
    const r = analyzeBuffer(pcapFile([
      { sec: T + 5, data: seg(1, 1) },
      { sec: T + 1, data: seg(1, 11) },
      { sec: T + 3, data: seg(1, 21) },
    ]));
    expect(r.first_time_str).toBe("1700000001.000000000");
    expect(r.last_time_str).toBe("1700000005.000000000");
    expect(r.duration_str).toBe("4.000000000");
  });

  it("accepts zero-length packet records", () => {
    const r = analyzeBuffer(pcapFile([{ sec: T, data: new Uint8Array(0) }, { sec: T, data: seg(1, 1) }]));
    expect(r.packets).toBe(2);
    expect(r.other_packets).toBe(1);
    expect(r.bytes).toBe(64);
  });

  it("gives the same result whatever the chunk boundaries", async () => {
    const file = pcapFile(Array.from({ length: 50 }, (_, i) => ({ sec: T + i, data: seg(2000 + (i % 3), i * 10, ACK | PSH, i * 7) })));
    const whole = analyzeBuffer(file);
    for (const size of [1, 3, 16, 17, 100]) {
      async function* chunks() {
        for (let p = 0; p < file.length; p += size) yield file.subarray(p, p + size);
      }
      const r = await analyzeStream(chunks());
      expect(r.conversations).toEqual(whole.conversations);
      expect(r.packets).toBe(50);
    }
  });
});

describe("pcapng", () => {
  const ifaceBlocks = (iface: number, tsOf: (i: number) => bigint): NgBlock[] =>
    [0, 1, 2].map((i) => ({ type: "epb" as const, iface, ts: tsOf(i), data: seg(3000 + iface, i * 10) }));

  it("uses each interface's own time resolution and offset", () => {
    const r = analyzeBuffer(pcapngFile([{
      interfaces: [
        { linkType: 1, tsresol: 6 },
        { linkType: 1, tsresol: 9 },
        { linkType: 1, tsresol: 0x80 | 10, tsoffset: 100n },
      ],
      blocks: [
        { type: "epb", iface: 0, ts: 1700000000_000001n, data: seg(1, 1) },
        { type: "epb", iface: 1, ts: 1700000000_000000002n, data: seg(2, 1) },
        { type: "epb", iface: 2, ts: (1700000000n << 10n) | 512n, data: seg(3, 1) }, // + 0.5 s + 100 s offset
      ],
    }]));
    const times = Object.fromEntries(r.conversations.map((c) => [c.first_src, c.start_time_str]));
    expect(times["10.0.0.1:1"]).toBe("1700000000.000001000");
    expect(times["10.0.0.1:2"]).toBe("1700000000.000000002");
    expect(times["10.0.0.1:3"]).toBe("1700000100.500000000");
  });

  it("reads timestamps as unsigned 64-bit counts", () => {
    const r = analyzeBuffer(pcapngFile([{ interfaces: [{ linkType: 1 }], blocks: [{ type: "epb", iface: 0, ts: 0xffffffffffffff00n, data: seg(1, 1) }] }]));
    expect(r.first_time_str).toBe("18446744073709.551360000");
  });

  it("reads several sections with their own byte order and interfaces", () => {
    const r = analyzeBuffer(pcapngFile([
      { interfaces: [{ linkType: 1 }], blocks: ifaceBlocks(0, (i) => BigInt(T) * 1000000n + BigInt(i)) },
      { bigEndian: true, interfaces: [{ linkType: 101 }, { linkType: 1, tsresol: 9 }], blocks: ifaceBlocks(1, (i) => BigInt(T) * 1000000000n + BigInt(i)) },
    ]));
    expect(r.packets).toBe(6);
    expect(r.tcp_conversations).toBe(2);
    expect(r.format).toBe("pcapng");
    expect(r.link_types.sort()).toEqual([1, 101]);
  });

  it("reads simple packet blocks (no timestamp) and skips unknown blocks", () => {
    const data = seg(7, 1);
    const r = analyzeBuffer(pcapngFile([{
      interfaces: [{ linkType: 1, snapLen: 40 }],
      blocks: [
        { type: "raw", blockType: 0x0bad, body: new Uint8Array(8) },
        { type: "epb", iface: 0, ts: BigInt(T) * 1000000n, data },
        { type: "spb", data: data.subarray(0, 40), origLen: data.length },
        { type: "raw", blockType: 5, body: new Uint8Array(12) },
      ],
    }]));
    expect(r.packets).toBe(2);
    expect(r.captured_bytes).toBe(64 + 40);
    expect(r.bytes).toBe(128);
    // the SPB has no time: first/last time come from the EPB only
    expect(r.first_time_str).toBe(r.last_time_str);
  });

  it("reads obsolete packet blocks", () => {
    const r = analyzeBuffer(pcapngFile([{ interfaces: [{ linkType: 1 }], blocks: [{ type: "opb", iface: 0, ts: BigInt(T) * 1000000n, data: seg(9, 1) }] }]));
    expect(r.packets).toBe(1);
    expect(r.first_time_str).toBe(`${T}.000000000`);
  });
});

describe("damaged or foreign files", () => {
  const good = pcapFile([{ sec: T, data: seg(1, 1) }, { sec: T, data: seg(1, 11) }, { sec: T, data: seg(1, 21) }]);

  it("rejects a 0-byte file", () => {
    expectPcapError(() => analyzeBuffer(new Uint8Array(0)), "empty", /empty file/, 0);
  });

  it("rejects a PNG image with its magic number", () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    expectPcapError(() => analyzeBuffer(png), "not-a-capture", /not a pcap or pcapng file \(magic 0x89504e47 at byte 0\)/, 0);
  });

  it("rejects a text file", () => {
    expectPcapError(() => analyzeBuffer(new TextEncoder().encode("hello, this is not a capture\n")), "not-a-capture", /magic 0x68656c6c/);
    expectPcapError(() => analyzeBuffer(new TextEncoder().encode("hi")), "not-a-capture", /too short/);
  });

  it("rejects a truncated global header", () => {
    expectPcapError(() => analyzeBuffer(good.subarray(0, 10)), "truncated", /truncated pcap file header at byte 0/, 0);
  });

  it("summarises the packets before a file cut in a record header, with a warning", () => {
    // each record: 16-byte header + 64-byte frame
    const cut = good.subarray(0, 24 + 2 * 80 + 7);
    const r = analyzeBuffer(cut);
    expect(r.packets).toBe(2);
    expect(r.exit_code).toBe(2);
    expect(r.warnings).toEqual([`truncated packet record header at byte 184: the file ends after 7 of its 16 bytes (cut short in the middle of a packet)`]);
    expectPcapError(() => analyzeBuffer(cut, { strict: true }), "truncated", /packet record header at byte 184/, 184);
  });

  it("summarises the packets before a file cut inside packet data", () => {
    const r = analyzeBuffer(good.subarray(0, good.length - 5));
    expect(r.packets).toBe(2);
    expect(r.warnings[0]).toMatch(/^truncated packet record at byte 184: the file ends after 75 of its 80 bytes/);
  });

  it("reports an absurd captured length with its position", () => {
    const bad = good.slice();
    new DataView(bad.buffer).setUint32(24 + 8, 0xffffffff, true);
    const e = expectPcapError(() => analyzeBuffer(bad), "bad-length", /absurd captured length 4294967295 at byte 32/, 24);
    expect(e.message).toMatch(/packet record at byte 24/);
    // after good packets: a partial result, like tshark
    const later = good.slice();
    new DataView(later.buffer).setUint32(24 + 80 + 8, 300000, true);
    const r = analyzeBuffer(later);
    expect(r.packets).toBe(1);
    expect(r.warnings[0]).toMatch(/absurd captured length 300000 at byte 112/);
  });

  it("rejects pcapng blocks with bad lengths", () => {
    const ng = pcapngFile([{ interfaces: [{ linkType: 1 }], blocks: [{ type: "epb", iface: 0, ts: 1n, data: seg(1, 1) }] }]);
    const shbLen = 28;
    const idbLen = 20;
    const epbAt = shbLen + idbLen;
    const odd = ng.slice();
    new DataView(odd.buffer).setUint32(epbAt + 4, 90, true);
    expectPcapError(() => analyzeBuffer(odd), "bad-length", new RegExp(`bad pcapng block length 90 at byte ${epbAt + 4}.*not a multiple of 4`), epbAt);
    const tiny = ng.slice();
    new DataView(tiny.buffer).setUint32(epbAt + 4, 8, true);
    expectPcapError(() => analyzeBuffer(tiny), "bad-length", /bad pcapng block length 8/, epbAt);
    const huge = ng.slice();
    new DataView(huge.buffer).setUint32(epbAt + 4, 0x7ffffff0, true);
    expectPcapError(() => analyzeBuffer(huge), "bad-length", /absurd pcapng block length/, epbAt);
    const mismatch = ng.slice();
    new DataView(mismatch.buffer).setUint32(ng.length - 4, 12, true);
    expectPcapError(() => analyzeBuffer(mismatch), "bad-length", /mismatched lengths/, epbAt);
    const capTooBig = ng.slice();
    new DataView(capTooBig.buffer).setUint32(epbAt + 20, 1000, true);
    expectPcapError(() => analyzeBuffer(capTooBig), "bad-length", /absurd captured length 1000/, epbAt);
  });

  it("rejects a packet for an interface that was never described", () => {
    const ng = pcapngFile([{ interfaces: [{ linkType: 1 }], blocks: [{ type: "epb", iface: 3, ts: 1n, data: seg(1, 1) }] }]);
    expectPcapError(() => analyzeBuffer(ng), "bad-format", /refers to interface 3, but the section has 1 interface/);
  });

  it("rejects a pcapng file with a bad byte-order magic", () => {
    const ng = pcapngFile([{ interfaces: [], blocks: [] }]).slice();
    ng[8] = 0x11;
    expectPcapError(() => analyzeBuffer(ng), "bad-format", /bad byte-order magic/);
  });

  it("feeds chunks to the reader without holding them", () => {
    // the reader keeps only an incomplete record between chunks
    const reader = new CaptureReader({ packet() {} });
    reader.push(good.subarray(0, 30));
    reader.push(good.subarray(30));
    reader.finish();
    expect(reader.packets).toBe(3);
  });
});

it("handles a capture bigger than one chunk (streamed, several chunks)", async () => {
  // ~20 MB in 256 kB chunks: records straddle chunk boundaries many times
  const pkt = concat(seg(4000, 1, ACK, 1400));
  const header = pcapFile([]);
  const record = pcapFile([{ sec: T, data: pkt }]).subarray(24);
  async function* gen() {
    yield header;
    const block = new Uint8Array(record.length * 171);
    for (let i = 0; i < 171; i++) block.set(record, i * record.length);
    for (let n = 0; n < 80; n++) yield block;
  }
  const r = await analyzeStream(gen());
  expect(r.packets).toBe(171 * 80);
  expect(r.conversations[0].a_to_b.payload_bytes).toBe(171 * 80 * 1400);
  void udp;
});
