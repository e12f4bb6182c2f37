import { expect } from "vitest";
import type { CallResult, TestPlatform } from "./harness.ts";

/**
 * GET analyze-s3-pcap, asked again while it answers 202 (the analysis queued or running: the test
 * platform's own job worker takes it, harness.ts), as a client polls: the first answer that is not 202.
 */
export async function untilAnalysed(p: Pick<TestPlatform, "call">, token: string, query: Record<string, string>, timeoutMs = 30_000): Promise<CallResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await p.call("GET", "analyze-s3-pcap", { token, query });
    if (r.status !== 202) return r;
    expect(["queued", "analyzing"]).toContain(r.body.state);
    if (Date.now() > deadline) throw new Error(`analyze-s3-pcap still ${r.body.state} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
