/**
 * Agreement with the tshark 4.0.17 oracle (tests/fixtures/pcaps/oracle.sh): every capture of
^ * the capture corpus, plus the hand-made and randomly generated captures kept in
 * platform/pcap/fixtures (made by dev/edge-captures.ts and dev/fuzz-captures.ts, their
 * expected/*.json printed by the same oracle). No tshark is needed to run this.
 *
 * Integer figures must be equal, times equal as exact strings, ack_rtt within 1e-9 s.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeFile } from "./analyzer.ts";
import { FLAG_NAMES } from "./tcp-analysis.ts";
import type { AnalysisResult, ConversationFigures } from "./types.ts";

// The corpus travels with the repository (tests/fixtures/pcaps; sources and licences in its SOURCES.md)
const SHARED = fileURLToPath(new URL("../../tests/fixtures/pcaps/", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/**
 * Captures where a figure deliberately differs from the oracle, with the reason
 * (docs/pcap.md must explain each). Empty: every capture agrees exactly.
 */
const EXCEPTIONS: Record<string, { figure: string; reason: string }[]> = {};

interface Expected {
  oracle_version: number;
  tshark_version: string;
  file: string;
  file_sha256: string;
  file_size: number;
  tshark_exit_code: number;
  tshark_warnings: string[];
  packets: number;
  bytes: number;
  captured_bytes: number;
  first_time_str: string | null;
  last_time_str: string | null;
  duration_str: string | null;
  tcp_packets: number;
  udp_packets: number;
  other_packets: number;
  icmp_quoted_packets: number;
  tcp_conversations: number;
  udp_conversations: number;
  analysis_totals: Record<string, number>;
  conversations: (Omit<ConversationFigures, "app_name" | "server_name"> & { tshark_streams: number[] })[];
}

function corpus(dir: string): { name: string; capture: string; expected: string }[] {
  if (!existsSync(`${dir}captures`)) return [];
  return readdirSync(`${dir}captures`)
    .filter((f) => /\.(pcap|pcapng)$/.test(f))
    .sort()
    .map((f) => ({ name: f, capture: `${dir}captures/${f}`, expected: `${dir}expected/${f.replace(/\.(pcapng|pcap)$/, "")}.json` }));
}

function compare(got: AnalysisResult, exp: Expected): string[] {
  const diffs: string[] = [];
  const eq = (what: string, g: unknown, e: unknown) => {
    if (g !== e) diffs.push(`${what}: got ${String(g)}, expected ${String(e)}`);
  };
  for (const k of [
    "packets", "bytes", "captured_bytes", "first_time_str", "last_time_str", "duration_str", "tcp_packets",
    "udp_packets", "other_packets", "icmp_quoted_packets", "tcp_conversations", "udp_conversations",
  ] as const) {
    eq(k, got[k], exp[k]);
  }
  eq("file_size", got.file_size, exp.file_size);
  eq("file_sha256", got.file_sha256, exp.file_sha256);
  eq("partial read (exit code 2)", got.exit_code === 2, exp.tshark_exit_code === 2);
  for (const f of FLAG_NAMES) eq(`analysis_totals.${f}`, got.analysis_totals[f], exp.analysis_totals[f]);
  eq("conversation keys", got.conversations.map((c) => c.key).join("\n"), exp.conversations.map((c) => c.key).join("\n"));
  const byKey = new Map(got.conversations.map((c) => [c.key, c]));
  for (const e of exp.conversations) {
    const g = byKey.get(e.key);
    if (!g) continue;
    const p = e.key;
    for (const k of ["proto", "a", "b", "first_src", "packets", "bytes", "start_time_str", "end_time_str"] as const) {
      eq(`${p} ${k}`, g[k], e[k]);
    }
    if (e.duration !== null && g.duration !== null && Math.abs(e.duration - g.duration) > 1e-9) {
      diffs.push(`${p} duration: got ${g.duration}, expected ${e.duration}`);
    }
    for (const d of ["a_to_b", "b_to_a"] as const) {
      for (const k of ["packets", "bytes", "payload_bytes"] as const) eq(`${p} ${d}.${k}`, g[d][k], e[d][k]);
      if (e[d].analysis) for (const f of FLAG_NAMES) eq(`${p} ${d}.analysis.${f}`, g[d].analysis?.[f], e[d].analysis[f]);
    }
    if (e.analysis) for (const f of FLAG_NAMES) eq(`${p} analysis.${f}`, g.analysis?.[f], e.analysis[f]);
    if (e.ack_rtt) {
      eq(`${p} ack_rtt.samples`, g.ack_rtt?.samples, e.ack_rtt.samples);
      for (const k of ["median", "max"] as const) {
        const gv = g.ack_rtt?.[k] ?? null;
        const ev = e.ack_rtt[k];
        if ((gv === null) !== (ev === null) || (gv !== null && ev !== null && Math.abs(gv - ev) > 1e-9)) {
          diffs.push(`${p} ack_rtt.${k}: got ${gv}, expected ${ev}`);
        }
      }
    }
  }
  return diffs;
}

const sets = [
  { title: "capture corpus (tests/fixtures/pcaps)", files: corpus(SHARED), required: true },
  { title: "fixtures (edge cases and random captures)", files: corpus(FIXTURES), required: true },
];

for (const set of sets) {
  describe(`agreement with the tshark oracle: ${set.title}`, () => {
    it("has captures to compare", () => {
      expect(set.files.length, `no captures found for ${set.title}`).toBeGreaterThan(0);
    });
    for (const f of set.files) {
      it(f.name, async () => {
        const exp = JSON.parse(readFileSync(f.expected, "utf8")) as Expected;
        expect(exp.tshark_version).toBe("4.0.17");
        const got = await analyzeFile(f.capture);
        const allowed = new Set((EXCEPTIONS[f.name] ?? []).map((x) => x.figure));
        const diffs = compare(got, exp).filter((d) => ![...allowed].some((a) => d.includes(a)));
        expect(diffs).toEqual([]);
      });
    }
  });
}

it("lists no unexplained exceptions", () => {
  for (const [file, list] of Object.entries(EXCEPTIONS)) {
    for (const x of list) expect(x.reason.length, `${file}: ${x.figure} needs a reason`).toBeGreaterThan(20);
  }
});
