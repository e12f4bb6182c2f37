/**
 * Streaming reader for classic pcap and pcapng capture files.
 *
 * Chunks of the file are pushed in with `push()`; every packet record is handed to a
 * `PacketSink` as a view into the chunk (no copy, no allocation per packet). Only a
 * record that straddles two chunks is copied, into a small "carry" buffer, so memory
 * does not grow with the file size.
 */
import { PcapFormatError } from "./errors.ts";

/** Receives packets. `data[off .. off+capLen)` is only valid during the call. */
export interface PacketSink {
  packet(
    data: Uint8Array,
    off: number,
    capLen: number,
    origLen: number,
    linkType: number,
    tsSec: number,
    tsNsec: number,
    /** false for a packet without a timestamp (pcapng simple packet block) */
    hasTime?: boolean,
  ): void;
}

/** Largest packet tshark accepts for ordinary link types (WTAP_MAX_PACKET_SIZE_STANDARD). */
export const MAX_PACKET_SIZE = 262144;
/** Largest pcapng block we accept; anything bigger is a corrupt length field. */
export const MAX_BLOCK_SIZE = 16 * 1024 * 1024;

const MODE_START = 0;
const MODE_PCAP = 1;
const MODE_PCAPNG = 2;

const SHB_TYPE = 0x0a0d0d0a;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

interface NgInterface {
  linkType: number;
  snapLen: number;
  /** ticks per second (if_tsresol), as a number and a bigint */
  units: number;
  unitsBig: bigint;
  /** if_tsoffset, seconds added to every timestamp */
  offsetSec: number;
}

export type CaptureFormat = "pcap" | "pcapng";

function hex32(v: number): string {
  return "0x" + (v >>> 0).toString(16).padStart(8, "0");
}

export class CaptureReader {
  private readonly sink: PacketSink;
  private mode = MODE_START;
  private littleEndian = true;
  // classic pcap
  private recordHeaderSize = 16;
  private nanoRes = false;
  private pcapLinkType = 1;
  // pcapng
  private ifaces: NgInterface[] = [];
  private sections = 0;

  /** absolute file offset of chunk[0] of the chunk being processed */
  private chunkBase = 0;
  private carry: Uint8Array = new Uint8Array(64 * 1024);
  private carryLen = 0;
  private carryBase = 0; // file offset of carry[0]

  /** number of packet records delivered */
  packets = 0;
  /** total bytes pushed so far */
  bytesSeen = 0;
  format: CaptureFormat | null = null;
  /** link types seen, for information */
  readonly linkTypes = new Set<number>();

  constructor(sink: PacketSink) {
    this.sink = sink;
  }

  /** Feed the next chunk of the file. Throws PcapFormatError on corrupt input. */
  push(chunk: Uint8Array): void {
    const end = chunk.length;
    let pos = 0;
    this.chunkBase = this.bytesSeen;
    this.bytesSeen += end;

    // 1. finish a record that started in an earlier chunk
    while (this.carryLen > 0) {
      let need = this.measure(this.carry, 0, this.carryLen, this.carryBase);
      while (need > this.carryLen && pos < end) {
        const take = Math.min(need - this.carryLen, end - pos);
        this.ensureCarry(this.carryLen + take);
        this.carry.set(chunk.subarray(pos, pos + take), this.carryLen);
        this.carryLen += take;
        pos += take;
        need = this.measure(this.carry, 0, this.carryLen, this.carryBase);
      }
      if (need > this.carryLen) return; // chunk used up, still incomplete
      this.unit(this.carry, 0, need, this.carryBase);
      // anything past `need` in carry cannot exist: we copy only what is needed
      this.carryLen = 0;
    }

    // 2. whole records inside this chunk
    if (this.mode === MODE_PCAP) pos = this.pcapLoop(chunk, pos, end);
    for (;;) {
      const avail = end - pos;
      if (avail <= 0) break;
      const need = this.measure(chunk, pos, avail, this.chunkBase + pos);
      if (need > avail) break;
      this.unit(chunk, pos, need, this.chunkBase + pos);
      pos += need;
      if (this.mode === MODE_PCAP) pos = this.pcapLoop(chunk, pos, end);
    }

    // 3. keep the incomplete tail for the next chunk
    if (pos < end) {
      const rest = end - pos;
      this.ensureCarry(rest);
      this.carry.set(chunk.subarray(pos, end), 0);
      this.carryLen = rest;
      this.carryBase = this.chunkBase + pos;
    }
  }

