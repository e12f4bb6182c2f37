import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { pollSpeedTest, speedTestProgress, type SpeedTestPoll } from "./speed-test.ts";
import type { SpeedTestAnswer } from "../../../platform/contract/devices.ts";

/* The speed-test poller with fake timers (spec 3 §4, §8, §9): 1.2 s ticks, the result read every 4th, 404 goes on, 120 s time-out. */

const answer: SpeedTestAnswer = {
  status: "completed",
  data: {
    test_type: "ookla",
    download_speed_mbps: 93.4,
    upload_speed_mbps: 41.2,
    ping_latency_ms: 8.1,
    ping_jitter_ms: 0.7,
    packet_loss: 0,
    server: "Frankfurt",
    result_url: "https://www.speedtest.net/result/c/1",
    started_at: "2026-11-25T12:00:00.000Z",
    finished_at: "2026-11-25T12:00:12.000Z",
    raw: {},
  },
};

function setup(results: SpeedTestPoll[], finishesIn = 12_000) {
  const start = Date.now();
  const fetchResult = vi.fn(async () => results.shift() ?? { state: "pending" as const });
  const calls = { progress: [] as number[], done: vi.fn(), timeout: vi.fn(), error: vi.fn() };
  const poller = pollSpeedTest({
    startedAt: start,
    finishesAt: start + finishesIn,
    fetchResult,
    onProgress: (p) => calls.progress.push(p),
    onDone: calls.done,
    onTimeout: calls.timeout,
    onError: calls.error,
  });
  return { fetchResult, calls, poller };
}

describe("pollSpeedTest", () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date("2026-11-25T12:00:00Z") }));
  afterEach(() => vi.useRealTimers());

  it("ticks every 1.2 s and reads the result on every 4th tick only", async () => {
    const { fetchResult, calls, poller } = setup([]);
    await vi.advanceTimersByTimeAsync(1199);
    expect(calls.progress).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.progress).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1200 * 2);
    expect(fetchResult).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1200);
    expect(fetchResult).toHaveBeenCalledTimes(1); // 4.8 s
    await vi.advanceTimersByTimeAsync(1200 * 4);
    expect(fetchResult).toHaveBeenCalledTimes(2); // 9.6 s
    expect(calls.progress).toEqual([10, 20, 30, 40, 50, 60, 70, 80]);
    poller.stop();
  });

  it("goes on after 'not ready' (404) and finishes at 100 % with the result", async () => {
    const { fetchResult, calls } = setup([{ state: "pending" }, { state: "pending" }, { state: "done", answer }]);
    await vi.advanceTimersByTimeAsync(4800 * 3);
    expect(fetchResult).toHaveBeenCalledTimes(3);
    expect(calls.done).toHaveBeenCalledWith(answer);
    expect(calls.progress.at(-1)).toBe(100);
    // Held below 100 until the result came, although the expected 12 s had passed.
    expect(calls.progress.slice(0, -1).every((p) => p <= 99)).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchResult).toHaveBeenCalledTimes(3);
  });

  it("stops on another error", async () => {
    const { fetchResult, calls } = setup([{ state: "error", message: "CPE not found" }]);
    await vi.advanceTimersByTimeAsync(4800);
    expect(calls.error).toHaveBeenCalledWith("CPE not found");
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fetchResult).toHaveBeenCalledTimes(1);
    expect(calls.timeout).not.toHaveBeenCalled();
  });

  it("times out 120 s after the start ('Speed test timed out') and polls no more", async () => {
    const { fetchResult, calls } = setup([]);
    await vi.advanceTimersByTimeAsync(118_800);
    expect(calls.timeout).not.toHaveBeenCalled();
    const before = fetchResult.mock.calls.length;
    expect(before).toBe(24); // 99 ticks, one read in four
    await vi.advanceTimersByTimeAsync(1200);
    expect(calls.timeout).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetchResult).toHaveBeenCalledTimes(before);
    expect(calls.done).not.toHaveBeenCalled();
  });

  it("stop() ends the polling", async () => {
    const { fetchResult, calls, poller } = setup([]);
    await vi.advanceTimersByTimeAsync(1200);
    poller.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls.progress).toHaveLength(1);
    expect(fetchResult).not.toHaveBeenCalled();
  });
});

describe("speedTestProgress", () => {
  it("runs from 0 towards 99 over the expected length", () => {
    expect(speedTestProgress(0, 10_000, 0)).toBe(0);
    expect(speedTestProgress(0, 10_000, 5_000)).toBe(50);
    expect(speedTestProgress(0, 10_000, 50_000)).toBe(99);
    expect(speedTestProgress(0, 10_000, -5)).toBe(0);
  });
});
