/**
 * npm run pcap -- [--oracle-keys] [--no-sha256] [--decode-as udp.port==N,vxlan|geneve]… FILE
 *
 * --decode-as (repeatable, as tshark's `-d`): UDP destination port N carries VXLAN or GENEVE
 * (mirrored traffic on a non-standard port), besides 4789 and 6081.
 * Prints one JSON document with the oracle's layout (tests/fixtures/pcaps/README.md), so that
 * `diff` against tests/fixtures/pcaps/expected/NAME.json shows only real differences.
 * --oracle-keys leaves out the fields the oracle does not have (app_name, server_name, client, client_chosen_by,
 * data_packets, retransmitted_payload_bytes, format, link_types; of the encapsulation
 * summary only the sessions, as oracle-encap.sh prints them). Exit code: 0; 2 when the file could only be read in part (the
 * JSON is still printed, warnings in it and on stderr); 1 when it cannot be read at all.
 */
import { statSync } from "node:fs";
import { parsePcapDecodeAs, type PcapDecodeAs } from "../contract/pcap.ts";
import { INLINE_HASH_LIMIT, startBackgroundRead, type BackgroundRead } from "./hash.ts";
import type { AnalysisResult, DirectionFigures } from "./types.ts";

function oracleShape(r: AnalysisResult): unknown {
  // the oracle has no encapsulation summary; oracle-encap.sh has its sessions
  const { format: _f, link_types: _l, encapsulation, ...top } = r;
  const dir = ({ data_packets: _d, retransmitted_payload_bytes: _r, ...rest }: DirectionFigures) => rest;
  return {
    ...top,
    ...(encapsulation ? { sessions: encapsulation.sessions } : {}),
    conversations: r.conversations.map(({ app_name: _a, server_name: _s, client: _c, client_chosen_by: _by, ...c }) => ({
      ...c,
      a_to_b: dir(c.a_to_b),
      b_to_a: dir(c.b_to_a),
    })),
  };
}

const USAGE = "usage: npm run pcap -- [--oracle-keys] [--no-sha256] [--decode-as udp.port==N,vxlan|geneve]... CAPTURE_FILE\n";

/** The arguments: flags, decode-as rules (`--decode-as X` or `--decode-as=X`, `-d X` as tshark) and files. */
function parseArgs(argv: string[]): { args: string[]; flags: Set<string>; decodeAs: PcapDecodeAs[]; error: string | null } {
  const args: string[] = [];
  const flags = new Set<string>();
  const decodeAs: PcapDecodeAs[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    let rule: string | undefined;
    if (a === "--decode-as" || a === "-d") rule = argv[++i] ?? "";
    else if (a.startsWith("--decode-as=")) rule = a.slice("--decode-as=".length);
    if (rule !== undefined) {
      const parsed = parsePcapDecodeAs(rule);
      if (!parsed) return { args, flags, decodeAs, error: `pcap: --decode-as ${JSON.stringify(rule)}: expected udp.port==N,vxlan or udp.port==N,geneve (N 1-65535)\n` };
      decodeAs.push(parsed);
    } else if (a.startsWith("--")) flags.add(a);
    else args.push(a);
  }
  return { args, flags, decodeAs, error: null };
}

async function main(argv: string[]): Promise<number> {
  const { args, flags, decodeAs, error } = parseArgs(argv);
  if (error) {
    process.stderr.write(error + USAGE);
    return 64;
  }
  if (args.length !== 1 || flags.has("--help")) {
    process.stderr.write(USAGE);
    return 64;
  }
  // a big file's reading and hashing start right away, on another thread, while the
  // analyzer's modules load (dynamic imports below); the parser then reads the same buffers
  let early: BackgroundRead | null = null;
  try {
    if (!flags.has("--no-sha256") && statSync(args[0]).size > INLINE_HASH_LIMIT) early = startBackgroundRead(args[0]);
  } catch {
    // unreadable path: analyzeFile reports it
  }
  const { analyzeFile } = await import("./analyzer.ts");
  const { isPcapFormatError } = await import("./errors.ts");
  const { pyJson } = await import("./format.ts");
  const { FLOAT_KEYS } = await import("./types.ts");
  try {
    const r = await analyzeFile(args[0], { sha256: early === null ? !flags.has("--no-sha256") : true, backgroundRead: early ?? undefined, decodeAs });
    const doc = flags.has("--oracle-keys") ? oracleShape(r) : r;
    process.stdout.write(pyJson(doc, FLOAT_KEYS) + "\n");
    for (const w of r.warnings) process.stderr.write(`pcap: warning: ${w}\n`);
    return r.exit_code;
  } catch (e) {
    if (isPcapFormatError(e)) {
      process.stderr.write(`pcap: ${args[0]}: ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`pcap: ${args[0]}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
