/**
 * Random capture generator for differential testing against tshark (dev tool, not a
 * test: it needs tshark). It simulates TCP connections with impairments (loss before
 * the capture point, duplicates, reordering, dup ACKs, fast retransmissions, zero
 * windows, keep-alives, probes, SYN retransmission, port reuse, RST/FIN, clock steps)
 * plus UDP, ICMP errors, fragments and several encapsulations.
 *
 *   npx tsx platform/pcap/dev/fuzz-captures.ts OUT_DIR COUNT [SEED]
 *   (then: for f in OUT_DIR/captures/*; do oracle.sh $f > OUT_DIR/expected/NAME.json; done)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import {
  ACK, concat, ether, FIN, gre, icmpError, ipv4, ipv6, nullLoop, pcapFile, pcapngFile, PSH, RST, sll, sll2, SYN,
  tcp, tlsClientHello, bytesOf, udp, type Bytes, type NgBlock,
} from "../test-utils/capture-writer.ts";

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Frame {
  /** microseconds since the epoch */
  t: number;
  /** IP datagram (or full frame when `raw` is set) */
  ip: Bytes;
  v6: boolean;
  raw?: boolean;
  capLen?: number;
}

export function generate(seed: number): { name: string; data: Bytes } {
  const rnd = mulberry32(seed);
  const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
  const chance = (p: number) => rnd() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

  let now = 1_600_000_000_000_000 + int(0, 1e9);
  const frames: Frame[] = [];
  const step = () => {
    const r = rnd();
    let dt: number;
    if (r < 0.2) dt = 0;
    else if (r < 0.35) dt = int(1, 50);
    else if (r < 0.55) dt = int(100, 2900);
    else if (r < 0.7) dt = int(3000, 19000);
    else if (r < 0.8) dt = int(19000, 30000);
    else if (r < 0.93) dt = int(30000, 300000);
    else if (r < 0.985) dt = int(300000, 3000000);
    else dt = -int(1, 5000); // the clock steps back
    now += dt;
  };

  const v6 = chance(0.3);
  const addr = (i: number) => (v6 ? `2001:db8::${i.toString(16)}` : `10.0.${i >> 8}.${i & 255}`);
  const nConns = int(1, 4);
  const conns: (() => boolean)[] = [];

  for (let ci = 0; ci < nConns; ci++) {
    const cAddr = addr(int(1, 3));
    const sAddr = addr(int(4, 6));
    const cPort = chance(0.2) ? 40000 : int(1024, 65535);
    const sPort = pick([80, 443, 22, 8080, 40000]);
    const mk = (fromClient: boolean, seq: number, ack: number, flags: number, win: number, payload: Bytes) => {
      const seg = tcp({
        sport: fromClient ? cPort : sPort,
        dport: fromClient ? sPort : cPort,
        seq: seq >>> 0,
        ack: ack >>> 0,
        flags,
        window: win,
        payload,
      });
      const src = fromClient ? cAddr : sAddr;
      const dst = fromClient ? sAddr : cAddr;
      return v6 ? ipv6({ src, dst, next: 6, payload: seg }) : ipv4({ src, dst, proto: 6, payload: seg });
    };
    // one side's sending state
    const side = () => ({
      isn: chance(0.1) ? 0xffffff00 + int(0, 255) : int(0, 0xffffffff),
      nxt: 0, // next new byte to send (relative)
      rcvNxt: 0, // next byte expected from the peer (relative)
      got: new Set<number>(), // out-of-order received segment starts
      gotLen: new Map<number, number>(),
      win: pick([65535, 29200, 8192]),
      history: [] as { seq: number; len: number }[],
      finSent: false,
    });
    let c = side();
    let s = side();
    let phase = chance(0.85) ? 0 : 2; // 0: handshake, 2: established (capture started mid-stream)
    let steps = int(5, 120);
    let zeroWin = false;
    const emit = (fromClient: boolean, relSeq: number, flags: number, payload: Bytes, winOverride?: number) => {
      const me = fromClient ? c : s;
      const peer = fromClient ? s : c;
      const ackv = flags & ACK ? peer.isn + 1 + me.rcvNxt : chance(0.5) ? 0 : int(0, 0xffffffff);
      const win = winOverride ?? (zeroWin && !fromClient && chance(0.5) ? 0 : me.win);
      frames.push({ t: now, ip: mk(fromClient, me.isn + 1 + relSeq + (flags & SYN ? -1 : 0), ackv, flags, win, payload), v6 });
    };
    const deliver = (toClient: boolean, relSeq: number, len: number) => {
      const r = toClient ? c : s;
      if (relSeq === r.rcvNxt) {
        r.rcvNxt += len;
        while (r.gotLen.has(r.rcvNxt)) {
          const l = r.gotLen.get(r.rcvNxt)!;
          r.gotLen.delete(r.rcvNxt);
          r.rcvNxt += l;
        }
      } else if (relSeq > r.rcvNxt) r.gotLen.set(relSeq, len);
    };
    conns.push(() => {
      if (steps-- <= 0) return false;
      if (phase === 0) {
        emit(true, 0, SYN, new Uint8Array(0), 64240);
        if (chance(0.15)) {
          step();
          emit(true, 0, SYN, new Uint8Array(0), 64240); // SYN retransmission
        }
        phase = 1;
        return true;
      }
      if (phase === 1) {
        emit(false, 0, SYN | ACK, new Uint8Array(0), 65160);
        if (chance(0.1)) {
          step();
          emit(false, 0, SYN | ACK, new Uint8Array(0), 65160);
        }
        step();
        emit(true, 0, ACK, new Uint8Array(0));
        phase = 2;
        return true;
      }
      const fromClient = chance(0.55);
      const me = fromClient ? c : s;
      const r = rnd();
      const dataLen = () => pick([1, 2, 10, 100, 536, 1000, 1448, 1460, int(1, 1460)]);
      if (r < 0.38) {
        // new data, maybe lost before the capture point
        const len = dataLen();
        const seq = me.nxt;
        me.nxt += len;
        me.history.push({ seq, len });
        if (chance(0.08)) {
          deliver(!fromClient, seq, len); // lost for the capture, delivered anyway
          return true;
        }
        let payload: Bytes = new Uint8Array(len);
        if (seq === 0 && fromClient && sPort === 443 && len >= 60) payload = tlsClientHello("fuzz.example");
        if (seq === 0 && fromClient && sPort === 80) payload = bytesOf("GET / HTTP/1.1\r\nHost: fuzz.example\r\n\r\n");
        emit(fromClient, seq, ACK | (chance(0.3) ? PSH : 0), payload.subarray(0, len).length === len ? payload.subarray(0, len) : new Uint8Array(len));
        if (chance(0.85)) deliver(!fromClient, seq, len);
      } else if (r < 0.55) {
        emit(fromClient, me.nxt, ACK, new Uint8Array(0));
      } else if (r < 0.63) {
        // burst of duplicate ACKs then maybe a fast retransmission from the peer
        const n = int(1, 4);
        for (let i = 0; i < n; i++) {
          emit(fromClient, me.nxt, ACK, new Uint8Array(0));
          if (chance(0.5)) step();
        }
        const peer = fromClient ? s : c;
        const h = peer.history.find((x) => x.seq === me.rcvNxt);
        if (h && chance(0.7)) {
          if (chance(0.5)) now += int(0, 15000);
          else step();
          emit(!fromClient, h.seq, ACK, new Uint8Array(h.len));
          deliver(fromClient, h.seq, h.len);
        }
      } else if (r < 0.71) {
        // retransmit something old (maybe already acked: spurious)
        if (me.history.length) {
          const h = pick(me.history);
          emit(fromClient, h.seq, ACK, new Uint8Array(h.len));
          deliver(!fromClient, h.seq, h.len);
        }
      } else if (r < 0.77) {
        // reordering: two new segments sent swapped
        const l1 = dataLen();
        const l2 = dataLen();
        const s1 = me.nxt;
        const s2 = me.nxt + l1;
        me.nxt += l1 + l2;
        me.history.push({ seq: s1, len: l1 }, { seq: s2, len: l2 });
        emit(fromClient, s2, ACK, new Uint8Array(l2));
        if (chance(0.7)) now += int(0, 2500);
        else step();
        emit(fromClient, s1, ACK, new Uint8Array(l1));
        deliver(!fromClient, s1, l1);
        deliver(!fromClient, s2, l2);
      } else if (r < 0.81) {
        // zero window, then maybe a window update
        emit(fromClient, me.nxt, ACK, new Uint8Array(0), 0);
        zeroWin = chance(0.5);
        if (chance(0.5)) {
          step();
          emit(fromClient, me.nxt, ACK, new Uint8Array(0), me.win);
        }
      } else if (r < 0.85) {
        // keep-alive (0 or 1 byte at nxt - 1), maybe answered
        emit(fromClient, me.nxt - 1, ACK, new Uint8Array(chance(0.5) ? 1 : 0));
        if (chance(0.6)) {
          step();
          emit(!fromClient, (fromClient ? s : c).nxt, ACK, new Uint8Array(0));
        }
      } else if (r < 0.88) {
        // zero window probe: one byte at nxt
        emit(fromClient, me.nxt, ACK, new Uint8Array(1));
        if (chance(0.5)) {
          me.nxt += 1;
          deliver(!fromClient, me.nxt - 1, 1);
        }
      } else if (r < 0.9) {
        // window change on a pure ACK
        me.win = pick([65535, 29200, 8192, 1024]);
        emit(fromClient, me.nxt, ACK, new Uint8Array(0));
      } else if (r < 0.93) {
        if (!me.finSent) {
          emit(fromClient, me.nxt, FIN | ACK, new Uint8Array(0));
          me.finSent = true;
          me.nxt += 1;
          deliver(!fromClient, me.nxt - 1, 1);
        } else emit(fromClient, me.nxt - 1, FIN | ACK, new Uint8Array(0)); // FIN retransmission
      } else if (r < 0.95) {
        emit(fromClient, me.nxt, RST | (chance(0.5) ? ACK : 0), new Uint8Array(0));
      } else if (r < 0.97) {
        // port reuse: a new connection with other ISNs on the same ports
        c = side();
        s = side();
        phase = 0;
        zeroWin = false;
      } else {
        // data that starts before what was acked and runs past it (partial overlap)
        if (me.history.length) {
          const h = me.history[me.history.length - 1];
          const len = h.len + dataLen();
          emit(fromClient, h.seq, ACK, new Uint8Array(len));
          me.nxt = Math.max(me.nxt, h.seq + len);
          deliver(!fromClient, h.seq, len);
        }
      }
      return true;
    });
  }

  // interleave connections, plus some UDP and ICMP traffic
  let alive = conns.slice();
  while (alive.length) {
    step();
    const i = Math.floor(rnd() * alive.length);
    if (!alive[i]()) alive = alive.filter((_, j) => j !== i);
    if (chance(0.05)) {
      const q = udp(int(1024, 65535), pick([53, 123, 443]), new Uint8Array(int(0, 300)));
      const src = addr(int(1, 3));
      const dst = addr(int(4, 6));
      frames.push({ t: now, ip: v6 ? ipv6({ src, dst, next: 17, payload: q }) : ipv4({ src, dst, proto: 17, payload: q }), v6 });
    }
    if (chance(0.02) && frames.length) {
      // ICMP error quoting a recent datagram (maybe a TCP SYN)
      const quotedFrame = pick(frames.slice(-10));
      if (!quotedFrame.raw && quotedFrame.v6 === v6) {
        const quoted = quotedFrame.ip.subarray(0, chance(0.5) ? 28 : Math.min(quotedFrame.ip.length, 200));
        const src = addr(int(7, 9));
        const dst = addr(int(1, 3));
        const icmp = icmpError(v6 ? 1 : 3, v6 ? 4 : 3, quoted);
        frames.push({
          t: now,
          ip: v6 ? ipv6({ src, dst, next: 58, payload: icmp }) : ipv4({ src, dst, proto: 1, payload: icmp }),
          v6,
        });
      }
    }
    if (chance(0.01) && !v6) {
      // a fragmented UDP datagram: first fragment carries the header, the second does not
      const body = udp(5353, 53, new Uint8Array(1600));
      frames.push({ t: now, ip: ipv4({ src: "10.0.9.1", dst: "10.0.9.2", proto: 17, payload: body.subarray(0, 1480), moreFragments: true, id: 77, totalLength: 1500 }), v6 });
      frames.push({ t: now + 5, ip: ipv4({ src: "10.0.9.1", dst: "10.0.9.2", proto: 17, payload: body.subarray(1480), fragOffset: 1480, id: 77 }), v6 });
    }
  }

  // encapsulation and file format
  const link = pick(["eth", "eth", "eth-vlan", "sll", "sll2", "raw", "null", "gre", "ipip"]);
  const wrap = (f: Frame): { data: Bytes; linkType: number } => {
    const type = f.v6 ? 0x86dd : 0x0800;
    switch (link) {
      case "eth-vlan":
        return { data: ether(type, f.ip, chance(0.5) ? [{ tpid: 0x8100, id: 42 }] : [{ tpid: 0x88a8, id: 10 }, { tpid: 0x8100, id: 20 }]), linkType: 1 };
      case "sll":
        return { data: sll(type, f.ip), linkType: 113 };
      case "sll2":
        return { data: sll2(type, f.ip), linkType: 276 };
      case "raw":
        return { data: f.ip, linkType: 101 };
      case "null":
        return { data: nullLoop(f.v6 ? 30 : 2, f.ip), linkType: 0 };
      case "gre":
        return { data: ether(0x0800, ipv4({ src: "192.0.2.1", dst: "192.0.2.2", proto: 47, payload: gre(type, f.ip, { key: 5 }) })), linkType: 1 };
      case "ipip":
        return { data: ether(0x0800, ipv4({ src: "192.0.2.1", dst: "192.0.2.2", proto: f.v6 ? 41 : 4, payload: f.ip })), linkType: 1 };
      default:
        return { data: ether(type, f.ip), linkType: 1 };
    }
  };
  const snap = chance(0.2) ? int(40, 200) : 0;
  const asNg = chance(0.35);
  const name = `fuzz-${seed}-${link}${asNg ? "-ng" : ""}`;
  if (!asNg) {
    const nano = chance(0.3);
    const be = chance(0.3);
    let lt = 1;
    const pkts = frames.map((f) => {
      const w = wrap(f);
      lt = w.linkType;
      const sec = Math.floor(f.t / 1e6);
      const us = f.t - sec * 1e6;
      return { sec, frac: nano ? us * 1000 + int(0, 999) : us, data: w.data, capLen: snap ? snap : undefined };
    });
    return { name, data: pcapFile(pkts, { linkType: lt, nano, bigEndian: be, snapLen: snap || 262144 }) };
  }
  // pcapng: two interfaces with different resolutions
  const lt = wrap(frames[0]).linkType;
  const blocks: NgBlock[] = frames.map((f) => {
    const iface = chance(0.5) ? 1 : 0;
    const ts = iface === 0 ? BigInt(f.t) : BigInt(f.t) * 1000n + BigInt(int(0, 999));
    return { type: "epb", iface, ts, data: wrap(f).data, capLen: snap ? snap : undefined };
  });
  return {
    name,
    data: pcapngFile([{ bigEndian: chance(0.3), interfaces: [{ linkType: lt, tsresol: 6 }, { linkType: lt, tsresol: 9 }], blocks }]),
  };
}

if (process.argv[1]?.endsWith("fuzz-captures.ts")) {
  const out = process.argv[2];
  const count = Number(process.argv[3] ?? 20);
  const seed0 = Number(process.argv[4] ?? 1);
  mkdirSync(`${out}/captures`, { recursive: true });
  mkdirSync(`${out}/expected`, { recursive: true });
  for (let i = 0; i < count; i++) {
    const g = generate(seed0 + i);
    const ext = g.name.endsWith("-ng") ? "pcapng" : "pcap";
    writeFileSync(`${out}/captures/${g.name}.${ext}`, g.data);
  }
  void concat;
}
