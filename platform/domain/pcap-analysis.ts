import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Job } from "pg-boss";
import { formatPcapDecodeAs, parsePcapDecodeAs, PCAP_ANALYSIS_STOPPED, type PcapAnalysisState, type PcapDecodeAs } from "../contract/pcap.ts";
import { pcapAnalyses, pcapFiles } from "../db/schema.ts";
import { queues, type JobQueue } from "../jobs/queue.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { isPcapFormatError } from "../pcap/errors.ts";
import { AnalysisTimeoutError } from "../pcap/queue.ts";
import { objectStore } from "../storage/index.ts";
import { observe } from "../../server/observe.mjs";
import { MAX_PCAP_BYTES } from "../contract/pcap.ts";
import type { AnalyzeRequest, PcapAnalysis } from "./pcap.ts";
import { pcapMessages } from "../contract/messages.ts";

/*
 * A capture's analysis as a job on the shared queue (docs/decisions/2026-12-03-pcap-analyses-on-the-queue.md).
 *
 * The first analyse request of a capture (GET analyze-s3-pcap, or a flow report before it) moves
 * its pcap_files row from no state to `queued` and enqueues one `pcap-analysis` job in the same
 * transaction; a second request finds it queued and enqueues nothing (and the queue's `exclusive`
 * policy keeps one live job per key besides). Any platform instance's worker takes the job (one at
 * a time per instance), marks the row `analyzing`, reads the capture from the object store in the
 * analysis worker thread (pcap/queue.ts), and writes the result and `done` in one transaction,
 * replacing whatever an earlier run wrote: a run repeated after its instance died (kill -9: the
 * job's heartbeat stops and the queue gives it to another instance) leaves one result. A file that
 * is not a capture, or an analysis past its time limit, is `failed` with the message the call
 * answers; anything else (the store unreachable, the worker thread gone) is tried again, and given
 * up after the queue's last try.
 */

const log = observe("platform").logger.child({ component: "pcap" });

type PcapFileRow = typeof pcapFiles.$inferSelect;

/** What a pcap-analysis job carries. */
export interface PcapAnalysisJob {
  pcap_file_key: string;
  /** decode-as rules ("udp.port==8472,vxlan") given by the request that asked for the analysis (issue 59) */
  decode_as?: string[];
}

/** Spec 1 §8 / the call's 404 before the upload. */
export const NOT_UPLOADED_DETAIL = "The PCAP file has not been uploaded.";
/** A flow report asked for before the analysis is done (409). */
export const STILL_ANALYZING_DETAIL = pcapMessages.stillAnalyzing;
/** Spec 1 §8 'Upload', 413. */
export const TOO_LARGE_DETAIL = pcapMessages.tooLarge;

/** The analysis of a capture as the calls see it: done (with the result), or still on its way. */
export type AnalysisAnswer =
  | { state: "done"; analysis: PcapAnalysis; analyzedAt: Date }
  | { state: "queued" | "analyzing"; queuedAt: Date | null; startedAt: Date | null; size: number | null };

/** The failure a failed analysis answers, as the call answered it when it ran in the request. */
function failureOf(file: PcapFileRow): ApiError {
  const status = file.analysisFailureStatus === 413 ? 413 : file.analysisFailureStatus === 404 ? 404 : 422;
  return new ApiError(status, file.analysisFailure ?? PCAP_ANALYSIS_STOPPED.gaveUp);
}

const pending = (file: PcapFileRow): AnalysisAnswer => ({
  state: file.analysisState === "analyzing" ? "analyzing" : "queued",
  queuedAt: file.analysisQueuedAt,
  startedAt: file.analysisState === "analyzing" ? file.analysisStartedAt : null,
  size: file.size,
});

async function reread(deps: PlatformDeps, key: string): Promise<PcapFileRow | undefined> {
  const [row] = await deps.db.select().from(pcapFiles).where(eq(pcapFiles.pcapFileKey, key)).limit(1);
  return row;
}

/**
 * The analysis of the caller's capture (`file`, already checked to be theirs): the stored result
 * when it is done and its object unchanged; otherwise the analysis is asked for (once) and its
 * progress answered. Throws the failure of a failed analysis, 404 before the upload, 413 for an
 * object over the limit (possible through an S3 URL, which cannot carry a size limit).
 */
export async function analysisFor(deps: PlatformDeps, file: PcapFileRow, decodeAs: readonly PcapDecodeAs[] = []): Promise<AnalysisAnswer> {
  if (file.analysisState === "failed") throw failureOf(file);
  if (file.analysisState === "queued" || file.analysisState === "analyzing") {
    const now = await givenUpOn(deps, file);
    if (now.analysisState === "failed") throw failureOf(now);
    return pending(now);
  }
  const key = file.pcapFileKey;
  const store = objectStore(deps);
  const info = await store.stat(key);
  if (!info) throw notFound(NOT_UPLOADED_DETAIL);
  const [cached] = await deps.db
    .select({ result: pcapAnalyses.result, etag: pcapAnalyses.objectEtag, createdAt: pcapAnalyses.createdAt })
    .from(pcapAnalyses)
    .where(eq(pcapAnalyses.pcapFileKey, key))
    .limit(1);
  // The same object as analysed (an S3 URL may be used again until it expires: another object is analysed again).
  if (cached && cached.etag === info.etag) return { state: "done", analysis: cached.result as PcapAnalysis, analyzedAt: cached.createdAt };
  if (info.size > MAX_PCAP_BYTES) {
    await store.delete(key).catch(() => {});
    await recordFailure(deps, key, null, 413, TOO_LARGE_DETAIL);
    throw new ApiError(413, TOO_LARGE_DETAIL);
  }
  const asked = await requestAnalysis(deps, file, decodeAs);
  if (asked.analysisState === "failed") throw failureOf(asked);
  if (asked.analysisState === "done") return analysisFor(deps, asked, decodeAs);
  return pending(asked);
}

