import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createPlatformApp } from "../app.ts";
import { pcapAnalyses, pcapFiles } from "../db/schema.ts";
import { workPcapAnalyses } from "../domain/pcap-analysis.ts";
import { pcapEngine } from "../domain/pcap.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { testPlatform } from "../test/harness.ts";
import { untilAnalysed } from "../test/pcap.ts";
import { startS3Server } from "../test/servers/s3.ts";
import { startHoldingS3Proxy } from "../test/servers/s3-holding-proxy.ts";
import { openJobQueue, queues } from "./queue.ts";

/*
 * Issue 62 part 5 for PCAP analyses: kill -9 of the instance holding an analysis, and another
 * instance finishes it. A child process (../test/pcap-job-process.ts) takes the analysis job; the
 * shared object store (a real S3 server, behind a proxy that holds the capture's download) keeps
 * its analysis waiting for the file, its job active in its hands; it is killed with SIGKILL. The
 * job's heartbeat stops, the queue gives it back, and this process's worker analyses the capture:
 * one result, from the same job. PostgreSQL only: instances in several processes share a
 * PostgreSQL database (PGlite is one process's own).
 */

const url = process.env.TEST_DATABASE_URL;
const capture = path.resolve(import.meta.dirname, "../../tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");
const oracle = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../tests/fixtures/pcaps/expected/tcpdump-ssh.json"), "utf8"));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!url)("an instance killed while it analyses a capture (PostgreSQL)", () => {
  it("another instance finishes the analysis: one result, written by the same job", async () => {
    const p = await testPlatform();
    const s3 = await startS3Server();
    cleanups.push(s3.close);
    const proxy = await startHoldingS3Proxy(s3.endpoint);
    cleanups.push(proxy.close);
    // This process is the other instance: its own queue (schema) shared with the child, the same bucket.
    const schema = `jobs_pcap_dead_${Math.random().toString(36).slice(2, 8)}`;
    const jobs = await openJobQueue({ database: p.database, databaseUrl: url, schema, pollingSeconds: 0.5, superviseSeconds: 1, schedule: false });
    cleanups.push(() => jobs.stop());
    const settings = { ...s3.settings, endpoint: proxy.endpoint };
    const deps: PlatformDeps = { ...p.deps, jobs, config: { ...p.deps.config, s3: settings } };
    const app = createPlatformApp(deps);
    const call: Parameters<typeof untilAnalysed>[0]["call"] = async (method, what, opts = {}) => {
      const target = new URL(`http://platform.test/api/v1/${what}`);
      for (const [k, v] of Object.entries(opts.query ?? {})) target.searchParams.set(k, v);
      const res = await app.fetch(new Request(target, { method, headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} }));
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-pcap-dead-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../test/pcap-job-process.ts")], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        JOBS_SCHEMA: schema,
        DATA_DIR: dataDir,
        S3_ENDPOINT: settings.endpoint,
        S3_BUCKET: settings.bucket,
        S3_REGION: settings.region,
        S3_ACCESS_KEY_ID: settings.accessKeyId,
        S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(() => child.kill("SIGKILL"));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => d.toString().includes("taking jobs") && resolve());
      child.once("exit", (code) => reject(new Error(`the worker process ended (${code})`)));
    });

    // A capture in the bucket, put there by the browser through the presigned URL.
    const owner = await p.newAccount();
    const upload = await call("GET", "get-s3-upload-url", { token: owner.token, query: { pcap_file_name: "tcpdump-ssh.pcap" } });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const put = await fetch(upload.body.s3_url, { method: "PUT", body: fs.readFileSync(capture) });
    expect(put.status).toBe(200);
    const key: string = upload.body.pcap_file_key;
    const query = { pcap_file_key: key, pcap_file_name: "tcpdump-ssh.pcap" };

    // Asked for: queued; the child takes the job and waits for the capture's download, held.
    proxy.state.holdNext = true;
    const asked = await call("GET", "analyze-s3-pcap", { token: owner.token, query });
    expect(asked.status).toBe(202);
    await expect.poll(() => proxy.held.length, { timeout: 15_000 }).toBe(1);
    expect(proxy.held[0]!.what).toContain(key);
    const [held] = await jobs.boss.findJobs(queues.pcapAnalysis.name, { key });
    expect(held?.state).toBe("active");
    expect((await call("GET", "analyze-s3-pcap", { token: owner.token, query })).body).toMatchObject({ state: "analyzing" });

    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    // Another instance (this process) works the queue: the job comes back to it once its heartbeat stops.
    await workPcapAnalyses(jobs, deps, pcapEngine);
    const done = await untilAnalysed({ call }, owner.token, query, 60_000);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.sessions).toHaveLength(oracle.conversations.length);
    expect(done.body.summary.packets).toBe(oracle.packets);
    // The same job, given back once and completed here; one result; the row is that job's.
    const after = await jobs.boss.findJobs(queues.pcapAnalysis.name, { key });
    expect(after.map((j) => [j.id, j.state, j.retryCount])).toEqual([[held!.id, "completed", 1]]);
    expect(await p.deps.db.select().from(pcapAnalyses).where(eq(pcapAnalyses.pcapFileKey, key))).toHaveLength(1);
    const [row] = await p.deps.db.select().from(pcapFiles).where(eq(pcapFiles.pcapFileKey, key));
    expect(row).toMatchObject({ analysisState: "done", analysisJobId: held!.id });
  }, 120_000);
});
