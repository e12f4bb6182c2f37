import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Job } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp } from "../app.ts";
import { PCAP_ANALYSIS_STOPPED } from "../contract/pcap.ts";
import { pcapAnalyses, pcapFiles } from "../db/schema.ts";
import { openJobQueue, queues, type JobQueue } from "../jobs/queue.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { untilAnalysed } from "../test/pcap.ts";
import { runAnalysisJob, type PcapAnalysisJob } from "./pcap-analysis.ts";
import { pcapEngine } from "./pcap.ts";

/*
 * The analysis job's rules that the calls do not show by themselves: a job the queue gave up on is
 * answered as failed (not "queued" for ever), and a run repeated (its instance died after writing,
 * before the queue heard of it; or the capture analysed again) leaves one result.
 */

const capture = path.resolve(import.meta.dirname, "../../tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");

let p: TestPlatform;
let owner: TestAccount;
/** A platform whose queue no instance works: its jobs stay where the test puts them. */
let idle: { deps: PlatformDeps; jobs: JobQueue; call: TestPlatform["call"] };

beforeAll(async () => {
  p = await testPlatform();
  owner = await p.newAccount();
  const jobs = await openJobQueue({
    database: p.database,
    databaseUrl: process.env.TEST_DATABASE_URL || undefined,
    schema: `jobs_idle_${Math.random().toString(36).slice(2, 8)}`,
    pollingSeconds: 0.5,
    superviseSeconds: 1,
    schedule: false,
  });
  const deps: PlatformDeps = { ...p.deps, jobs };
  const app = createPlatformApp(deps);
  const call: TestPlatform["call"] = async (method, what, opts = {}) => {
    const target = new URL(`http://platform.test/api/v1/${what}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) target.searchParams.set(k, v);
    const res = await app.fetch(new Request(target, { method, headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  idle = { deps, jobs, call };
});
afterAll(async () => {
  await idle?.jobs.stop();
});

/** A capture uploaded through the stream call (into the shared test store); its key. */
async function uploaded(name = "tcpdump-ssh.pcap"): Promise<string> {
  const res = await p.app.fetch(
    new Request(`http://platform.test/api/v1/upload-pcap-stream?pcap_file_name=${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/octet-stream" },
      body: fs.readFileSync(capture),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { pcap_file_key: string }).pcap_file_key;
}

const rowOf = async (key: string) => (await p.deps.db.select().from(pcapFiles).where(eq(pcapFiles.pcapFileKey, key)))[0]!;

/** The job as the queue hands it to a worker (an attempt of it: `retryCount`). */
function attempt(id: string, key: string, retryCount: number): Job<PcapAnalysisJob> {
  return { id, name: queues.pcapAnalysis.name, data: { pcap_file_key: key }, expireInSeconds: 2100, heartbeatSeconds: 10, retryCount, signal: new AbortController().signal };
}

describe("the PCAP analysis job", () => {
  it("answers an analysis whose job the queue no longer runs (cancelled, failed for good) as failed, not queued for ever", async () => {
    const key = await uploaded();
    const query = { pcap_file_key: key, pcap_file_name: "tcpdump-ssh.pcap" };
    const asked = await idle.call("GET", "analyze-s3-pcap", { token: owner.token, query });
    expect(asked).toMatchObject({ status: 202, body: { state: "queued" } });
    // Nobody works this queue: it stays queued.
    expect(await idle.call("GET", "analyze-s3-pcap", { token: owner.token, query })).toMatchObject({ status: 202, body: { state: "queued" } });
    const { analysisJobId } = await rowOf(key);
    expect(analysisJobId).toBeTruthy();
    await idle.jobs.boss.cancel(queues.pcapAnalysis.name, analysisJobId!);
    const answered = await idle.call("GET", "analyze-s3-pcap", { token: owner.token, query });
    expect(answered).toEqual({ status: 422, body: { detail: PCAP_ANALYSIS_STOPPED.gaveUp } });
    expect(await rowOf(key)).toMatchObject({ analysisState: "failed", analysisFailureStatus: 422, analysisFailure: PCAP_ANALYSIS_STOPPED.gaveUp });
  });

  it("a run repeated after its result was written leaves it as it is; a capture analysed again has its one result replaced", async () => {
    const key = await uploaded();
    const query = { pcap_file_key: key, pcap_file_name: "tcpdump-ssh.pcap" };
    const done = await untilAnalysed(p, owner.token, query);
    expect(done.status).toBe(200);
    const { analysisJobId } = await rowOf(key);
    const [first] = await p.deps.db.select().from(pcapAnalyses).where(eq(pcapAnalyses.pcapFileKey, key));

    // The instance died between its write and the queue's "completed": the job runs again.
    expect(await runAnalysisJob(p.deps, pcapEngine, attempt(analysisJobId!, key, 1))).toEqual({ state: "skipped" });
    expect(await p.deps.db.select().from(pcapAnalyses).where(eq(pcapAnalyses.pcapFileKey, key))).toEqual([first]);
    expect(await rowOf(key)).toMatchObject({ analysisState: "done", analysisJobId });

    // Queued again (its object replaced, for one: an S3 URL used again), the run replaces the one result.
    await p.deps.db.update(pcapFiles).set({ analysisState: "queued", analysisJobId: null }).where(eq(pcapFiles.pcapFileKey, key));
    expect(await runAnalysisJob(p.deps, pcapEngine, attempt("another-job", key, 0))).toMatchObject({ state: "done" });
    const rows = await p.deps.db.select().from(pcapAnalyses).where(eq(pcapAnalyses.pcapFileKey, key));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(first!.createdAt.getTime());
    expect(rows[0]!.result).toEqual(first!.result);
    expect(await rowOf(key)).toMatchObject({ analysisState: "done", analysisJobId: "another-job" });
  });

  it("a run of a capture deleted meanwhile (retention, the account removed) does nothing", async () => {
    expect(await runAnalysisJob(p.deps, pcapEngine, attempt("gone-job", `${owner.accountId}_pcap-0000000000000000`, 0))).toEqual({ state: "gone" });
  });
});