/**
 * Moves the file from its state (none, or done with another object) to `queued` and enqueues its
 * job in the same transaction; when another request did it first, nothing. Answers the row after.
 */
async function requestAnalysis(deps: PlatformDeps, file: PcapFileRow, decodeAs: readonly PcapDecodeAs[]): Promise<PcapFileRow> {
  const jobs = deps.jobs;
  // Every platform opens its job queue (platform/index.ts); a platform without one cannot analyse.
  if (!jobs) throw new ApiError(503, "The analysis queue is not running. Please try again.");
  const key = file.pcapFileKey;
  await deps.db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(pcapFiles)
      .set({ analysisState: "queued", analysisQueuedAt: new Date(), analysisStartedAt: null, analysisFinishedAt: null, analysisFailure: null, analysisFailureStatus: null, analysisJobId: null })
      .where(and(eq(pcapFiles.pcapFileKey, key), file.analysisState ? eq(pcapFiles.analysisState, file.analysisState) : isNull(pcapFiles.analysisState)))
      .returning({ key: pcapFiles.pcapFileKey });
    if (!claimed) return;
    // The decode-as rules travel with the job: whichever instance runs it (again) reads them there.
    const data: PcapAnalysisJob = decodeAs.length ? { pcap_file_key: key, decode_as: decodeAs.map(formatPcapDecodeAs) } : { pcap_file_key: key };
    const id = await jobs.send(queues.pcapAnalysis.name, data, { tx, singletonKey: key });
    // null: a job of this key is still live (`exclusive`), e.g. the last run of an object replaced since: it analyses the current object.
    const jobId = id ?? (await liveJobOf(jobs, key));
    await tx.update(pcapFiles).set({ analysisJobId: jobId }).where(eq(pcapFiles.pcapFileKey, key));
  });
  return (await reread(deps, key)) ?? file;
}

const LIVE = new Set(["created", "retry", "active"]);

async function liveJobOf(jobs: JobQueue, key: string): Promise<string | null> {
  const found = await jobs.boss.findJobs(queues.pcapAnalysis.name, { key, queued: true });
  const all = found.length ? found : await jobs.boss.findJobs(queues.pcapAnalysis.name, { key });
  return all.find((j) => LIVE.has(j.state))?.id ?? null;
}

/**
 * A queued or running analysis whose job the queue has given up on (failed after its last try,
 * e.g. its instance killed each time) or no longer has: recorded as failed, so the caller is told
 * instead of waiting for ever. Answers the row as it is now.
 */
async function givenUpOn(deps: PlatformDeps, file: PcapFileRow): Promise<PcapFileRow> {
  if (!deps.jobs || !file.analysisJobId) return file;
  const [job] = await deps.jobs.boss.findJobs(queues.pcapAnalysis.name, { id: file.analysisJobId });
  if (job && LIVE.has(job.state)) return file;
  // Its handler writes done or failed before the job completes: a job over whose row still says
  // queued or analyzing ended without it. Only if the row is still this job's and still pending.
  const [failed] = await deps.db
    .update(pcapFiles)
    .set({ analysisState: "failed", analysisFailureStatus: 422, analysisFailure: PCAP_ANALYSIS_STOPPED.gaveUp, analysisFinishedAt: new Date() })
    .where(and(eq(pcapFiles.pcapFileKey, file.pcapFileKey), eq(pcapFiles.analysisJobId, file.analysisJobId), inArray(pcapFiles.analysisState, ["queued", "analyzing"])))
    .returning();
  if (failed) log.warn({ key: file.pcapFileKey, job: file.analysisJobId, jobState: job?.state ?? "gone" }, "analysis given up by the queue: recorded as failed");
  return failed ?? (await reread(deps, file.pcapFileKey)) ?? file;
}

/** Records a failed analysis (of job `jobId`, when a job's run is what failed). */
async function recordFailure(deps: PlatformDeps, key: string, jobId: string | null, status: 404 | 413 | 422, message: string): Promise<void> {
  await deps.db
    .update(pcapFiles)
    .set({ analysisState: "failed", analysisFailureStatus: status, analysisFailure: message, analysisFinishedAt: new Date(), ...(jobId ? {} : { analysisJobId: null }) })
    .where(jobId ? and(eq(pcapFiles.pcapFileKey, key), eq(pcapFiles.analysisJobId, jobId)) : eq(pcapFiles.pcapFileKey, key));
}

