/*
 * Time ranges and their resolution. Every chart range of the specs (1h, 3h, 12h, 1d, 3d, 1w and
 * 1h, 3h, Day, Week) maps to a step that gives 60–170 points; an explicit start/end picks the
 * finest step that stays within 170 points. Buckets are aligned to multiples of the step since
 * the epoch, so the same bucket has the same value whichever range asks for it.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

export const RANGES = {
  "1h": { span: HOUR, step: MINUTE },
  "3h": { span: 3 * HOUR, step: 2 * MINUTE },
  "12h": { span: 12 * HOUR, step: 5 * MINUTE },
  "1d": { span: DAY, step: 10 * MINUTE },
  "3d": { span: 3 * DAY, step: 30 * MINUTE },
  "1w": { span: WEEK, step: HOUR },
  Day: { span: DAY, step: 10 * MINUTE },
  Week: { span: WEEK, step: HOUR },
} as const;

export type RangeName = keyof typeof RANGES;
/** A named range (ending now), or an explicit window (start inclusive, end exclusive). */
export type RangeInput = RangeName | { start: Date | number | string; end: Date | number | string };

const STEPS = [MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY];
export const MAX_POINTS = 170;
/** The longest explicit window (a bound on the work one call can ask for). */
export const MAX_SPAN = 400 * DAY;

/** A resolved window: buckets [first, first+step, …] with first ≥ start and last < end. */
export interface Window {
  start: number;
  end: number;
  step: number;
  /** Start of the first bucket. */
  first: number;
  points: number;
}

export function isRangeName(s: unknown): s is RangeName {
  return typeof s === "string" && Object.prototype.hasOwnProperty.call(RANGES, s);
}

function ms(t: Date | number | string): number {
  const v = t instanceof Date ? t.getTime() : typeof t === "number" ? t : Date.parse(t);
  if (!Number.isFinite(v)) throw new RangeError(`invalid time: ${String(t)}`);
  return v;
}

export function resolveRange(range: RangeInput, now: Date | number): Window {
  const nowMs = ms(now);
  let start: number;
  let end: number;
  let step: number;
  if (typeof range === "string") {
    const r = RANGES[range];
    if (!r) throw new RangeError(`unknown range: ${range}`);
    step = r.step;
    // The last bucket is the one holding `now`; exactly span/step buckets.
    const lastBucket = Math.floor(nowMs / step) * step;
    end = lastBucket + step;
    start = end - r.span;
  } else {
    start = ms(range.start);
    end = ms(range.end);
    if (!(end > start)) throw new RangeError("the end of a range must be after its start");
    if (end - start > MAX_SPAN) throw new RangeError("a range may span at most 400 days");
    const span = end - start;
    step = STEPS.find((s) => Math.ceil(span / s) <= MAX_POINTS) ?? Math.ceil(span / MAX_POINTS / DAY) * DAY;
  }
  const first = Math.ceil(start / step) * step;
  const points = Math.max(0, Math.ceil((end - first) / step));
  return { start, end, step, first, points };
}

export function iso(t: number): string {
  return new Date(t).toISOString();
}
