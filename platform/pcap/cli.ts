/**
 * npm run pcap -- [--oracle-keys] [--no-sha256] FILE
 *
 * Prints one JSON document with the oracle's layout (tests/fixtures/pcaps/README.md), so that
 * `diff` against tests/fixtures/pcaps/expected/NAME.json shows only real differences.
 * --oracle-keys leaves out the fields the oracle does not have (app_name, server_name, client, client_chosen_by,
 * data_packets, retransmitted_payload_bytes, format, link_types; of the encapsulation
 * summary only the sessions, as oracle-encap.sh prints them). Exit code: 0; 2 when the file could only be read in part (the
 * JSON is still printed, warnings in it and on stderr); 1 when it cannot be read at all.
 */
import { statSync } from "node:fs";
import { INLINE_HASH_LIMIT, sha256InBackground } from "./hash.ts";
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

async function main(argv: string[]): Promise<number> {
  const args = argv.filter((a) => !a.startsWith("--"));
  const flags = new Set(argv.filter((a) => a.startsWith("--")));
  if (args.length !== 1 || flags.has("--help")) {
    process.stderr.write("usage: npm run pcap -- [--oracle-keys] [--no-sha256] CAPTURE_FILE\n");
    return 64;
  }
  // a big file's hash starts right away, on another thread, while the analyzer's
  // modules load (dynamic imports below) and the file is parsed
  let early: Promise<string> | null = null;
  try {
    if (!flags.has("--no-sha256") && statSync(args[0]).size > INLINE_HASH_LIMIT) {
      early = sha256InBackground(args[0]);
      early.catch(() => undefined);
    }
  } catch {
    // unreadable path: analyzeFile reports it
  }
  const { analyzeFile } = await import("./analyzer.ts");
  const { isPcapFormatError } = await import("./errors.ts");
  const { pyJson } = await import("./format.ts");
  const { FLOAT_KEYS } = await import("./types.ts");
  try {
    const r = await analyzeFile(args[0], { sha256: early === null && !flags.has("--no-sha256") });
    if (early) r.file_sha256 = await early;
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
