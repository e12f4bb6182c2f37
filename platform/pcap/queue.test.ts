/** Analyses run in a worker thread, one at a time, with typed errors. */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { analyzeFile } from "./analyzer.ts";
import { PcapFormatError } from "./errors.ts";
import { AnalysisQueue, AnalysisTimeoutError, analyzeFileInWorker, workerDirectory } from "./queue.ts";

const SHARED = new URL("../../tests/fixtures/pcaps/captures/", import.meta.url).pathname;

describe("analysis in a worker thread", () => {
  const q = new AnalysisQueue({ idleMs: 1000 });
  afterAll(() => q.close());

  it("finds its worker files", () => {
    expect(workerDirectory()).toMatch(/platform[/\\]pcap$/);
  });

  it("gives the same result as the in-thread analysis", async () => {
    const file = `${SHARED}tcpdump-ssh.pcap`;
    const [inWorker, direct] = await Promise.all([analyzeFileInWorker(file), analyzeFile(file)]);
    expect(inWorker).toEqual(direct);
    expect(threadId).toBe(threadId); // (the caller's thread only waits)
  });

  it("runs one analysis at a time, in order", async () => {
    const order: string[] = [];
    const big = q.analyze(`${SHARED}pcapplusplus-tls2.pcap`).then(() => order.push("tls2"));
    const small = q.analyze(`${SHARED}tcpdump-ssh.pcap`).then(() => order.push("ssh"));
    expect(q.busy || q.waiting > 0).toBe(true);
    expect(q.waiting).toBe(1);
    await Promise.all([big, small]);
    expect(order).toEqual(["tls2", "ssh"]);
  });

  it("rejects with PcapFormatError for a file that is not a capture", async () => {
    const p = join(tmpdir(), `not-a-capture-${process.pid}.txt`);
    writeFileSync(p, "this is plain text, not a capture file\n");
    const err = await q.analyze(p).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PcapFormatError);
    expect((err as PcapFormatError).kind).toBe("not-a-capture");
    expect((err as PcapFormatError).offset).toBe(0);
  });

  it("stops a job that runs past its time limit", async () => {
    const err = await q.analyze(`${SHARED}pcapplusplus-example2.pcap`, { timeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnalysisTimeoutError);
    expect(String(err)).toMatch(/took longer than 1 ms/);
    // the queue keeps working afterwards
    const r = await q.analyze(`${SHARED}tcpdump-ssh.pcap`);
    expect(r.packets).toBe(54);
  });

  it("stops a job whose signal aborts (its queue job's claim is gone), before or while it runs", async () => {
    const gone = new Error("the job's claim is gone");
    const running = new AbortController();
    const job = q.analyze(`${SHARED}pcapplusplus-tls2.pcap`, { signal: running.signal });
    await expect.poll(() => q.busy).toBe(true);
    running.abort(gone);
    expect(await job.catch((e: unknown) => e)).toBe(gone);
    const before = new AbortController();
    before.abort(gone);
    expect(await q.analyze(`${SHARED}tcpdump-ssh.pcap`, { signal: before.signal }).catch((e: unknown) => e)).toBe(gone);
    // the queue keeps working afterwards
    expect((await q.analyze(`${SHARED}tcpdump-ssh.pcap`)).packets).toBe(54);
  });
});
