/*
 * A server-sent event stream client with the reconnect rule of spec 3 §4, §8, §9: on a lost
 * connection it tries again after 1 s, then 2, 4, 8, 16 and 30 s (doubling, at most 30 s), resuming
 * after the last event it got (Last-Event-ID); when the server closes the stream normally it does
 * not reconnect. Built on fetch rather than EventSource, which reconnects by itself and cannot tell
 * a server's close from a lost connection. Also used on the server (the no-JS progress page reads
 * the upstream stream with `SseParser`). No dependencies: shipped to the browser.
 */

export interface StreamMessage {
  /** The `id:` field (null when the message has none). */
  id: string | null;
  /** The `event:` field; "message" by default. */
  event: string;
  data: string;
}

/** Parses text/event-stream as it arrives (WHATWG HTML §9.2.6): blank lines end a message. */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | null = null;
  /** The last id seen: what a reconnect resumes after. */
  lastEventId: string | null = null;

  /** Feeds a chunk; answers the messages it completed. */
  push(chunk: string): StreamMessage[] {
    this.buffer += chunk;
    const out: StreamMessage[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const width = this.buffer.startsWith("\r\n", nl) ? 2 : 1;
      // A lone \r at the end of a chunk may be the first half of \r\n: wait for more.
      if (width === 1 && this.buffer[nl] === "\r" && nl === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(nl + width);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): StreamMessage | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const message = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
      this.data = [];
      this.event = "";
      return message;
    }
    if (line.startsWith(":")) return null; // a comment (keep-alive)
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = this.lastEventId = value;
    return null;
  }
}

/** Where the stream is: what the view says ("Reconnecting in 4 s…"). */
export type StreamState =
  | { kind: "connecting"; attempt: number }
  | { kind: "open" }
  | { kind: "retrying"; attempt: number; delayMs: number }
  | { kind: "closed"; reason: "final" | "server" | "stopped" | "refused"; status?: number };

export interface BackoffOptions {
  startMs: number;
  maxMs: number;
}

/** The wait before reconnect number `attempt` (0-based): start, doubling, at most max. */
export const backoffDelay = (attempt: number, { startMs, maxMs }: BackoffOptions) => Math.min(maxMs, startMs * 2 ** attempt);

export interface EventStreamOptions {
  url: string;
  /** Resume after this id (the events the page already shows). */
  lastEventId?: string | null;
  onMessage: (message: StreamMessage) => void;
  /** The message after which the client closes (the test's final message). */
  isFinal?: (message: StreamMessage) => boolean;
  onState?: (state: StreamState) => void;
  backoff?: BackoffOptions;
  /** For tests. */
  fetch?: typeof fetch;
}

export interface EventStreamHandle {
  close(): void;
}

/** Opens the stream; reconnects with backoff until the final message, the server's close, or close(). */
export function openEventStream(options: EventStreamOptions): EventStreamHandle {
  const backoff = options.backoff ?? { startMs: 1000, maxMs: 30_000 };
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  let lastEventId = options.lastEventId ?? null;
  let attempt = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let controller: AbortController | null = null;
  const setState = (s: StreamState) => options.onState?.(s);

  const finish = (reason: "final" | "server" | "stopped" | "refused", status?: number) => {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
    setState(status === undefined ? { kind: "closed", reason } : { kind: "closed", reason, status });
  };

  const retry = () => {
    if (stopped) return;
    const delayMs = backoffDelay(attempt, backoff);
    attempt += 1;
    setState({ kind: "retrying", attempt, delayMs });
    timer = setTimeout(() => void connect(), delayMs);
  };

  async function connect() {
    if (stopped) return;
    timer = null;
    controller = new AbortController();
    setState({ kind: "connecting", attempt });
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (lastEventId) headers["last-event-id"] = lastEventId;
    let response: Response;
    try {
      response = await doFetch(options.url, { headers, signal: controller.signal, cache: "no-store", credentials: "same-origin" });
    } catch {
      return retry();
    }
    if (stopped) return;
    if (!response.ok || !response.body) {
      void response.body?.cancel().catch(() => undefined);
      // A refusal (gone, not allowed) does not change by asking again; an unavailable server may.
      if (response.status >= 500 || response.status === 429) return retry();
      return finish("refused", response.status);
    }
    setState({ kind: "open" });
    const parser = new SseParser();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (stopped) return;
        if (done) return finish("server");
        for (const message of parser.push(value)) {
          if (message.id !== null) lastEventId = message.id;
          attempt = 0; // the connection works: the next loss starts again from 1 s
          options.onMessage(message);
          if (options.isFinal?.(message)) return finish("final");
          if (stopped) return;
        }
      }
    } catch {
      if (!stopped) retry();
    }
  }

  void connect();
  return { close: () => finish("stopped") };
}
