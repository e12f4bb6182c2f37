/**
 * Speed and memory of the capture analyzer (npm run bench:pcap).
 *
 * Builds a capture of at least 1 GiB in a temporary directory -- the packets of the
 * corpus's Ethernet captures (tests/fixtures/pcaps/captures), written as one classic pcap and
 * repeated -- then times, on the same file in the same run:
 *   - the analyzer CLI (full analysis + SHA-256), as a child process, with its peak RSS
 *   - the analyzer without SHA-256
 *   - tshark -r FILE -q -z conv,tcp, capinfos FILE and cat FILE > /dev/null
 * Tools that are not installed are skipped (and said so).
 *
 * Options: --size-mb N (default 1100), --keep (keep the file), --file PATH (use a file),
 * --encap (the capture is built from the mirrored-traffic corpus, tests/fixtures/pcaps/encap:
 * every packet in VXLAN, as a cloud mirror's target sees it; issue 59).
 * Like the README's big.pcap, the repeated copies make every connection look like a
 * retransmission storm: only throughput and memory mean anything here.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CaptureReader } from "../platform/pcap/reader.ts";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, "..");
const encap = process.argv.includes("--encap");
const corpus = resolve(repoRoot, encap ? "tests/fixtures/pcaps/encap/captures" : "tests/fixtures/pcaps/captures");

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** All packets of the corpus captures whose packets are all Ethernet, as pcap records (--encap: vxlan-kernel.pcap, on the standard port). */
function corpusEthernetRecords(): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  const files = readdirSync(corpus)
    .filter((f) => /\.pcap(ng)?$/.test(f) && (!encap || f === "vxlan-kernel.pcap"))
    .sort();
  for (const f of files) {
    const data = readFileSync(join(corpus, f));
    const recs: Uint8Array[] = [];
    let allEthernet = true;
    const reader = new CaptureReader({
      packet(b, off, cap, orig, linkType, s, ns) {
        if (linkType !== 1) allEthernet = false;
        const r = new Uint8Array(16 + cap);
        const v = new DataView(r.buffer);
        v.setUint32(0, s >>> 0, true);
        v.setUint32(4, Math.floor(ns / 1000), true);
        v.setUint32(8, cap, true);
        v.setUint32(12, orig, true);
        r.set(b.subarray(off, off + cap), 16);
        recs.push(r);
      },
    });
    reader.push(data);
    reader.finish();
    if (!allEthernet) continue;
    for (const r of recs) {
      parts.push(r);
      total += r.length;
    }
  }
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function buildCapture(path: string, minBytes: number): number {
  const records = corpusEthernetRecords();
  const header = new Uint8Array(24);
  const v = new DataView(header.buffer);
  v.setUint32(0, 0xa1b2c3d4, true);
  v.setUint16(4, 2, true);
  v.setUint16(6, 4, true);
  v.setUint32(16, 262144, true);
  v.setUint32(20, 1, true);
  const fd = openSync(path, "w");
  writeSync(fd, header);
  let size = header.length;
  // write in ~64 MiB blocks of repeated record sets
  const reps = Math.max(1, Math.floor((64 << 20) / records.length));
  const block = new Uint8Array(records.length * reps);
  for (let i = 0; i < reps; i++) block.set(records, i * records.length);
  while (size < minBytes) {
    writeSync(fd, block);
    size += block.length;
  }
  closeSync(fd);
  return size;
}

function have(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;
}

interface Timing {
  name: string;
  seconds: number | null;
  /** user + system CPU seconds (from /usr/bin/time) */
  cpuSeconds?: number | null;
  maxRssMb?: number | null;
  note?: string;
}

