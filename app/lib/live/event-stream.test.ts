import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, openEventStream, SseParser, type StreamMessage, type StreamState } from "./event-stream.ts";

/* The SSE client's reconnect rule (spec 3 §4, §8, §9), on fake timers. */

describe("SseParser", () => {
  it("reads messages split anywhere, with ids, events, comments and CRLF", () => {
    const p = new SseParser();
    expect(p.push(": keep-alive\n\nid: 1\nda")).toEqual([]);
    expect(p.push('ta: {"a":1}\n\r')).toEqual([]);
    expect(p.push("\nid: 2\r\nevent: step\r\ndata: x\r\ndata: y\r\n\r\n")).toEqual([
      { id: "1", event: "message", data: '{"a":1}' },
      { id: "2", event: "step", data: "x\ny" },
    ]);
    expect(p.lastEventId).toBe("2");
  });
});

describe("backoffDelay", () => {
  it("starts at 1 s and doubles to at most 30 s", () => {
    const b = { startMs: 1000, maxMs: 30_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => backoffDelay(n, b))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });
});

/** A fake server: each fetch gets the next scripted answer. */
function fakeServer() {
  const calls: { url: string; lastEventId: string | null }[] = [];
  const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const answers: (() => Promise<Response>)[] = [];
  const enc = new TextEncoder();
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ url: String(url), lastEventId: headers["last-event-id"] ?? null });
    const next = answers.shift();
    if (next) return next();
    // Default: an open stream the test writes to.
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    init?.signal?.addEventListener("abort", () => controller.error(new DOMException("aborted", "AbortError")));
    streams.push(controller);
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  });
  return {
    fetch,
    calls,
    /** The next fetch fails as a lost network does. */
    failNext: () => answers.push(() => Promise.reject(new TypeError("network error"))),
    answerNext: (status: number) => answers.push(async () => new Response("no", { status })),
    send: (i: number, text: string) => streams[i]!.enqueue(enc.encode(text)),
    drop: (i: number) => streams[i]!.error(new TypeError("connection reset")),
    end: (i: number) => streams[i]!.close(),
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

describe("openEventStream", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  function open(server: ReturnType<typeof fakeServer>, isFinal?: (m: StreamMessage) => boolean) {
    const messages: StreamMessage[] = [];
    const states: StreamState[] = [];
    const handle = openEventStream({ url: "/stream", onMessage: (m) => messages.push(m), onState: (s) => states.push(s), isFinal, fetch: server.fetch as unknown as typeof fetch });
    return { messages, states, handle };
  }

  it("reconnects after 1, 2, 4, 8, 16, 30, 30 s while the connection keeps failing", async () => {
    const server = fakeServer();
    for (let i = 0; i < 8; i++) server.failNext();
    const { states } = open(server);
    await flush();
    expect(server.fetch).toHaveBeenCalledTimes(1);
    const waits = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000];
    for (const [i, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(server.fetch).toHaveBeenCalledTimes(i + 1); // not a millisecond early
      await vi.advanceTimersByTimeAsync(1);
      expect(server.fetch).toHaveBeenCalledTimes(i + 2);
    }
    expect(states.filter((s) => s.kind === "retrying").map((s) => (s as { delayMs: number }).delayMs)).toEqual([...waits, 30_000]);
  });

  it("resumes after the last event once reconnected, and starts again from 1 s after a message", async () => {
    const server = fakeServer();
    const { messages, states } = open(server);
    await flush();
    server.send(0, "id: 1\ndata: one\n\nid: 2\ndata: two\n\n");
    await flush();
    server.drop(0);
    await flush();
    expect(states.at(-1)).toEqual({ kind: "retrying", attempt: 1, delayMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.calls[1]).toEqual({ url: "/stream", lastEventId: "2" });
    server.drop(1);
    await flush();
    expect(states.at(-1)).toEqual({ kind: "retrying", attempt: 2, delayMs: 2000 });
    await vi.advanceTimersByTimeAsync(2000);
    server.send(2, "id: 3\ndata: three\n\n");
    await flush();
    server.drop(2);
    await flush();
    expect(states.at(-1)).toEqual({ kind: "retrying", attempt: 1, delayMs: 1000 });
    expect(messages.map((m) => m.data)).toEqual(["one", "two", "three"]);
  });

  it("does not reconnect after the server closes the stream", async () => {
    const server = fakeServer();
    const { states } = open(server);
    await flush();
    server.send(0, "id: 1\ndata: one\n\n");
    server.end(0);
    await flush();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(server.fetch).toHaveBeenCalledTimes(1);
    expect(states.at(-1)).toEqual({ kind: "closed", reason: "server" });
  });

  it("closes itself after the final message", async () => {
    const server = fakeServer();
    const { messages, states } = open(server, (m) => m.data === "done");
    await flush();
    server.send(0, "id: 1\ndata: step\n\nid: 2\ndata: done\n\nid: 3\ndata: never\n\n");
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(messages.map((m) => m.data)).toEqual(["step", "done"]);
    expect(states.at(-1)).toEqual({ kind: "closed", reason: "final" });
    expect(server.fetch).toHaveBeenCalledTimes(1);
  });

  it("retries an unavailable server, gives up on a refusal, and stops on close()", async () => {
    const server = fakeServer();
    server.answerNext(503);
    server.answerNext(404);
    const { states, handle } = open(server);
    await flush();
    expect(states.at(-1)).toEqual({ kind: "retrying", attempt: 1, delayMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(states.at(-1)).toEqual({ kind: "closed", reason: "refused", status: 404 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.fetch).toHaveBeenCalledTimes(2);

    const again = fakeServer();
    again.failNext();
    const second = open(again);
    await flush();
    second.handle.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(again.fetch).toHaveBeenCalledTimes(1);
    expect(second.states.at(-1)).toEqual({ kind: "closed", reason: "stopped" });
    handle.close();
  });
});
