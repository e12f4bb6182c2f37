import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const corpus = path.resolve(root, "tests/fixtures/pcaps");

// `npm run pcap -- --oracle-keys FILE` is the command anyone can diff against tshark's figures.
it("the pcap command (its bundle) prints exactly the oracle's figures for a corpus capture", () => {
  const name = "tcpdump-ssh";
  const out = execFileSync(process.execPath, [path.join(root, "scripts/pcap-cli.mjs"), "--oracle-keys", path.join(corpus, "captures", `${name}.pcap`)], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const ours = JSON.parse(out);
  const theirs = JSON.parse(fs.readFileSync(path.join(corpus, "expected", `${name}.json`), "utf8"));
  expect(ours.conversations.length).toBeGreaterThan(0);
  // tshark_streams is tshark's own stream numbering, which the analyzer does not keep (docs/pcap.md).
  const withoutStreams = (list: Record<string, unknown>[]) => list.map(({ tshark_streams: _, ...rest }) => rest);
  expect(ours.conversations).toEqual(withoutStreams(theirs.conversations));
  expect(ours.packets).toBe(theirs.packets);
  expect(ours.bytes).toBe(theirs.bytes);
}, 60_000);
