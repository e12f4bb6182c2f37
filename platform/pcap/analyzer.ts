/**
 * The capture analysis: reads a pcap/pcapng stream, attributes every packet (decode.ts),
 * keeps the conversation table (conversations.ts) and the TCP analysis
 * (tcp-analysis.ts), and produces the oracle-shaped figures (types.ts).
 */
import { closeSync, createReadStream, openSync, readSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { createHash, type Hash } from "node:crypto";
import { appNameForPorts, httpHost, tlsServerName } from "./app-id.ts";
import { ConversationTable, FLAG_COUNT } from "./conversations.ts";
import { Decoded, KIND_ICMP_QUOTED, KIND_TCP, KIND_UDP, TH_SYN, type DecodeAs, type EncapsulationName } from "./decode.ts";
import { isPcapFormatError } from "./errors.ts";
import { timeDiffString, timeToString } from "./format.ts";
import { INLINE_HASH_LIMIT, startBackgroundRead, type BackgroundRead } from "./hash.ts";
import { CaptureReader, type PacketSink } from "./reader.ts";
import { RttBudget, RttSamples } from "./rtt.ts";
import { MirrorSessions } from "./sessions.ts";
import { F_RETRANSMISSION, FLAG_NAMES, TcpAnalyzer } from "./tcp-analysis.ts";
import type { AnalysisResult, ConversationFigures, DirectionFigures, FlagCounts } from "./types.ts";

export const ANALYZER_VERSION = "linkwise-pcap 1.0.0";

/** Read size: large chunks keep the per-chunk overhead negligible. */
export const CHUNK_SIZE = 1024 * 1024;

export interface AnalyzeOptions {
  /**
   * Throw on any format problem. By default a problem met after at least one packet
   * was read gives a partial result with a warning and exit_code 2, as tshark does
   * (e.g. a file cut short in the middle of a packet); a file that yields no packet at
   * all always throws PcapFormatError.
   */
  strict?: boolean;
  /** compute file_sha256 (analyzeFile only; done on another thread). Default true. */
  sha256?: boolean;
  /**
   * UDP destination ports that carry VXLAN or GENEVE besides the standard 4789 and 6081
   * (a mirror configured on another port), as tshark's `-d udp.port==N,vxlan`.
   */
  decodeAs?: readonly DecodeAs[];
}

/** How many data segments per direction are inspected for a TLS SNI / HTTP Host. */
const APP_ID_SEGMENTS = 2;

/** Receives packets from the reader and keeps all the figures. */
export class FlowAnalyzer implements PacketSink {
  packets = 0;
  bytes = 0;
  capturedBytes = 0;
  tcpPackets = 0;
  udpPackets = 0;
  otherPackets = 0;
  icmpQuotedPackets = 0;
  private minS = Infinity;
  private minNs = 0;
  private maxS = -Infinity;
  private maxNs = 0;

  private readonly decoded: Decoded;
  readonly table = new ConversationTable();
  readonly sessions = new MirrorSessions();
  private readonly tcp = new TcpAnalyzer();
  private readonly rttBudget = new RttBudget();
  private rtts: (RttSamples | undefined)[] = [];
  private serverNames: (string | null)[] = [];
  private appTries = new Uint8Array(0);

  constructor(decodeAs: readonly DecodeAs[] = []) {
    this.decoded = new Decoded(decodeAs);
  }

  packet(b: Uint8Array, off: number, cap: number, orig: number, linkType: number, s: number, ns: number, hasTime = true): void {
    this.packets++;
    this.bytes += orig;
    this.capturedBytes += cap;
    if (hasTime) {
      if (s < this.minS || (s === this.minS && ns < this.minNs)) {
        this.minS = s;
        this.minNs = ns;
      }
      if (s > this.maxS || (s === this.maxS && ns > this.maxNs)) {
        this.maxS = s;
        this.maxNs = ns;
      }
    }
    const dec = this.decoded;
    const kind = dec.decode(b, off, cap, orig, linkType);
    const session = dec.encap === 0 ? 0 : this.sessions.of(dec);
    if (kind === KIND_TCP || kind === KIND_UDP) {
      const t = this.table;
      const c = t.lookup(dec, kind === KIND_TCP ? 6 : 17, true, session);
      if (t.created) this.grow(c);
      const d = t.direction;
      const i = c * 2 + d;
      t.packets[i]++;
      t.bytes[i] += orig;
      if (hasTime) {
        const startS = t.startS;
        const endS = t.endS;
        if (s < startS[c] || (s === startS[c] && ns < t.startNs[c])) {
          startS[c] = s;
          t.startNs[c] = ns;
        }
        if (s > endS[c] || (s === endS[c] && ns > t.endNs[c])) {
          endS[c] = s;
          t.endNs[c] = ns;
        }
      }
      if (kind === KIND_TCP) {
        this.tcpPackets++;
        const seglen = dec.seglen;
        if (seglen > 0) {
          t.payload[i] += seglen;
          t.dataPackets[i]++;
        }
        if (dec.tcpHeader) {
          if (dec.flags & TH_SYN) t.noteSyn(c, d, dec.flags);
          const tcp = this.tcp;
          let fl = tcp.packet(c, d, dec.seq, dec.ack, dec.flags, dec.window, seglen, dec.hlen, s, ns);
          if (!dec.tcpHeaderComplete) {
            fl = 0; // analysed, but tshark shows nothing for a header cut short
            tcp.hasRtt = false;
          }
          if (fl !== 0) {
            const base = i * FLAG_COUNT;
            for (let k = 0; k < FLAG_COUNT; k++) if (fl & (1 << k)) t.flags[base + k]++;
            if (fl & F_RETRANSMISSION && seglen > 0) t.retransmittedBytes[i] += seglen;
          }
          if (tcp.hasRtt) {
            let r = this.rtts[c];
            if (r === undefined) r = this.rtts[c] = new RttSamples(this.rttBudget);
            r.add(tcp.rttNs);
          }
          if (seglen > 0 && dec.payloadCap > 0 && this.appTries[i] < APP_ID_SEGMENTS && this.serverNames[c] === null) {
            this.appTries[i]++;
            this.serverNames[c] =
              tlsServerName(b, dec.payloadOff, dec.payloadCap) ?? httpHost(b, dec.payloadOff, dec.payloadCap);
          }
        }
      } else {
        this.udpPackets++;
        if (dec.udpLength > 8) t.payload[i] += dec.udpLength - 8;
      }
    } else {
      this.otherPackets++;
      if (kind === KIND_ICMP_QUOTED) {
        this.icmpQuotedPackets++;
        // tshark still runs the SYN checks of dissect_tcp() on a quoted TCP header
        if (dec.tcpHeader) {
          const c = this.table.lookup(dec, 6, false, session);
          if (c >= 0) this.tcp.quoted(c, this.table.direction, dec.seq, dec.flags, dec.hlen, s, ns);
        }
      }
    }
  }

  private grow(c: number): void {
    this.tcp.ensure(this.table.capacity);
    this.rtts[c] = undefined;
    this.serverNames[c] = null;
    if (this.appTries.length < this.table.capacity * 2) {
      const n = new Uint8Array(this.table.capacity * 2);
      n.set(this.appTries);
      this.appTries = n;
    }
  }

  /** The figures so far, shaped like the oracle's JSON. */
  result(file: { name: string | null; sha256: string | null; size: number }, warnings: string[], format: AnalysisResult["format"], linkTypes: number[]): AnalysisResult {
    const t = this.table;
    const conversations: ConversationFigures[] = [];
    const totals = emptyFlags();
    let tcpConvs = 0;
    let udpConvs = 0;
    for (let c = 0; c < t.count; c++) {
      const isTcp = t.proto[c] === 6;
      const proto = isTcp ? "tcp" : "udp";
      const a = t.a[c];
      const b = t.b[c];
      const dir = (d: number): DirectionFigures => {
        const i = c * 2 + d;
        const out: DirectionFigures = { packets: t.packets[i], bytes: t.bytes[i], payload_bytes: t.payload[i] };
        if (isTcp) {
          const f = emptyFlags();
          for (let k = 0; k < FLAG_COUNT; k++) f[FLAG_NAMES[k]] = t.flags[i * FLAG_COUNT + k];
          out.analysis = f;
          out.data_packets = t.dataPackets[i];
          out.retransmitted_payload_bytes = t.retransmittedBytes[i];
        }
        return out;
      };
      const ab = dir(0);
      const ba = dir(1);
      // (a conversation seen only in packets without timestamps has no times)
      const timed = Number.isFinite(t.startS[c]);
      const startStr = timed ? timeToString(t.startS[c], t.startNs[c]) : null;
      const endStr = timed ? timeToString(t.endS[c], t.endNs[c]) : null;
      const firstSrc = t.firstSrcIsA[c] ? a : b;
      // The client by the SYN, else by the ports (a capture may start mid-connection).
      const side = t.client(c);
      const [server, client] = side.clientIsA ? [b, a] : [a, b];
      const sn = t.session(c);
      const session = sn === 0 ? null : this.sessions.list[sn - 1].name;
      const conv: ConversationFigures = {
        // an encapsulated conversation is named with its mirror session
        key: session === null ? `${proto} ${a} ${b}` : `${proto} ${a} ${b} ${session}`,
        proto,
        a,
        b,
        first_src: firstSrc,
        client,
        client_chosen_by: side.by,
        packets: ab.packets + ba.packets,
        bytes: ab.bytes + ba.bytes,
        start_time: startStr === null ? null : parseFloat(startStr),
        end_time: endStr === null ? null : parseFloat(endStr),
        duration: timed ? parseFloat(timeDiffString(t.startS[c], t.startNs[c], t.endS[c], t.endNs[c])) : null,
        start_time_str: startStr,
        end_time_str: endStr,
        a_to_b: ab,
        b_to_a: ba,
        app_name: appNameForPorts(proto, portOf(server), portOf(client)),
        server_name: this.serverNames[c] ?? null,
      };
      if (session !== null) conv.session = session;
      if (isTcp) {
        tcpConvs++;
        const f = emptyFlags();
        for (const k of FLAG_NAMES) {
          f[k] = ab.analysis![k] + ba.analysis![k];
          totals[k] += f[k];
        }
        conv.analysis = f;
        const r = this.rtts[c];
        if (r === undefined || r.count === 0) conv.ack_rtt = { samples: 0, median: null, max: null };
        else {
          conv.ack_rtt = { samples: r.count, median: r.medianNs()! / 1e9, max: r.maxNs / 1e9 };
          if (r.approximate) conv.ack_rtt.approximate = true;
        }
      } else udpConvs++;
      conversations.push(conv);
    }
    conversations.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    const have = this.packets > 0 && Number.isFinite(this.minS);
    const firstStr = have ? timeToString(this.minS, this.minNs) : null;
    const lastStr = have ? timeToString(this.maxS, this.maxNs) : null;
    const durStr = have ? timeDiffString(this.minS, this.minNs, this.maxS, this.maxNs) : null;
    return {
      oracle_version: 1,
      analyzer_version: ANALYZER_VERSION,
      file: file.name,
      file_sha256: file.sha256,
      file_size: file.size,
      exit_code: warnings.length > 0 ? 2 : 0,
      warnings,
      packets: this.packets,
      bytes: this.bytes,
      captured_bytes: this.capturedBytes,
      first_time: firstStr === null ? null : parseFloat(firstStr),
      last_time: lastStr === null ? null : parseFloat(lastStr),
      duration: durStr === null ? null : parseFloat(durStr),
      first_time_str: firstStr,
      last_time_str: lastStr,
      duration_str: durStr,
      tcp_packets: this.tcpPackets,
      udp_packets: this.udpPackets,
      other_packets: this.otherPackets,
      icmp_quoted_packets: this.icmpQuotedPackets,
      tcp_conversations: tcpConvs,
      udp_conversations: udpConvs,
      analysis_totals: totals,
      conversations,
      format,
      link_types: linkTypes,
      encapsulation: this.encapsulation(),
    };
  }

  private encapsulation(): AnalysisResult["encapsulation"] {
    const list = this.sessions.list;
    if (list.length === 0) return null;
    const kinds = [...new Set(list.map((x) => x.encapsulation))].sort() as EncapsulationName[];
    return { encapsulations: kinds, sessions: list.map((x) => ({ ...x })) };
  }
}

function emptyFlags(): FlagCounts {
  return {
    retransmission: 0,
    fast_retransmission: 0,
    spurious_retransmission: 0,
    duplicate_ack: 0,
    out_of_order: 0,
    lost_segment: 0,
    zero_window: 0,
  };
}

function portOf(endpoint: string): number {
  return Number(endpoint.slice(endpoint.lastIndexOf(":") + 1));
}

/** A capture read so far: reader + analyzer, plus the tshark-like handling of errors. */
class Session {
  readonly analyzer: FlowAnalyzer;
  readonly reader: CaptureReader;
  readonly warnings: string[] = [];
  private stopped = false;

  constructor(private readonly opts: AnalyzeOptions) {
    this.analyzer = new FlowAnalyzer(opts.decodeAs);
    this.reader = new CaptureReader(this.analyzer);
  }

  /** false once reading must stop (an error turned into a warning) */
  push(chunk: Uint8Array): boolean {
    if (this.stopped) return false;
    try {
      this.reader.push(chunk);
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    }
  }

  finish(): void {
    if (this.stopped) return;
    try {
      this.reader.finish();
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    // like tshark: the packets read before the damage are still summarised
    if (!this.opts.strict && isPcapFormatError(e) && this.reader.packets > 0) {
      this.warnings.push(e.message);
      this.stopped = true;
      return;
    }
    throw e;
  }

  result(name: string | null, sha256: string | null, size: number): AnalysisResult {
    return this.analyzer.result({ name, sha256, size }, this.warnings, this.reader.format, [...this.reader.linkTypes]);
  }
}

/** Analyse a capture held in memory (tests, small uploads). */
export function analyzeBuffer(data: Uint8Array, opts: AnalyzeOptions = {}, name: string | null = null): AnalysisResult {
  const s = new Session(opts);
  // feed in chunks like a stream would, so both paths are the same code
  for (let p = 0; p < data.length; p += CHUNK_SIZE) {
    if (!s.push(data.subarray(p, Math.min(data.length, p + CHUNK_SIZE)))) break;
  }
  s.finish();
  return s.result(name, null, data.length);
}

/** Analyse a capture from a stream of chunks (e.g. fs.createReadStream). */
export async function analyzeStream(
  stream: AsyncIterable<Uint8Array>,
  opts: AnalyzeOptions = {},
  file: { name?: string | null; sha256?: string | null; size?: number } = {},
): Promise<AnalysisResult> {
  const s = new Session(opts);
  let size = 0;
  let reading = true;
  for await (const chunk of stream) {
    size += chunk.length;
    // after damage the rest is only counted (and hashed by the caller), not parsed
    if (reading) reading = s.push(chunk);
  }
  s.finish();
  return s.result(file.name ?? null, file.sha256 ?? null, file.size ?? size);
}

/**
 * Read a file in chunks into one reused buffer, with synchronous reads on the calling
 * thread: no allocation per chunk and no hand-off to libuv's thread pool (on a busy
 * machine every hand-off waits for a scheduler slot, which cost more than the reading
 * itself). The event loop still gets a turn every few chunks. A chunk is only valid
 * until the next one is requested -- fine for analyzeStream(), which copies the few
 * bytes it keeps. Meant for the analysis worker thread (queue.ts) and the CLI.
 */
export async function* fileChunks(path: string, chunkSize = CHUNK_SIZE): AsyncGenerator<Uint8Array> {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(chunkSize);
    for (let n = 1; ; n++) {
      const got = readSync(fd, buf, 0, chunkSize, null);
      if (got === 0) return;
      yield buf.subarray(0, got);
      if (n % 16 === 0) await new Promise<void>((r) => setImmediate(r));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Analyse a capture file. The file is streamed in fixed-size chunks, never held in
 * memory. `opts.source: "stream"` reads through fs.createReadStream instead (same
 * result, a little slower: one new buffer per chunk).
 */
export async function analyzeFile(
  path: string,
  opts: AnalyzeOptions & { source?: "chunks" | "stream"; backgroundRead?: BackgroundRead } = {},
): Promise<AnalysisResult> {
  try {
    return await analyzeFileWith(path, opts);
  } catch (e) {
    opts.backgroundRead?.cancel(); // (a no-op when it has finished)
    throw e;
  }
}

async function analyzeFileWith(path: string, opts: AnalyzeOptions & { source?: "chunks" | "stream"; backgroundRead?: BackgroundRead }): Promise<AnalysisResult> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${path} is not a regular file`);
  const wantHash = opts.sha256 !== false;
  // a big file is read once, on another thread that hashes it while this one parses the
  // same bytes (hash.ts); for small ones the thread would cost more than the hashing.
  // `backgroundRead`: one the caller started already (the CLI, before loading this module).
  let background = opts.backgroundRead ?? null;
  if (!background && wantHash && info.size > INLINE_HASH_LIMIT && opts.source !== "stream") background = startBackgroundRead(path);
  const inline = wantHash && !background ? createHash("sha256") : null;
  const raw = background ? background.chunks() : opts.source === "stream" ? createReadStream(path, { highWaterMark: CHUNK_SIZE }) : fileChunks(path);
  const source = inline ? hashing(raw, inline) : raw;
  const result = await analyzeStream(source, opts, { name: basename(path), size: info.size });
  result.file_sha256 = background ? await background.sha256 : inline ? inline.digest("hex") : null;
  return result;
}

async function* hashing(source: AsyncIterable<Uint8Array>, h: Hash): AsyncGenerator<Uint8Array> {
  for await (const chunk of source) {
    h.update(chunk);
    yield chunk;
  }
}