  /** Call at end of file. Throws PcapFormatError if the file ended inside a record. */
  finish(): void {
    if (this.bytesSeen === 0) {
      throw new PcapFormatError("empty", "empty file (0 bytes): not a pcap or pcapng file", 0);
    }
    if (this.carryLen === 0) return;
    const need = this.measure(this.carry, 0, this.carryLen, this.carryBase);
    const at = this.carryBase;
    if (this.mode === MODE_START) {
      if (this.carryLen < 4) {
        throw new PcapFormatError(
          "not-a-capture",
          `not a pcap or pcapng file: only ${this.carryLen} byte(s), too short for a file header`,
          0,
        );
      }
      const ng = this.carry[0] === 0x0a && this.carry[1] === 0x0d;
      throw new PcapFormatError(
        "truncated",
        `truncated ${ng ? "pcapng section header block" : "pcap file header"} at byte 0: the file has ${this.carryLen} of its ${need} bytes`,
        0,
      );
    }
    const what =
      this.mode === MODE_PCAP
          ? this.carryLen < this.recordHeaderSize
            ? "packet record header"
            : "packet record"
          : this.carryLen < 8
            ? "block header"
            : "block";
    throw new PcapFormatError(
      "truncated",
      `truncated ${what} at byte ${at}: the file ends after ${this.carryLen} of its ${need} bytes ` +
        `(cut short in the middle of a packet)`,
      at,
    );
  }

  private ensureCarry(size: number): void {
    if (size <= this.carry.length) return;
    let n = this.carry.length;
    while (n < size) n *= 2;
    const next = new Uint8Array(n);
    next.set(this.carry.subarray(0, this.carryLen), 0);
    this.carry = next;
  }

  private u16(b: Uint8Array, o: number): number {
    return this.littleEndian ? b[o] | (b[o + 1] << 8) : (b[o] << 8) | b[o + 1];
  }

