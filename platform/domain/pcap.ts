import { and, eq, isNull } from "drizzle-orm";
import { analysisFor, STILL_ANALYZING_DETAIL, TOO_LARGE_DETAIL, type AnalysisAnswer } from "./pcap-analysis.ts";
import { querySessions, type SessionQuery } from "./pcap-sessions.ts";
import { PCAP_ANALYSIS_TIMEOUT_MINUTES } from "../contract/pcap.ts";
import { accounts, apiLog, iamUsers, pcapAnalyses, pcapFiles } from "../db/schema.ts";
import type { Caller, PlatformDeps } from "../lib/context.ts";
import { ApiError, conflict, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { analyzeFileInWorker } from "../pcap/queue.ts";
import { flowReport, toSession, type FlowReport, type PcapSession as EngineSession } from "../pcap/report.ts";
import type { AnalysisResult, ConversationFigures } from "../pcap/types.ts";
import { formatPcapDecodeAs, type PcapDecodeAs } from "../contract/pcap.ts";
import type { PcapEncapsulationSummary } from "../contract/pcap.shapes.ts";
import { LocalObjectStore, objectStore, ObjectTooLargeError, type BodySource } from "../storage/index.ts";
import type { SignedPutQuery } from "../storage/signing.ts";

/**
 * The PCAP analyzer, a free tool of every signed-in caller (readonly IAM users included: it
 * changes nothing of the account's configuration). A capture is uploaded once under a key
 * `{account_id}_pcap-…`, analysed once, as a job on the shared queue (pcap-analysis.ts: the result
 * is stored in pcap_analyses), and its sessions then give flow reports and the PDF insights report.
 */

/** Spec 1 §9: one file of at most 10 GB. */
export { MAX_PCAP_BYTES } from "../contract/pcap.ts";
import { MAX_PCAP_BYTES } from "../contract/pcap.ts";
import { pcapMessages } from "../contract/messages.ts";
/** Signed upload URLs expire after 15 minutes. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** Spec 1 §8 'Upload', 413. */
export { STILL_ANALYZING_DETAIL, TOO_LARGE_DETAIL };
/** Spec 1 §8 'Upload': a report without data. */
export const NO_TEST_DATA_DETAIL = pcapMessages.noTestData;

/** An analysis still running after this long is stopped (a 10 GB capture takes a few minutes). */
export const ANALYSIS_TIMEOUT_MS = PCAP_ANALYSIS_TIMEOUT_MINUTES * 60 * 1000;

/** The upload size limit; tests lower it to exercise the 413 of a streamed body. */
export const pcapLimits = { maxBytes: MAX_PCAP_BYTES };

export const pcapFileNotFound = () => notFound("PCAP file not found.");
const tooLarge = () => new ApiError(413, TOO_LARGE_DETAIL);

/** Keys look like `acct-k3j9x0q1z7m2_pcap-0a1b2c3d4e5f6g7h`. */
export const pcapKeyPattern = /^[a-z0-9-]{1,100}_pcap-[a-z0-9]{16}$/;

function newPcapKey(accountId: string): string {
  return `${accountId}_${newId("pcap", 16)}`;
}

/** The caller's file of that key, or 404 (another account's key included). */
async function ownedFile(deps: PlatformDeps, accountId: string, key: string) {
  if (!key.startsWith(`${accountId}_`)) throw pcapFileNotFound();
  const [row] = await deps.db
    .select()
    .from(pcapFiles)
    .where(and(eq(pcapFiles.pcapFileKey, key), eq(pcapFiles.accountId, accountId)))
    .limit(1);
  if (!row) throw pcapFileNotFound();
  return row;
}

// ---------------------------------------------------------------------------------------------
// Uploads

export interface UploadUrl {
  s3_url: string;
  pcap_file_key: string;
  pcap_file_name: string;
}

/** A new capture's row under a new key; `uploadStartedAt` when its upload starts now. */
async function newPcapFile(deps: PlatformDeps, who: Caller, fileName: string, uploadStartedAt: Date | null = null): Promise<string> {
  const key = newPcapKey(who.accountId);
  await deps.db.insert(pcapFiles).values({ pcapFileKey: key, accountId: who.accountId, iamUserId: who.iamUserId, pcapFileName: fileName, uploadStartedAt });
  return key;
}

/**
 * A new key and a URL to PUT the file to (GET get-s3-upload-url). Embedded store: a signed,
 * single-use URL on the platform, `/api/v1/upload-pcap/{key}?expires&max&sig` (path-absolute:
 * the browser PUTs it to the console's origin, where /api/v1 is served). S3: a presigned PutObject URL.
 */
export async function createUploadUrl(deps: PlatformDeps, who: Caller, fileName: string): Promise<UploadUrl> {
  const key = await newPcapFile(deps, who, fileName);
  const url = await objectStore(deps).presignPut(key, { expiresIn: UPLOAD_URL_TTL_SECONDS, maxBytes: pcapLimits.maxBytes });
  return { s3_url: url, pcap_file_key: key, pcap_file_name: fileName };
}

export interface UploadDone {
  pcap_file_key: string;
  pcap_file_name: string;
  size: number;
}

/**
 * PUT upload-pcap/{key}: the target of the embedded store's signed URL. The signature is the
 * authorization; the first PUT claims the key (single use); the body is streamed to disk.
 */
export async function receiveSignedUpload(
  deps: PlatformDeps,
  key: string,
  query: SignedPutQuery,
  body: BodySource,
  contentLength: number | null,
): Promise<UploadDone> {
  const store = objectStore(deps);
  // With S3 the browser uploads to the bucket: this call is not in use.
  if (!(store instanceof LocalObjectStore) || !pcapKeyPattern.test(key)) throw pcapFileNotFound();
  const check = store.verifySignedPut(key, query);
  if (!check.ok) {
    throw new ApiError(403, check.reason === "expired" ? "This upload URL has expired." : "Invalid upload URL signature.");
  }
  if (contentLength != null && contentLength > check.maxBytes) throw tooLarge();
  const [claimed] = await deps.db
    .update(pcapFiles)
    .set({ uploadStartedAt: new Date() })
    .where(and(eq(pcapFiles.pcapFileKey, key), isNull(pcapFiles.uploadStartedAt)))
    .returning();
  if (!claimed) {
    const [exists] = await deps.db.select({ k: pcapFiles.pcapFileKey }).from(pcapFiles).where(eq(pcapFiles.pcapFileKey, key));
    if (!exists) throw pcapFileNotFound();
    throw new ApiError(403, "This upload URL has already been used.");
  }
  const size = await storeBody(deps, key, body, check.maxBytes, contentLength);
  await deps.db.update(pcapFiles).set({ size, uploadedAt: new Date() }).where(eq(pcapFiles.pcapFileKey, key));
  await logUpload(deps, claimed.accountId, claimed.iamUserId, `/upload-pcap/${key}`, "PUT", {}, 200);
  return { pcap_file_key: key, pcap_file_name: claimed.pcapFileName, size };
}

/** POST upload-pcap-stream: the console's no-JS upload, streamed into the store under a new key. */
export async function receiveStreamUpload(
  deps: PlatformDeps,
  who: Caller,
  fileName: string,
  body: BodySource,
  contentLength: number | null,
): Promise<UploadDone> {
  if (contentLength != null && contentLength > pcapLimits.maxBytes) throw tooLarge();
  const key = await newPcapFile(deps, who, fileName, new Date());
  let size: number;
  try {
    size = await storeBody(deps, key, body, pcapLimits.maxBytes, contentLength);
  } catch (err) {
    await deps.db.delete(pcapFiles).where(eq(pcapFiles.pcapFileKey, key));
    throw err;
  }
  await deps.db.update(pcapFiles).set({ size, uploadedAt: new Date() }).where(eq(pcapFiles.pcapFileKey, key));
  await logUpload(deps, who.accountId, who.iamUserId, "/upload-pcap-stream", "POST", { pcap_file_name: fileName }, 200);
  return { pcap_file_key: key, pcap_file_name: fileName, size };
}

async function storeBody(deps: PlatformDeps, key: string, body: BodySource, maxBytes: number, contentLength: number | null) {
  try {
    const { size } = await objectStore(deps).putStream(key, body, { maxBytes, contentLength });
    return size;
  } catch (err) {
    if (err instanceof ObjectTooLargeError) throw tooLarge();
    throw err;
  }
}

/**
 * The upload calls stream their bodies, so the API-log middleware (which reads the body) is not
 * run for them (platform/app.ts); they write their log line here, without the body.
 */
async function logUpload(
  deps: PlatformDeps,
  accountId: string,
  iamUserId: string | null,
  path: string,
  method: string,
  query: Record<string, string>,
  status: number,
) {
  const [who] = await deps.db
    .select({ accountUsername: accounts.username, iamUsername: iamUsers.username })
    .from(accounts)
    .leftJoin(iamUsers, and(eq(iamUsers.accountId, accounts.accountId), eq(iamUsers.iamUserId, iamUserId ?? "")))
    .where(eq(accounts.accountId, accountId))
    .limit(1);
  if (!who) return;
  await deps.db.insert(apiLog).values({
    id: newId("log"),
    accountId,
    iamUserId,
    accountUsername: who.accountUsername,
    iamUserUsername: who.iamUsername ?? null,
    method,
    urlPath: path,
    requestBody: null,
    queryParameters: query,
    status,
  });
}

// ---------------------------------------------------------------------------------------------
// Analysis

export interface AnalyzeView extends Omit<PcapAnalysis, "details" | "encapsulation" | "decode_as"> {
  encapsulation: PcapEncapsulationSummary | null;
  decode_as: string[];
  pcap_file_key: string;
  pcap_file_name: string;
  sessions_total: number;
  state: "done";
  analyzed_at: string;
}

/** analyze-s3-pcap's 202: the analysis is queued or running. */
export interface AnalyzeProgress {
  pcap_file_key: string;
  pcap_file_name: string;
  state: "queued" | "analyzing";
  queued_at: string | null;
  started_at: string | null;
  size: number | null;
}

/**
 * GET analyze-s3-pcap: the sessions of an uploaded capture once it is analysed. The first call
 * enqueues its analysis (a job any platform instance takes: pcap-analysis.ts) and answers its
 * progress, as do the calls after it until the analysis is done; then the stored result, as long
 * as the stored object has not changed (S3 URLs can be reused until they expire). A failed
 * analysis answers its failure (422 with the parser's message for a file that is not a capture).
 */
export async function analyzePcap(
  deps: PlatformDeps,
  who: Caller,
  key: string,
  fileName: string,
  query: SessionQuery = {},
  decodeAs: readonly PcapDecodeAs[] = [],
): Promise<AnalyzeView | AnalyzeProgress> {
  const file = await ownedFile(deps, who.accountId, key);
  const answer = await analysisFor(deps, file, decodeAs);
  if (answer.state !== "done") return progressView(key, fileName, answer);
  const { details: _details, sessions, encapsulation, decode_as, ...analysis } = answer.analysis;
  // The sessions searched, sorted and paged (pcap-sessions.ts: the analysis is one JSON document).
  const { items, total } = querySessions(sessions.map(withMirrorFields), query);
  return {
    pcap_file_key: key,
    pcap_file_name: fileName,
    ...analysis,
    sessions: items,
    sessions_total: total,
    state: "done",
    analyzed_at: answer.analyzedAt.toISOString(),
    encapsulation: encapsulation ?? null,
    decode_as: decode_as ?? [],
  };
}

/** An analysis stored before mirror sessions existed has rows without them: plain traffic. */
export function withMirrorFields(s: PcapSession): PcapSession {
  return { ...s, mirror_session: s.mirror_session ?? null, encapsulation: s.encapsulation ?? null, vni: s.vni ?? null };
}

function progressView(key: string, fileName: string, answer: Exclude<AnalysisAnswer, { state: "done" }>): AnalyzeProgress {
  return {
    pcap_file_key: key,
    pcap_file_name: fileName,
    state: answer.state,
    queued_at: answer.queuedAt?.toISOString() ?? null,
    started_at: answer.startedAt?.toISOString() ?? null,
    size: answer.size,
  };
}

/** The stored analysis of the caller's capture; asked for first when there is none (409 until it is done). */
async function analysisOf(deps: PlatformDeps, who: Caller, key: string): Promise<{ fileName: string; analysis: PcapAnalysis }> {
  const file = await ownedFile(deps, who.accountId, key);
  const [cached] = await deps.db
    .select({ result: pcapAnalyses.result, fileName: pcapAnalyses.pcapFileName })
    .from(pcapAnalyses)
    .where(eq(pcapAnalyses.pcapFileKey, key))
    .limit(1);
  if (cached) return { fileName: cached.fileName, analysis: cached.result as PcapAnalysis };
  const answer = await analysisFor(deps, file);
  if (answer.state !== "done") throw conflict(STILL_ANALYZING_DETAIL);
  return { fileName: file.pcapFileName, analysis: answer.analysis };
}

export interface FlowReportView {
  pcap_file_key: string;
  pcap_file_name: string;
  session: PcapSession;
  report: PcapFlowReport;
}

/** POST perform-flow-analysis: the flow analysis report of one session of an analysed capture. */
export async function flowAnalysis(deps: PlatformDeps, who: Caller, key: string, sessionId: string): Promise<FlowReportView> {
  const { fileName, analysis } = await analysisOf(deps, who, key);
  const found = pcapEngine.report(analysis, sessionId);
  if (!found) throw notFound(NO_TEST_DATA_DETAIL);
  return { pcap_file_key: key, pcap_file_name: fileName, session: withMirrorFields(found.session), report: found.report };
}

// ---------------------------------------------------------------------------------------------
// The analysis engine: platform/pcap (parser, tshark-exact conversation analysis, session rows and
// flow reports, worker queue). Everything the calls need from it goes through `pcapEngine`.

export interface PcapSummary {
  packets: number;
  bytes: number;
  /** seconds between the first and the last packet (0 for an empty capture) */
  duration: number;
  sessions: number;
  degraded_sessions: number;
  /** share of sessions whose performance is not good, in percent (0–100, 2 decimals) */
  degraded_percent: number;
}

/** Spec 1 §3 'PCAP session': report.ts's row, plus the ids of the matching product objects. */
export interface PcapSession extends EngineSession {
  /** null: sessions are not matched to endpoints, app services or nodes yet */
  ep_id: string | null;
  app_service_id: string | null;
  node_id: string | null;
}

/** Spec 1 §3 'Flow analysis report' (platform/pcap/report.ts). */
export type PcapFlowReport = FlowReport;

/** What is cached per capture: the call's answer, plus the figures behind each session for its report. */
export interface PcapAnalysis {
  summary: PcapSummary;
  sessions: PcapSession[];
  /** e.g. the file was cut short in the middle of a packet (the packets before it are analysed) */
  warnings: string[];
  /** the conversation figures of each session, by session_id (not sent by analyze-s3-pcap) */
  details: Record<string, ConversationFigures>;
  /** mirrored traffic: the encapsulations and mirror sessions; null for plain traffic (absent: stored before issue 59) */
  encapsulation?: PcapEncapsulationSummary | null;
  /** the decode-as rules it was analysed with, "udp.port==8472,vxlan" (absent: stored before issue 59) */
  decode_as?: string[];
}

/** How a capture is analysed: decode-as rules besides the standard ports (issue 59). */
export interface AnalyzeRequest {
  decodeAs?: readonly PcapDecodeAs[];
}

export interface PcapEngine {
  /**
   * Analyses the capture file at `path` off the request thread. Throws PcapFormatError for a bad
   * file, AnalysisTimeoutError past the time limit; stops when `signal` aborts.
   */
  analyze(path: string, signal?: AbortSignal, request?: AnalyzeRequest): Promise<PcapAnalysis>;
  /** The session and its flow report, or null for an unknown session id. */
  report(analysis: PcapAnalysis, sessionId: string): { session: PcapSession; report: PcapFlowReport } | null;
}

/** The sessions and summary of an analysed capture (sessions in time order). */
export function toAnalysis(result: AnalysisResult, decodeAs: readonly PcapDecodeAs[] = []): PcapAnalysis {
  const sessions: PcapSession[] = [];
  const details: Record<string, ConversationFigures> = {};
  for (const conv of result.conversations) {
    const row = toSession(conv);
    sessions.push({ ...row, ep_id: null, app_service_id: null, node_id: null });
    details[row.session_id] = conv;
  }
  sessions.sort((x, y) => (x.start_time ?? "\uffff").localeCompare(y.start_time ?? "\uffff") || x.session_id.localeCompare(y.session_id));
  const degraded = sessions.filter((s) => s.performance !== "good").length;
  return {
    summary: {
      packets: result.packets,
      bytes: result.bytes,
      duration: result.duration ?? 0,
      sessions: sessions.length,
      degraded_sessions: degraded,
      degraded_percent: sessions.length ? Math.round((degraded / sessions.length) * 10000) / 100 : 0,
    },
    sessions,
    warnings: result.warnings,
    details,
    encapsulation: encapsulationSummary(result, sessions),
    decode_as: decodeAs.map(formatPcapDecodeAs),
  };
}

/** The mirror sessions of an encapsulated capture, each with the number of sessions seen through it. */
function encapsulationSummary(result: AnalysisResult, sessions: readonly PcapSession[]): PcapEncapsulationSummary | null {
  const found = result.encapsulation;
  if (!found) return null;
  const counts = new Map<string, number>();
  for (const s of sessions) if (s.mirror_session) counts.set(s.mirror_session, (counts.get(s.mirror_session) ?? 0) + 1);
  return {
    encapsulations: [...found.encapsulations],
    mirror_sessions: found.sessions.map((m) => ({ ...m, sessions: counts.get(m.name) ?? 0 })),
  };
}

export const pcapEngine: PcapEngine = {
  async analyze(path, signal, request = {}) {
    const decodeAs = request.decodeAs ?? [];
    // In the analysis worker thread, one capture at a time (platform/pcap/queue.ts).
    return toAnalysis(await analyzeFileInWorker(path, { sha256: false, timeoutMs: ANALYSIS_TIMEOUT_MS, signal, decodeAs }), decodeAs);
  },
  report(analysis, sessionId) {
    const session = analysis.sessions.find((s) => s.session_id === sessionId);
    const conv = analysis.details[sessionId];
    if (!session || !conv) return null;
    return { session, report: flowReport(conv) };
  },
};