/** The analysis engine the job runs (pcap.ts's pcapEngine; tests give it another). */
export interface AnalysisRunner {
  analyze(path: string, signal?: AbortSignal, request?: AnalyzeRequest): Promise<PcapAnalysis>;
}

/**
 * One run of a capture's analysis job: on this instance, in the analysis worker thread. Returns
 * (the job completes) when the analysis is written or failed for good; throws (the queue tries
 * again later) when it could not run to its end for a reason that is not the file's.
 */
export async function runAnalysisJob(deps: PlatformDeps, engine: AnalysisRunner, job: Job<PcapAnalysisJob>): Promise<{ state: PcapAnalysisState | "gone" | "skipped"; sessions?: number }> {
  const key = job.data.pcap_file_key;
  // Taken over from a run that died, or first: the row becomes this job's.
  const [mine] = await deps.db
    .update(pcapFiles)
    .set({ analysisState: "analyzing", analysisStartedAt: new Date(), analysisJobId: job.id })
    .where(and(eq(pcapFiles.pcapFileKey, key), inArray(pcapFiles.analysisState, ["queued", "analyzing"])))
    .returning();
  if (!mine) {
    // Deleted (retention, the account removed), or already done or failed by an earlier run of this
    // job that died before the queue heard of it: nothing to do.
    const row = await reread(deps, key);
    return { state: row ? "skipped" : "gone" };
  }
  const store = objectStore(deps);
  try {
    const info = await store.stat(key);
    if (!info) {
      // Gone from the store: the call answers 404 'not uploaded' again, and an upload to come is analysed then.
      await deps.db.update(pcapFiles).set({ analysisState: null, analysisJobId: null }).where(and(eq(pcapFiles.pcapFileKey, key), eq(pcapFiles.analysisJobId, job.id)));
      return { state: "gone" };
    }
    if (info.size > MAX_PCAP_BYTES) {
      await store.delete(key).catch(() => {});
      await recordFailure(deps, key, job.id, 413, TOO_LARGE_DETAIL);
      return { state: "failed" };
    }
    const copy = await store.getPath(key);
    let analysis: PcapAnalysis;
    try {
      const decodeAs = (job.data.decode_as ?? []).map(parsePcapDecodeAs).filter((d): d is PcapDecodeAs => d !== null);
      analysis = await engine.analyze(copy.path, job.signal, { decodeAs });
    } finally {
      await copy.release();
    }
    // One transaction, replacing: a second run's result (after a kill between this write and the
    // queue's "completed") is the same one row.
    const written = await deps.db.transaction(async (tx) => {
      const [still] = await tx
        .update(pcapFiles)
        .set({ analysisState: "done", analysisFinishedAt: new Date(), analysisFailure: null, analysisFailureStatus: null })
        .where(and(eq(pcapFiles.pcapFileKey, key), eq(pcapFiles.analysisJobId, job.id)))
        .returning({ accountId: pcapFiles.accountId, name: pcapFiles.pcapFileName });
      if (!still) return false;
      await tx
        .insert(pcapAnalyses)
        .values({ pcapFileKey: key, accountId: still.accountId, pcapFileName: still.name, objectEtag: info.etag, result: analysis })
        .onConflictDoUpdate({ target: pcapAnalyses.pcapFileKey, set: { pcapFileName: still.name, objectEtag: info.etag, result: analysis, createdAt: new Date() } });
      return true;
    });
    return written ? { state: "done", sessions: analysis.sessions.length } : { state: "skipped" };
  } catch (error) {
    if (isPcapFormatError(error)) {
      await recordFailure(deps, key, job.id, 422, error.message);
      return { state: "failed" };
    }
    if (error instanceof AnalysisTimeoutError) {
      await recordFailure(deps, key, job.id, 422, PCAP_ANALYSIS_STOPPED.timedOut);
      return { state: "failed" };
    }
    // The claim went away (its heartbeat was not seen in time): the queue runs it again.
    if (job.signal.aborted) throw error;
    if (job.retryCount >= queues.pcapAnalysis.retryLimit) {
      await recordFailure(deps, key, job.id, 422, PCAP_ANALYSIS_STOPPED.gaveUp);
      log.error({ err: error, key, job: job.id, try: job.retryCount + 1 }, "analysis failed, not tried again");
    } else {
      await deps.db.update(pcapFiles).set({ analysisState: "queued" }).where(and(eq(pcapFiles.pcapFileKey, key), eq(pcapFiles.analysisJobId, job.id)));
      log.warn({ err: error, key, job: job.id, try: job.retryCount + 1 }, "analysis failed, will try again");
    }
    throw error;
  }
}

/** Takes the pcap-analysis queue on this instance: one analysis at a time (the worker thread's). */
export async function workPcapAnalyses(jobs: JobQueue, deps: PlatformDeps, engine: AnalysisRunner): Promise<void> {
  await jobs.work<PcapAnalysisJob>(queues.pcapAnalysis.name, (job) => runAnalysisJob(deps, engine, job), 1);
}