/** Run a command, return wall time and (with /usr/bin/time) its peak RSS. */
function timeCommand(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Timing {
  const useTime = existsSync("/usr/bin/time");
  const t0 = process.hrtime.bigint();
  const r = useTime
    ? spawnSync("/usr/bin/time", ["-f", "MAXRSS_KB=%M CPU=%U+%S", cmd, ...args], { env, encoding: "utf8", maxBuffer: 1 << 30 })
    : spawnSync(cmd, args, { env, encoding: "utf8", maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 && r.status !== 2) {
    return { name, seconds: null, note: `failed (exit ${r.status}): ${(r.stderr || "").slice(-300)}` };
  }
  const m = /MAXRSS_KB=(\d+) CPU=([\d.]+)\+([\d.]+)/.exec(r.stderr ?? "");
  return { name, seconds, cpuSeconds: m ? Number(m[2]) + Number(m[3]) : null, maxRssMb: m ? Number(m[1]) / 1024 : null };
}

function main(): void {
  const sizeMb = Number(arg("--size-mb") ?? 1100);
  let file = arg("--file");
  let dir: string | null = null;
  if (!file) {
    dir = mkdtempSync(join(tmpdir(), "pcap-bench-"));
    file = join(dir, "big.pcap");
    process.stdout.write(`building a ${sizeMb} MB capture in ${file} ...\n`);
    buildCapture(file, sizeMb * 1e6);
  }
  const bytes = statSync(file).size;
  process.stdout.write(`file: ${file}, ${(bytes / 1e6).toFixed(1)} MB\n`);
  // warm the page cache so every tool reads from memory
  execFileSync("sh", ["-c", `cat '${file}' > /dev/null`]);

  // The tools run in interleaved rounds (cat, analyzer, analyzer without hash, capinfos,
  // tshark, then again), so that each round's tools see about the same load from other
  // processes; the ratios below are per round (median over rounds), the table shows the
  // best wall and CPU time of each command.
  const node = process.execPath;
  // The command as `npm run pcap` runs it: scripts/pcap-cli.mjs, which runs the CLI's bundle
  // (built here first, so no round pays for the build).
  const cliScript = join(repoRoot, "scripts/pcap-cli.mjs");
  execFileSync(node, ["--input-type=module", "-e", `await (await import(${JSON.stringify(pathToFileURL(cliScript).href)})).ensurePcapCli()`], {
    stdio: "inherit",
  });
  const rounds = Number(arg("--rounds") ?? 3);
  const commands: { name: string; cmd: string; args: string[]; tool?: string }[] = [
    { name: "cat FILE > /dev/null", cmd: "sh", args: ["-c", `cat '${file}' > /dev/null`] },
    { name: "analyzer CLI, full analysis + sha256", cmd: node, args: [cliScript, file] },
    { name: "analyzer CLI, full analysis, no sha256", cmd: node, args: [cliScript, "--no-sha256", file] },
    { name: "capinfos FILE", cmd: "capinfos", args: [file], tool: "capinfos" },
    { name: "tshark -r FILE -q -z conv,tcp", cmd: "tshark", args: ["-r", file, "-q", "-z", "conv,tcp"], tool: "tshark" },
  ];
  const runs: Timing[][] = commands.map(() => []);
  const loads: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    commands.forEach((c, i) => {
      if (c.tool && !have(c.tool)) return;
      runs[i].push(timeCommand(c.name, c.cmd, c.args));
    });
    loads.push(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
    const walls = commands.map((c, i) => `${c.name.split(",")[0].split(" ")[0]}${c.name.includes("no sha256") ? "(no sha)" : ""} ${runs[i][round - 1]?.seconds?.toFixed(2) ?? "-"}s`);
    const ours = runs[1][round - 1];
    const ts = runs[4][round - 1];
    const cpu = (t: Timing | undefined) => (t?.cpuSeconds == null ? "-" : `${t.cpuSeconds.toFixed(2)}s CPU`);
    const ratio =
      ours?.seconds && ts?.seconds
        ? `; tshark/analyzer ${(ts.seconds / ours.seconds).toFixed(1)}x wall, ${ours.cpuSeconds && ts.cpuSeconds ? (ts.cpuSeconds / ours.cpuSeconds).toFixed(1) : "-"}x CPU (analyzer ${cpu(ours)}, no sha ${cpu(runs[2][round - 1])}, tshark ${cpu(ts)})`
        : "";
    process.stdout.write(`round ${round}/${rounds} (load ${loads[loads.length - 1]}): ${walls.join(", ")}${ratio}\n`);
  }
  const results: Timing[] = commands.map((c, i) => {
    const ok = runs[i].filter((t) => t.seconds !== null);
    if (c.tool && !have(c.tool)) return { name: c.name, seconds: null, note: `${c.tool} not installed: skipped` };
    if (ok.length === 0) return runs[i][0] ?? { name: c.name, seconds: null, note: "failed" };
    return {
      name: `${c.name} (best of ${ok.length})`,
      seconds: Math.min(...ok.map((t) => t.seconds!)),
      cpuSeconds: Math.min(...ok.map((t) => t.cpuSeconds ?? Infinity)),
      maxRssMb: Math.max(...ok.map((t) => t.maxRssMb ?? 0)),
    };
  });

  const rows = results.map((r) => ({
    command: r.name,
    "wall s": r.seconds == null ? "-" : r.seconds.toFixed(2),
    "MB/s (wall)": r.seconds == null ? "-" : (bytes / 1e6 / r.seconds).toFixed(1),
    "CPU s": r.cpuSeconds == null ? "-" : r.cpuSeconds.toFixed(2),
    "MB/s (CPU)": r.cpuSeconds == null || r.cpuSeconds === 0 ? "-" : (bytes / 1e6 / r.cpuSeconds).toFixed(1),
    "max RSS MB": r.maxRssMb == null ? "-" : r.maxRssMb.toFixed(0),
    note: r.note ?? "",
  }));
  console.table(rows);
  process.stdout.write(`load average after each round: ${loads.join(", ")} (2 cores: a load above 2 inflates every wall time)\n`);
  const median = (xs: number[]) => {
    const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
  };
  const ours = runs[1];
  const peak = Math.max(...[...runs[1], ...runs[2]].map((r) => r.maxRssMb ?? 0));
  if (ours.length && ours[0].seconds) {
    process.stdout.write(`analyzer (full analysis + sha256): best ${(bytes / 1e6 / results[1].seconds!).toFixed(0)} MB/s wall, ${(bytes / 1e6 / results[1].cpuSeconds!).toFixed(0)} MB/s of CPU time; peak RSS ${peak.toFixed(0)} MB\n`);
    for (const [i, label, target] of [[4, "tshark -z conv,tcp", ">= 20x"], [3, "capinfos", "> 1x"]] as const) {
      if (!runs[i].length) continue;
      const wall = median(runs[i].map((t, k) => (t.seconds ?? NaN) / (ours[k]?.seconds ?? NaN)));
      const cpu = median(runs[i].map((t, k) => (t.cpuSeconds ?? NaN) / (ours[k]?.cpuSeconds ?? NaN)));
      process.stdout.write(`  vs ${label}: ${wall.toFixed(1)}x faster by wall time, ${cpu.toFixed(1)}x by CPU time (median of per-round ratios; target ${target})\n`);
    }
    process.stdout.write(`  peak RSS ${peak <= 128 ? "within" : "OVER"} 128 MB\n`);
  }
  if (dir && !process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  else if (dir) process.stdout.write(`kept ${file}\n`);
}

main();
