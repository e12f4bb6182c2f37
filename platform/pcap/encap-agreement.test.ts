/**
 * Agreement with tshark on captures of mirrored cloud traffic (tests/fixtures/pcaps/encap):
 * real kernel VXLAN devices in network namespaces, GENEVE made by Open vSwitch's userspace
 * datapath (this kernel has no geneve module), and the kernel's VXLAN traffic re-wrapped in
 * GENEVE with inner VLAN tags and a decode-as port (see the corpus's README.md). The expected
 * figures come from oracle-encap.sh, which runs the oracle on each mirror session on its
 * own, so the same inner connection seen through two sessions is two conversations.
 * No tshark is needed to run this.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeFile } from "./analyzer.ts";
import type { DecodeAs } from "./decode.ts";
import type { MirrorSession } from "./sessions.ts";
import { FLAG_NAMES } from "./tcp-analysis.ts";
import type { ConversationFigures } from "./types.ts";

const DIR = fileURLToPath(new URL("../../tests/fixtures/pcaps/encap/", import.meta.url));

interface Expected {
  tshark_version: string;
  file_sha256: string;
  decode_as: string;
  packets: number;
  bytes: number;
  captured_bytes: number;
  first_time_str: string;
  last_time_str: string;
  tcp_packets: number;
  udp_packets: number;
  other_packets: number;
  icmp_quoted_packets: number;
  tcp_conversations: number;
  udp_conversations: number;
  analysis_totals: Record<string, number>;
  sessions: MirrorSession[];
  conversations: (Omit<ConversationFigures, "app_name" | "server_name"> & { session: string })[];
}

/** "-d udp.port==7081,geneve" (the tshark arguments the oracle was run with) -> decodeAs */
function decodeAs(args: string): DecodeAs[] {
  return [...args.matchAll(/udp\.port==(\d+),(vxlan|geneve)/g)].map((m) => ({ udpPort: Number(m[1]), encapsulation: m[2] as DecodeAs["encapsulation"] }));
}

const files = readdirSync(`${DIR}captures`).filter((f) => f.endsWith(".pcap")).sort();

describe("agreement with the tshark oracle: mirrored (encapsulated) captures", () => {
  it("has captures of both encapsulations", () => {
    expect(files).toEqual(["geneve-ovs.pcap", "geneve-wrapped.pcap", "vxlan-kernel.pcap", "vxlan-port-8472.pcap"]);
  });

  it("vxlan-port-8472.pcap without its decode-as: no tunnel (8472 is not a VXLAN port by default), only outer UDP", async () => {
    const got = await analyzeFile(`${DIR}captures/vxlan-port-8472.pcap`, { sha256: false });
    expect(got.encapsulation ?? null).toBeNull();
    expect(got.conversations.every((c) => c.proto === "udp" && c.session === undefined && c.key.includes(":8472"))).toBe(true);
  });

  for (const f of files) {
    it(f, async () => {
      const exp = JSON.parse(readFileSync(`${DIR}expected/${f.replace(/\.pcap$/, "")}.json`, "utf8")) as Expected;
      expect(exp.tshark_version).toBe("4.0.17");
      const got = await analyzeFile(`${DIR}captures/${f}`, { decodeAs: decodeAs(exp.decode_as) });
      expect(got.file_sha256).toBe(exp.file_sha256);
      for (const k of [
        "packets", "bytes", "captured_bytes", "first_time_str", "last_time_str", "tcp_packets", "udp_packets",
        "other_packets", "icmp_quoted_packets", "tcp_conversations", "udp_conversations",
      ] as const) {
        expect(got[k], k).toBe(exp[k]);
      }
      expect(got.analysis_totals).toEqual(exp.analysis_totals);
      // the sessions, in order of appearance, with their packet counts
      expect(got.encapsulation?.sessions).toEqual(exp.sessions);
      expect(got.encapsulation?.encapsulations).toEqual([...new Set(exp.sessions.map((s) => s.encapsulation))].sort());
      expect(got.conversations.map((c) => c.key)).toEqual(exp.conversations.map((c) => c.key));
      for (const e of exp.conversations) {
        const g = got.conversations.find((c) => c.key === e.key)!;
        expect(g.session, e.key).toBe(e.session);
        for (const k of ["proto", "a", "b", "first_src", "packets", "bytes", "start_time_str", "end_time_str"] as const) {
          expect(g[k], `${e.key} ${k}`).toBe(e[k]);
        }
        for (const d of ["a_to_b", "b_to_a"] as const) {
          for (const k of ["packets", "bytes", "payload_bytes"] as const) expect(g[d][k], `${e.key} ${d}.${k}`).toBe(e[d][k]);
          if (e[d].analysis) for (const fl of FLAG_NAMES) expect(g[d].analysis?.[fl], `${e.key} ${d} ${fl}`).toBe(e[d].analysis[fl]);
        }
        if (e.ack_rtt) {
          expect(g.ack_rtt?.samples, `${e.key} rtt samples`).toBe(e.ack_rtt.samples);
          for (const k of ["median", "max"] as const) {
            const gv = g.ack_rtt?.[k] ?? null;
            const ev = e.ack_rtt[k];
            expect(gv === null, `${e.key} rtt ${k}`).toBe(ev === null);
            if (gv !== null && ev !== null) expect(Math.abs(gv - ev), `${e.key} rtt ${k}`).toBeLessThanOrEqual(1e-9);
          }
        }
      }
    });
  }

  it("without the decode-as option, GENEVE on a non-standard port stays one outer UDP flow", async () => {
    const got = await analyzeFile(`${DIR}captures/geneve-wrapped.pcap`, { sha256: false });
    expect(got.encapsulation?.sessions.map((s) => s.name)).not.toContain("geneve:200@198.51.100.1,198.51.100.2");
    expect(got.conversations.some((c) => c.key.startsWith("udp 198.51.100.") && c.key.includes(":7081") && c.session === undefined)).toBe(true);
  });
});