  private u32(b: Uint8Array, o: number): number {
    return this.littleEndian
      ? (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0
      : ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
  }

  /**
   * How many bytes the unit (file header, record or block) starting at `pos` needs.
   * With fewer bytes available it returns the size of the part that tells the length.
   * Throws on a length that cannot be valid.
   */
  private measure(b: Uint8Array, pos: number, avail: number, fileOff: number): number {
    if (this.mode === MODE_START) {
      if (avail < 4) return 4;
      const magic = (b[pos] | (b[pos + 1] << 8) | (b[pos + 2] << 16) | (b[pos + 3] << 24)) >>> 0;
      if (magic === SHB_TYPE) return this.measureBlock(b, pos, avail, fileOff);
      if (
        magic === 0xa1b2c3d4 || magic === 0xd4c3b2a1 ||
        magic === 0xa1b23c4d || magic === 0x4d3cb2a1 ||
        magic === 0xa1b2cd34 || magic === 0x34cdb2a1
      ) {
        return 24;
      }
      const shown = ((b[pos] << 24) | (b[pos + 1] << 16) | (b[pos + 2] << 8) | b[pos + 3]) >>> 0;
      throw new PcapFormatError(
        "not-a-capture",
        `not a pcap or pcapng file (magic ${hex32(shown)} at byte 0)`,
        fileOff,
      );
    }
    if (this.mode === MODE_PCAP) {
      const h = this.recordHeaderSize;
      if (avail < h) return h;
      const incl = this.u32(b, pos + 8);
      if (incl > MAX_PACKET_SIZE) {
        throw new PcapFormatError(
          "bad-length",
          `absurd captured length ${incl} at byte ${fileOff + 8} (packet record at byte ${fileOff}; ` +
            `the maximum is ${MAX_PACKET_SIZE})`,
          fileOff,
        );
      }
      return h + incl;
    }
    return this.measureBlock(b, pos, avail, fileOff);
  }

  private measureBlock(b: Uint8Array, pos: number, avail: number, fileOff: number): number {
    if (avail < 8) return 8;
    const type = this.u32(b, pos);
    let len: number;
    if (type === SHB_TYPE || (b[pos] === 0x0a && b[pos + 1] === 0x0d && b[pos + 2] === 0x0d && b[pos + 3] === 0x0a)) {
      if (avail < 12) return 12;
      const bomLE = (b[pos + 8] | (b[pos + 9] << 8) | (b[pos + 10] << 16) | (b[pos + 11] << 24)) >>> 0;
      let le: boolean;
      if (bomLE === BYTE_ORDER_MAGIC) le = true;
      else if (bomLE === 0x4d3c2b1a) le = false;
      else {
        throw new PcapFormatError(
          "bad-format",
          `pcapng section header block at byte ${fileOff} has a bad byte-order magic ${hex32(bomLE)}`,
          fileOff,
        );
      }
      len = le
        ? (b[pos + 4] | (b[pos + 5] << 8) | (b[pos + 6] << 16) | (b[pos + 7] << 24)) >>> 0
        : ((b[pos + 4] << 24) | (b[pos + 5] << 16) | (b[pos + 6] << 8) | b[pos + 7]) >>> 0;
      if (len < 28) {
        throw new PcapFormatError(
          "bad-length",
          `bad pcapng block length ${len} at byte ${fileOff + 4} (section header block at byte ${fileOff} needs at least 28)`,
          fileOff,
        );
      }
    } else {
      len = this.u32(b, pos + 4);
      if (len < 12) {
        throw new PcapFormatError(
          "bad-length",
          `bad pcapng block length ${len} at byte ${fileOff + 4} (block type ${hex32(type)} at byte ${fileOff}; the minimum is 12)`,
          fileOff,
        );
      }
    }
    if (len % 4 !== 0) {
      throw new PcapFormatError(
        "bad-length",
        `bad pcapng block length ${len} at byte ${fileOff + 4} (block at byte ${fileOff}): not a multiple of 4`,
        fileOff,
      );
    }
    if (len > MAX_BLOCK_SIZE) {
      throw new PcapFormatError(
        "bad-length",
        `absurd pcapng block length ${len} at byte ${fileOff + 4} (block at byte ${fileOff}; the maximum is ${MAX_BLOCK_SIZE})`,
        fileOff,
      );
    }
    return len;
  }

  /** Process one complete unit of `len` bytes at b[pos]. */
  private unit(b: Uint8Array, pos: number, len: number, fileOff: number): void {
    if (this.mode === MODE_START) {
      const magic = (b[pos] | (b[pos + 1] << 8) | (b[pos + 2] << 16) | (b[pos + 3] << 24)) >>> 0;
      if (magic === SHB_TYPE) {
        this.mode = MODE_PCAPNG;
        this.format = "pcapng";
        this.block(b, pos, len, fileOff);
        return;
      }
      this.format = "pcap";
      this.mode = MODE_PCAP;
      // magic as read little-endian: a1b2xxxx means the file is little-endian
      this.littleEndian = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d || magic === 0xa1b2cd34;
      this.nanoRes = magic === 0xa1b23c4d || magic === 0x4d3cb2a1;
      // Kuznetzov's "modified" pcap adds 8 bytes (ifindex, protocol, pkt_type) to each record
      this.recordHeaderSize = magic === 0xa1b2cd34 || magic === 0x34cdb2a1 ? 24 : 16;
      const major = this.u16(b, pos + 4);
      if (major !== 2) {
        throw new PcapFormatError("bad-format", `unsupported pcap version ${major}.${this.u16(b, pos + 6)} at byte 4`, 4);
      }
      // the upper bits of the link-type field carry FCS information (LT_LINKTYPE)
      this.pcapLinkType = this.u32(b, pos + 20) & 0x03ffffff;
      this.linkTypes.add(this.pcapLinkType);
      return;
    }
    if (this.mode === MODE_PCAP) {
      this.pcapRecord(b, pos, fileOff);
      return;
    }
    this.block(b, pos, len, fileOff);
  }

  /** Tight loop over classic pcap records fully inside the chunk. Returns the new position. */
  private pcapLoop(b: Uint8Array, pos: number, end: number): number {
    const h = this.recordHeaderSize;
    const sink = this.sink;
    const lt = this.pcapLinkType;
    const nano = this.nanoRes;
    if (this.littleEndian) {
      while (pos + h <= end) {
        const incl = (b[pos + 8] | (b[pos + 9] << 8) | (b[pos + 10] << 16) | (b[pos + 11] << 24)) >>> 0;
        if (incl > MAX_PACKET_SIZE) return pos; // measure() reports it with its offset
        if (pos + h + incl > end) return pos;
        const orig = (b[pos + 12] | (b[pos + 13] << 8) | (b[pos + 14] << 16) | (b[pos + 15] << 24)) >>> 0;
        const sec = (b[pos] | (b[pos + 1] << 8) | (b[pos + 2] << 16) | (b[pos + 3] << 24)) >>> 0;
        const frac = (b[pos + 4] | (b[pos + 5] << 8) | (b[pos + 6] << 16) | (b[pos + 7] << 24)) >>> 0;
        this.packets++;
        sink.packet(b, pos + h, incl, orig, lt, sec, nano ? frac : frac * 1000);
        pos += h + incl;
      }
      return pos;
    }
    while (pos + h <= end) {
      const incl = ((b[pos + 8] << 24) | (b[pos + 9] << 16) | (b[pos + 10] << 8) | b[pos + 11]) >>> 0;
      if (incl > MAX_PACKET_SIZE) return pos;
      if (pos + h + incl > end) return pos;
      const orig = ((b[pos + 12] << 24) | (b[pos + 13] << 16) | (b[pos + 14] << 8) | b[pos + 15]) >>> 0;
      const sec = ((b[pos] << 24) | (b[pos + 1] << 16) | (b[pos + 2] << 8) | b[pos + 3]) >>> 0;
      const frac = ((b[pos + 4] << 24) | (b[pos + 5] << 16) | (b[pos + 6] << 8) | b[pos + 7]) >>> 0;
      this.packets++;
      sink.packet(b, pos + h, incl, orig, lt, sec, nano ? frac : frac * 1000);
      pos += h + incl;
    }
    return pos;
  }

  private pcapRecord(b: Uint8Array, pos: number, _fileOff: number): void {
    const incl = this.u32(b, pos + 8);
    const orig = this.u32(b, pos + 12);
    const sec = this.u32(b, pos);
    const frac = this.u32(b, pos + 4);
    this.packets++;
    this.sink.packet(b, pos + this.recordHeaderSize, incl, orig, this.pcapLinkType, sec, this.nanoRes ? frac : frac * 1000);
  }

  // ---------------------------------------------------------------- pcapng

  private block(b: Uint8Array, pos: number, len: number, fileOff: number): void {
    const isShb = b[pos] === 0x0a && b[pos + 1] === 0x0d && b[pos + 2] === 0x0d && b[pos + 3] === 0x0a;
    if (isShb) {
      this.littleEndian = b[pos + 8] === 0x4d; // 4d 3c 2b 1a on disk = little-endian
      const major = this.u16(b, pos + 12);
      if (major !== 1) {
        throw new PcapFormatError(
          "bad-format",
          `unsupported pcapng version ${major}.${this.u16(b, pos + 14)} in the section header block at byte ${fileOff}`,
          fileOff,
        );
      }
      this.ifaces = [];
      this.sections++;
    }
    const trailing = this.u32(b, pos + len - 4);
    if (trailing !== len) {
      throw new PcapFormatError(
        "bad-length",
        `pcapng block at byte ${fileOff} has mismatched lengths (${len} at its start, ${trailing} at its end)`,
        fileOff,
      );
    }
    if (isShb) return;
    const type = this.u32(b, pos);
    switch (type) {
      case 1:
        this.interfaceBlock(b, pos, len, fileOff);
        return;
      case 6:
        this.enhancedPacket(b, pos, len, fileOff);
        return;
      case 3:
        this.simplePacket(b, pos, len, fileOff);
        return;
      case 2:
        this.obsoletePacket(b, pos, len, fileOff);
        return;
      default:
        return; // name resolution, statistics, decryption secrets, custom...: not needed
    }
  }

  private interfaceBlock(b: Uint8Array, pos: number, len: number, fileOff: number): void {
    if (len < 20) {
      throw new PcapFormatError("bad-length", `pcapng interface description block at byte ${fileOff} is too short (${len} bytes)`, fileOff);
    }
    const linkType = this.u16(b, pos + 8);
    const snapLen = this.u32(b, pos + 12);
    let units = 1e6;
    let unitsBig = 1000000n;
    let offsetSec = 0;
    // options: code(2) length(2) value padded to 4
    let o = pos + 16;
    const end = pos + len - 4;
    while (o + 4 <= end) {
      const code = this.u16(b, o);
      const olen = this.u16(b, o + 2);
      const v = o + 4;
      if (code === 0) break; // opt_endofopt
      if (v + olen > end) break; // malformed option list: ignore the rest, like tshark's lenient reading
      if (code === 9 && olen >= 1) {
        const r = b[v];
        if (r & 0x80) {
          const exp = r & 0x7f;
          unitsBig = 1n << BigInt(exp);
        } else {
          unitsBig = 10n ** BigInt(r);
        }
        units = Number(unitsBig);
      } else if (code === 14 && olen >= 8) {
        const lo = this.u32(b, v + (this.littleEndian ? 0 : 4));
        const hi = this.u32(b, v + (this.littleEndian ? 4 : 0));
        offsetSec = Number(BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)));
      }
      o = v + ((olen + 3) & ~3);
    }
    this.ifaces.push({ linkType, snapLen, units, unitsBig, offsetSec });
    this.linkTypes.add(linkType);
  }

  private iface(id: number, fileOff: number): NgInterface {
    const f = this.ifaces[id];
    if (f === undefined) {
      throw new PcapFormatError(
        "bad-format",
        `pcapng packet block at byte ${fileOff} refers to interface ${id}, but the section has ${this.ifaces.length} interface(s)`,
        fileOff,
      );
    }
    return f;
  }

  private enhancedPacket(b: Uint8Array, pos: number, len: number, fileOff: number): void {
    if (len < 32) {
      throw new PcapFormatError("bad-length", `pcapng enhanced packet block at byte ${fileOff} is too short (${len} bytes)`, fileOff);
    }
    const f = this.iface(this.u32(b, pos + 8), fileOff);
    const high = this.u32(b, pos + 12);
    const low = this.u32(b, pos + 16);
    const cap = this.u32(b, pos + 20);
    const orig = this.u32(b, pos + 24);
    if (cap > len - 32) {
      throw new PcapFormatError(
        "bad-length",
        `absurd captured length ${cap} at byte ${fileOff + 20} (enhanced packet block at byte ${fileOff} holds only ${len - 32} bytes of data)`,
        fileOff,
      );
    }
    if (cap > MAX_PACKET_SIZE) {
      throw new PcapFormatError(
        "bad-length",
        `absurd captured length ${cap} at byte ${fileOff + 20} (the maximum is ${MAX_PACKET_SIZE})`,
        fileOff,
      );
    }
    this.deliver(b, pos + 28, cap, orig, f, high, low);
  }

  private obsoletePacket(b: Uint8Array, pos: number, len: number, fileOff: number): void {
    if (len < 32) {
      throw new PcapFormatError("bad-length", `pcapng packet block at byte ${fileOff} is too short (${len} bytes)`, fileOff);
    }
    const f = this.iface(this.u16(b, pos + 8), fileOff);
    const high = this.u32(b, pos + 12);
    const low = this.u32(b, pos + 16);
    const cap = this.u32(b, pos + 20);
    const orig = this.u32(b, pos + 24);
    if (cap > len - 32 || cap > MAX_PACKET_SIZE) {
      throw new PcapFormatError(
        "bad-length",
        `absurd captured length ${cap} at byte ${fileOff + 20} (packet block at byte ${fileOff} holds ${len - 32} bytes of data)`,
        fileOff,
      );
    }
    this.deliver(b, pos + 28, cap, orig, f, high, low);
  }

  private simplePacket(b: Uint8Array, pos: number, len: number, fileOff: number): void {
    if (len < 16) {
      throw new PcapFormatError("bad-length", `pcapng simple packet block at byte ${fileOff} is too short (${len} bytes)`, fileOff);
    }
    const f = this.iface(0, fileOff);
    const orig = this.u32(b, pos + 8);
    // a simple packet block has no captured-length field: the original length, cut to
    // the interface's snap length
    let cap = orig;
    if (f.snapLen > 0 && cap > f.snapLen) cap = f.snapLen;
    if (cap > len - 16 || cap > MAX_PACKET_SIZE) {
      throw new PcapFormatError(
        "bad-length",
        `pcapng simple packet block at byte ${fileOff} is too short (${len} bytes) for its ${orig}-byte packet`,
        fileOff,
      );
    }
    this.packets++;
    // no timestamp in a simple packet block: time 0 for the TCP analysis, and no time
    // for the capture's first/last time (tshark prints no frame.time_epoch)
    this.sink.packet(b, pos + 12, cap, orig, f.linkType, 0, 0, false);
  }

  private deliver(b: Uint8Array, dataOff: number, cap: number, orig: number, f: NgInterface, high: number, low: number): void {
    let sec: number;
    let nsec: number;
    const units = f.units;
    if (units === 1e6 && high < 0x200000) {
      // microseconds (the default) that fit in 2^53: plain arithmetic is exact
      const ts = high * 4294967296 + low;
      sec = Math.floor(ts / 1e6);
      nsec = (ts - sec * 1e6) * 1000;
    } else if (units <= 1e9 && (units === 1e9 || 1e9 % units === 0)) {
      // 10^-k resolution, k <= 9: exact long division on 16-bit limbs (all partial values < 2^53)
      let q = 0;
      let r = 0;
      const limbs = [high >>> 16, high & 0xffff, low >>> 16, low & 0xffff];
      for (let i = 0; i < 4; i++) {
        const cur = r * 65536 + limbs[i];
        const d = Math.floor(cur / units);
        r = cur - d * units;
        q = q * 65536 + d;
      }
      if (q > Number.MAX_SAFE_INTEGER) {
        const t = this.bigSplit(high, low, f);
        sec = t[0];
        nsec = t[1];
      } else {
        sec = q;
        nsec = r * (1e9 / units);
      }
    } else {
      const t = this.bigSplit(high, low, f);
      sec = t[0];
      nsec = t[1];
    }
    if (f.offsetSec !== 0) sec += f.offsetSec;
    this.packets++;
    this.sink.packet(b, dataOff, cap, orig, f.linkType, sec, nsec);
  }

  /** Exact split of a 64-bit tick count, as wiretap does it (unsigned 64-bit arithmetic). */
  private bigSplit(high: number, low: number, f: NgInterface): [number, number] {
    const ts = (BigInt(high) << 32n) | BigInt(low);
    const u = f.unitsBig;
    const sec = ts / u;
    const nsec = BigInt.asUintN(64, (ts % u) * 1000000000n) / u;
    return [Number(sec), Number(nsec)];
  }
}
