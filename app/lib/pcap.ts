/*
 * The PCAP analyzer's constants and messages (spec 1 §5 'PCAP file', §8 'Upload', §9), shared by
 * the browser (the JS upload) and the server (the no-JS upload, loaders). No React, no Node.
 */

import { detailMessages, detailOf as detailField } from "./platform-detail.ts";
import { formatNumber } from "./format.ts";
import { safePath } from "./redirect.ts";

import { MAX_PCAP_BYTES, pcapEndpoint } from "../../platform/contract/pcap.ts";

/** The platform's answers and limits (platform/contract/pcap.ts): declared once, there. */
export {
  MAX_PCAP_BYTES,
  PCAP_ANALYSIS_STOPPED,
  pcapClientRuleSentence,
  pcapClientRuleText,
  pcapEncapsulationLabel,
  pcapMirrorSessionText,
  parsePcapDecodeAs,
  formatPcapDecodeAs,
  PCAP_ENCAPSULATIONS,
  PCAP_MAX_VNI,
  type PcapEncapsulation,
  type PcapEncapsulationSummary,
  PCAP_DEFAULT_PAGE_SIZE,
  PCAP_PAGE_SIZES,
  PCAP_SESSION_SORTABLE,
  type PcapAnalysis,
  type PcapAnalysisProgress,
  type PcapFlowReport as FlowReport,
  type PcapSession,
  type PcapSummary,
} from "../../platform/contract/pcap.ts";
import { pcapMessages } from "../../platform/contract/messages.ts";

/** Spec 1 §5: the code of a file refused before the upload. */
export const FILE_TOO_LARGE_CODE = "file-too-large";

/** Spec 1 §8 'Upload'. */
export const messages = {
  fileTooLarge:
    "Sorry, we can only accept file size less than 10GB at this time. You may filter this pcap file with a wireshark to reduce its size and try again.",
  uploadTooLarge: pcapMessages.tooLarge,
  unknown: "Unknown error",
  noUploadDetails: "Failed to get upload details.",
  noTestData: pcapMessages.noTestData,
  analyzed: "Successfully analyzed.",
  /** Not in the spec's catalogue: a submitted form without a file (the input is `required`, so only old browsers). */
  noFile: "Please choose a PCAP file to upload.",
  /** Not in the spec's catalogue: several files dropped at once (spec 1 §5: at most 1 file). */
  oneFile: "Please choose only one file.",
  /** The platform could not read the file as a capture (422): its parser detail goes to the log only. */
  notCapture: "This file is not a packet capture (pcap or pcapng).",
  /** Not in the spec's catalogue: the analysis is a job on the platform's queue (202 until done). */
  analysisQueued: "Waiting for the analyzer…",
  analyzing: "Analyzing…",
  beingAnalyzed: "The capture is being analyzed",
  sessionsAppear: "Its sessions appear here when it is done.",
  refreshToSee: "Refresh to see its sessions when it is done.",
  /** The sessions' CSV asked for before the analysis is done. */
  stillAnalyzing: pcapMessages.stillAnalyzing,
  /** Not in the spec's catalogue: the upload's decode-as rule is not one (issue 59). */
  badDecodeAs: "The decode-as rule must be a UDP port from 1 to 65535 and VXLAN or GENEVE.",
} as const;

/** Codes of the upload errors that the no-JS upload passes back in the page URL (`?upload_error=`). */
export const uploadErrorCodes = { "not-capture": messages.notCapture } as const;
export type UploadErrorCode = keyof typeof uploadErrorCodes;

/** `?upload_error=` → its sentence, or null (unknown codes are ignored: no free text from the URL). */
export function uploadErrorFromCode(code: string | null | undefined): string | null {
  return code && Object.hasOwn(uploadErrorCodes, code) ? uploadErrorCodes[code as UploadErrorCode] : null;
}

/** The hint under the file input (the no-JS path cannot check the size before sending). */
export const FILE_HINT = "One pcap or pcapng capture, at most 10 GB (10737418240 bytes).";

/** Zoom of the PDF preview, in percent. */
export const ZOOM_MIN = 50;
export const ZOOM_MAX = 200;
export const ZOOM_STEP = 25;
export const ZOOM_DEFAULT = 100;

/** `?zoom=` → a zoom level within 50–200 (multiples of 25), else the default. */
export function parseZoom(raw: string | null | undefined): number {
  if (!raw || !/^\d{1,3}$/.test(raw)) return ZOOM_DEFAULT;
  const n = Number(raw);
  if (n < ZOOM_MIN || n > ZOOM_MAX) return ZOOM_DEFAULT;
  return Math.round(n / ZOOM_STEP) * ZOOM_STEP;
}

/** The client-side check before any request (spec 1 §5): null when the file may be sent. */
export function checkPcapFile(file: { size: number } | null | undefined): { code: string; message: string } | null {
  if (!file) return null;
  if (file.size > MAX_PCAP_BYTES) return { code: FILE_TOO_LARGE_CODE, message: messages.fileTooLarge };
  return null;
}

