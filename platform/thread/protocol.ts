/*
 * The messages between the console's thread and the platform thread (host.ts ↔ worker.ts).
 * A body crosses as an ArrayBuffer when it is small and whole (JSON calls, the common case:
 * one message, no copy), and as a transferred web ReadableStream otherwise (PCAP uploads,
 * PDF and other downloads, event streams), so nothing large is ever buffered in between.
 */

import type { ScopeMetrics } from "@opentelemetry/sdk-metrics";

export type Body = ArrayBuffer | ReadableStream<Uint8Array> | null;

export interface CallMessage {
  kind: "call";
  id: number;
  method: string;
  url: string;
  headers: [string, string][];
  body: Body;
}

export interface AbortMessage {
  kind: "abort";
  id: number;
}

/**
 * A plain call (the console's JSON calls): a text body in, the answer's text out. No Request,
 * Response or stream is made on the console's thread for it, which is most of a call's cost there.
 */
export interface TextCallMessage {
  kind: "text-call";
  id: number;
  method: string;
  url: string;
  headers: [string, string][];
  body: string | null;
}

export interface TextAnswerMessage {
  kind: "text-answer";
  id: number;
  status: number;
  headers: [string, string][];
  text: string;
}

/** Close the platform (the database checkpoints and closes), then end the thread. */
export interface CloseMessage {
  kind: "close";
}

/** The thread's metrics for the main thread's scrape (server/observe.mjs): answered by MetricsAnswerMessage. */
export interface MetricsMessage {
  kind: "metrics";
  id: number;
}

export type HostMessage = CallMessage | TextCallMessage | AbortMessage | CloseMessage | MetricsMessage;

export interface AnswerMessage {
  kind: "answer";
  id: number;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Body;
}

export interface FailMessage {
  kind: "fail";
  id: number;
  message: string;
}

export interface ReadyMessage {
  kind: "ready";
}

export interface StartFailedMessage {
  kind: "start-failed";
  message: string;
}

export interface ClosedMessage {
  kind: "closed";
}

/** The thread's scope metrics (OpenTelemetry ScopeMetrics, plain data that crosses as it is). */
export interface MetricsAnswerMessage {
  kind: "metrics-answer";
  id: number;
  scopeMetrics: ScopeMetrics[];
}

export type WorkerMessage = AnswerMessage | TextAnswerMessage | FailMessage | ReadyMessage | StartFailedMessage | ClosedMessage | MetricsAnswerMessage;

/** What a plain call answers (platform.server.ts `platformText`). */
export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** Bodies up to this size (with a known length) are read whole and sent as one buffer. */
export const WHOLE_BODY_LIMIT = 4 * 1024 * 1024;

/** Content types that are always whole documents, never streams. */
export function isWholeType(contentType: string | null): boolean {
  if (!contentType) return true;
  return /^(application\/(json|problem\+json)|text\/(html|plain))/i.test(contentType);
}

/**
 * Reads a body for sending: whole (an ArrayBuffer, listed for transfer) when it is small and
 * finite, else the stream itself (transferred).
 */
export async function packBody(
  body: ReadableStream<Uint8Array> | null,
  headers: Headers,
  read: () => Promise<ArrayBuffer>,
  transfer: Transferable[],
): Promise<Body> {
  if (!body) return null;
  const length = headers.get("content-length");
  const whole = length !== null ? Number(length) <= WHOLE_BODY_LIMIT : isWholeType(headers.get("content-type")) && !headers.get("x-stream");
  if (whole) {
    const buffer = await read();
    transfer.push(buffer);
    return buffer;
  }
  // why: a web ReadableStream is transferable between threads, but TypeScript's DOM lib does not list it.
  transfer.push(body as unknown as Transferable);
  return body;
}
