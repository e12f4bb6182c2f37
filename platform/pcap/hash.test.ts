/**
 * The background read (hash.ts): another thread reads and hashes the file into a ring of
 * shared slots while the parser reads the same bytes. Small slots here make records straddle
 * slots and the ring wrap many times; the result must be the one of the plain path, hash
 * included, and a parser that gives up must stop the reading thread.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeFile } from "./analyzer.ts";
import { startBackgroundRead } from "./hash.ts";

const FIX = fileURLToPath(new URL("../../tests/fixtures/pcaps/", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "pcap-hash-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("startBackgroundRead: one read for the parser and the SHA-256", () => {
  for (const [file, slotSize, slots] of [
    ["captures/zeek-tcp-retransmit-timeout.pcapng", 1000, 3], // pcapng blocks across slots
    ["captures/tcpdump-ssh.pcap", 4096, 2],
    ["encap/captures/geneve-ovs.pcap", 65536, 8],
    ["encap/captures/vxlan-kernel.pcap", 1 << 20, 8], // one slot holds the whole file
  ] as const) {
    it(`${file}, ${slots} slots of ${slotSize} bytes: the same result and hash as the plain read`, async () => {
      const path = FIX + file;
      const plain = await analyzeFile(path);
      const shared = await analyzeFile(path, { backgroundRead: startBackgroundRead(path, slotSize, slots) });
      expect(shared.file_sha256).toBe(sha(path));
      expect(shared).toEqual(plain);
    });
  }

  it("a file of exactly whole slots, and an empty one", async () => {
    const data = readFileSync(FIX + "captures/tcpdump-ssh.pcap");
    const whole = join(tmp, "whole.bin");
    writeFileSync(whole, data.subarray(0, 4096 * 5));
    const bg = startBackgroundRead(whole, 4096, 2);
    const chunks: Buffer[] = [];
    for await (const c of bg.chunks()) chunks.push(Buffer.from(c));
    expect(Buffer.concat(chunks).equals(data.subarray(0, 4096 * 5))).toBe(true);
    expect(await bg.sha256).toBe(sha(whole));

    const empty = join(tmp, "empty.bin");
    writeFileSync(empty, "");
    const e = startBackgroundRead(empty);
    let n = 0;
    for await (const _ of e.chunks()) n++;
    expect(n).toBe(0);
    expect(await e.sha256).toBe(sha(empty));
  });

  it("a parser that gives up stops the reading thread", async () => {
    const junk = join(tmp, "junk.bin");
    writeFileSync(junk, Buffer.alloc(200_000, 0x41)); // not a capture: refused at byte 0
    const bg = startBackgroundRead(junk, 4096, 2); // the reader blocks after 2 slots
    await expect(analyzeFile(junk, { backgroundRead: bg })).rejects.toThrow(/not a pcap or pcapng file/);
    await expect(bg.sha256).rejects.toThrow(/stopped before the end/);
  });

  it("an unreadable file fails the analysis, no hang", async () => {
    const bg = startBackgroundRead(join(tmp, "missing.pcap"));
    const chunks = bg.chunks();
    await expect(chunks.next()).rejects.toThrow(/ENOENT/);
  });
});