/** A FastAPI-style `detail` as one line of text, or null. */
export function detailOf(body: unknown): string | null {
  let parsed = body;
  if (typeof body === "string") {
    const text = body.trim();
    if (!text) return null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // An S3 error is XML: <Error><Code>…</Code><Message>…</Message></Error>.
      const xml = /<Message>([^<]*)<\/Message>/i.exec(text);
      if (xml?.[1]) return xml[1];
      return text.length <= 300 && !text.startsWith("<") ? text : null;
    }
  }
  if (!parsed || typeof parsed !== "object") return null;
  // The detail is read as everywhere else in the console (./platform-detail.ts).
  const detail = "detail" in parsed ? detailField(parsed) : undefined;
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail)) {
    const msgs = detailMessages(detail).filter((m) => m && m !== "[object Object]");
    return msgs.length ? msgs.join(" ") : null;
  }
  const message = (parsed as { message?: unknown }).message;
  return typeof message === "string" && message ? message : null;
}

export interface UploadOutcome {
  /** The HTTP status; 0 when no response arrived (network error, CORS, abort). */
  status: number;
  /** The response body (text or parsed JSON). */
  body?: unknown;
  /** The response's status text (for 'Error {status}: {message}' when there is no detail). */
  statusText?: string;
  /** The user pressed Cancel. */
  aborted?: boolean;
}

/**
 * Spec 1 §8 'Upload': the message for a failed upload (or analysis), or null for none
 * (success, or a cancellation, which is silent).
 *   400 and 500 → the server detail; 413 → 'Error: Chosen file is too large to upload.';
 *   other statuses → 'Error {status}: {message}'; anything else → 'Unknown error'.
 */
export function uploadErrorMessage(outcome: UploadOutcome): string | null {
  if (outcome.aborted) return null;
  const { status } = outcome;
  if (status >= 200 && status < 300) return null;
  if (status === 413) return messages.uploadTooLarge;
  if (!Number.isInteger(status) || status < 100) return messages.unknown;
  const detail = detailOf(outcome.body);
  if ((status === 400 || status === 500) && detail) return detail;
  const message = detail ?? (outcome.statusText?.trim() || statusTexts[status] || "Request failed");
  return `Error ${status}: ${message}`;
}

const statusTexts: Record<number, string> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** What get-s3-upload-url answers; null when it is missing a field ('Failed to get upload details.'). */
export interface UploadDetails {
  s3_url: string;
  pcap_file_key: string;
  pcap_file_name: string;
}
export function uploadDetails(body: unknown): UploadDetails | null {
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  if (typeof b.s3_url !== "string" || !b.s3_url || typeof b.pcap_file_key !== "string" || !b.pcap_file_key) return null;
  const name = typeof b.pcap_file_name === "string" && b.pcap_file_name ? b.pcap_file_name : null;
  if (!name) return null;
  return { s3_url: b.s3_url, pcap_file_key: b.pcap_file_key, pcap_file_name: name };
}

/** The share of progress announced to screen readers: 0, 25, 50, 75 or 100. */
export function progressStep(percent: number): number {
  if (!Number.isFinite(percent) || percent <= 0) return 0;
  if (percent >= 100) return 100;
  return Math.floor(percent / 25) * 25;
}

/** Percent of `loaded` out of `total` (whole number, 0–100). */
export function percentOf(loaded: number, total: number): number {
  if (!total || total <= 0) return loaded > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** Only a same-site path may be the Close link's target (never an open redirect; ./redirect.ts). */
export function safeFrom(raw: string | null | undefined, fallback = "/main-dashboard"): string {
  return safePath(raw, fallback, ["/pcap-analyzer", "/login", "/logout", "/api"]);
}

/** A file name the platform accepts (1–255 characters, no path separators or control characters). */
export function cleanFileName(name: string | null | undefined): string {
  const base = (name ?? "").split(/[/\\]/).pop() ?? "";
  const clean = base.replace(/[\u0000-\u001F\u007F]/g, "").slice(0, 255);
  return clean && clean !== "." && clean !== ".." ? clean : "capture.pcap";
}

export function formatCount(n: number): string {
  return Number.isFinite(n) ? formatNumber(n) : "—";
}

/** Seconds as text: '0.575 s', '1 min 5 s', '2 h 3 min'. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "—";
  if (seconds < 60) return `${formatNumber(Number(seconds.toFixed(3)))} s`;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h ? `${h} h ${m} min` : `${m} min ${rest} s`;
}

/** A percentage as text without trailing zeros: 0 → '0', 33.33 → '33.33'. */
export function formatPercent(p: number): string {
  if (!Number.isFinite(p)) return "0";
  return formatNumber(Number(p.toFixed(2)), 2);
}

/** An ISO time with nanoseconds as 'YYYY-MM-DD HH:MM:SS.mmm' (UTC, fixed format). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d{1,3})?/.exec(iso);
  if (!m) return iso;
  return `${m[1]} ${m[2]}${m[3] ?? ""}`;
}

/** An address and port as one endpoint: '10.0.0.1:443', '[2001:db8::1]:443'. */
export const endpoint = pcapEndpoint;
