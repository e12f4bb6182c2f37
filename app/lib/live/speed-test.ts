import { speedTest, type SpeedTestAnswer } from "../../../platform/contract/devices.ts";

/*
 * The speed test's poller (spec 3 §4, §8, §9): a tick every 1.2 s moves the progress bar; every
 * 4th tick (4.8 s) reads the result, where "not ready yet" (the platform's 404) goes on polling and
 * any other error stops; 120 s after the test started it gives up ('Speed test timed out'). The
 * bar runs towards 100 % over the test's expected length and stays below it until the result is
 * in. Timers are the global ones, so unit tests drive it with fake timers.
 */

export type SpeedTestPoll = { state: "pending" } | { state: "done"; answer: SpeedTestAnswer } | { state: "error"; message: string };

export interface SpeedTestPollerOptions {
  /** When the test started and when the device expects to finish it (ms). */
  startedAt: number;
  finishesAt: number;
  /** Reads the result once (the console's resource route). */
  fetchResult: () => Promise<SpeedTestPoll>;
  onProgress: (percent: number) => void;
  onDone: (answer: SpeedTestAnswer) => void;
  onTimeout: () => void;
  onError: (message: string) => void;
  now?: () => number;
  pollMs?: number;
  resultEvery?: number;
  timeoutMs?: number;
}

/** The bar's percent at `now`: elapsed over expected, held at 99 until the result is in. */
export function speedTestProgress(startedAt: number, finishesAt: number, now: number): number {
  const span = Math.max(1, finishesAt - startedAt);
  return Math.max(0, Math.min(99, Math.floor(((now - startedAt) / span) * 100)));
}

/** True once the test has run longer than the time-out. */
export const speedTestTimedOut = (startedAt: number, now: number, timeoutMs: number = speedTest.timeoutMs) => now - startedAt >= timeoutMs;

/** Starts polling; `stop()` ends it (the dialog closed). */
export function pollSpeedTest(options: SpeedTestPollerOptions): { stop: () => void } {
  const { startedAt, finishesAt, fetchResult, onProgress, onDone, onTimeout, onError } = options;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? speedTest.pollMs;
  const resultEvery = options.resultEvery ?? speedTest.resultEvery;
  const timeoutMs = options.timeoutMs ?? speedTest.timeoutMs;
  let ticks = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = async () => {
    if (stopped) return;
    ticks += 1;
    const t = now();
    if (speedTestTimedOut(startedAt, t, timeoutMs)) {
      stopped = true;
      onTimeout();
      return;
    }
    onProgress(speedTestProgress(startedAt, finishesAt, t));
    if (ticks % resultEvery === 0) {
      let poll: SpeedTestPoll;
      try {
        poll = await fetchResult();
      } catch (error) {
        poll = { state: "error", message: (error as Error).message || "The result could not be read." };
      }
      if (stopped) return;
      if (poll.state === "done") {
        stopped = true;
        onProgress(100);
        onDone(poll.answer);
        return;
      }
      if (poll.state === "error") {
        stopped = true;
        onError(poll.message);
        return;
      }
    }
    timer = setTimeout(tick, pollMs);
  };

  timer = setTimeout(tick, pollMs);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Reads the console's result route: 200 with the answer, 202 while not ready, else the error. */
export async function fetchSpeedTestResult(url: string): Promise<SpeedTestPoll> {
  const res = await fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" });
  if (res.status === 202) return { state: "pending" };
  const body: unknown = await res.json().catch(() => null);
  // why the cast: the route answers the platform's SpeedTestResult as it is (checked by the platform's schema).
  if (res.ok && body && typeof body === "object" && "status" in body) return { state: "done", answer: body as SpeedTestAnswer };
  const detail = body && typeof body === "object" && "message" in body ? String(body.message) : `The result could not be read (${res.status}).`;
  return { state: "error", message: detail };
}
