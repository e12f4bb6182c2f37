/*
 * The calendar arithmetic of scheduled service reports (issue 58): a report covers a calendar
 * month or a week (Monday to Sunday) in the schedule's time zone, from the first instant of its
 * first day to the first instant of the next period's first day, and fires once at the local hour
 * chosen on the day after it ends (the 1st, or the Monday).
 *
 * Plain Intl (docs/decisions/2026-12-03-report-schedules.md): Node 24 has no Temporal, and the
 * only questions asked are "what is the wall clock of this instant" and "which instant has this
 * wall clock", which one cached Intl.DateTimeFormat per zone answers. A wall time that does not
 * exist (the hour skipped when clocks go forward) is taken after the gap, a wall time that occurs
 * twice (the hour repeated when they go back) is its first occurrence: Temporal's "compatible"
 * choice, so a report fires once, at the hour chosen or as soon after it as the hour exists.
 */

import type { ReportCadence } from "../contract/report-schedules.ts";

export interface ReportPeriod {
  cadence: ReportCadence;
  /** The first instant of the period (ms, UTC). */
  start: number;
  /** The first instant after it (ms, UTC): the next period's start. */
  end: number;
  /** What the report calls it: '2026-11' (a month), '2026-W47' (an ISO week). */
  label: string;
  /** Its first day, local: 'YYYY-MM-DD'. */
  firstDay: string;
  /** Its last day, local: 'YYYY-MM-DD'. */
  lastDay: string;
}

const DAY = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The requests' check of a zone (the contract's), which the periods' zones have passed. */
export { isTimeZone } from "../contract/report-schedules.ts";

/** The wall clock of an instant in a zone. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallTime(ms: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** The zone's offset from UTC at an instant, ms (Berlin in summer: +7,200,000). Whole seconds. */
export function offsetAt(ms: number, timeZone: string): number {
  const w = wallTime(ms, timeZone);
  const whole = Math.floor(ms / 1000) * 1000;
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

/**
 * The instant whose wall clock in the zone is the one given ('compatible': a skipped time is
 * taken after the gap, a repeated one at its first occurrence). Month and day may overflow
 * (Date.UTC's rules: month 13 is next January).
 */
export function zonedTime(timeZone: string, year: number, month: number, day: number, hour = 0, minute = 0): number {
  const local = Date.UTC(year, month - 1, day, hour, minute);
  // The offsets a day before and after: at most one change in between, in every zone there is.
  const before = offsetAt(local - DAY, timeZone);
  const after = offsetAt(local + DAY, timeZone);
  const fits = (t: number) => t + offsetAt(t, timeZone) === local;
  const early = local - before;
  const late = local - after;
  const candidates = [early, late].filter(fits).sort((a, b) => a - b);
  // Both fit (a repeated hour): the first; one fits: it; none (a skipped hour): with the offset
  // before the change, which lands as far after the gap as the time was into it.
  return candidates[0] ?? early;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const dayText = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
};

/** The first instant of a local day: its midnight, or the end of a gap that swallowed midnight. */
export const dayStart = (timeZone: string, year: number, month: number, day: number) => zonedTime(timeZone, year, month, day);

/** ISO 8601 week label of a (proleptic, UTC-counted) date: '2026-W47'. */
function isoWeekLabel(y: number, m: number, d: number): string {
  const t = new Date(Date.UTC(y, m - 1, d));
  const weekday = (t.getUTCDay() + 6) % 7; // Monday 0
  const thursday = new Date(t.getTime() + (3 - weekday) * DAY);
  const weekYear = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(weekYear, 0, 1)) / (7 * DAY));
  return `${weekYear}-W${pad(week)}`;
}

/** The period of this cadence that holds the instant, in the zone. */
export function periodContaining(cadence: ReportCadence, timeZone: string, at: number): ReportPeriod {
  const w = wallTime(at, timeZone);
  if (cadence === "monthly") {
    const start = dayStart(timeZone, w.year, w.month, 1);
    const end = dayStart(timeZone, w.year, w.month + 1, 1);
    const lastDay = new Date(Date.UTC(w.year, w.month, 0)).getUTCDate();
    return { cadence, start, end, label: `${w.year}-${pad(w.month)}`, firstDay: dayText(w.year, w.month, 1), lastDay: dayText(w.year, w.month, lastDay) };
  }
  const weekday = (new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7; // Monday 0
  const monday = w.day - weekday;
  return {
    cadence,
    start: dayStart(timeZone, w.year, w.month, monday),
    end: dayStart(timeZone, w.year, w.month, monday + 7),
    label: isoWeekLabel(w.year, w.month, monday),
    firstDay: dayText(w.year, w.month, monday),
    lastDay: dayText(w.year, w.month, monday + 6),
  };
}

/** The period just before this one. */
export const previousPeriod = (p: ReportPeriod, timeZone: string): ReportPeriod => periodContaining(p.cadence, timeZone, p.start - 1);

/** When a period's report fires: the local hour chosen on the day its next period starts (the 1st, the Monday). */
export function firingTime(p: ReportPeriod, timeZone: string, hour: number): number {
  const w = wallTime(p.end, timeZone);
  return zonedTime(timeZone, w.year, w.month, w.day, hour);
}

/** The last period that has ended at `now`: what "Send now" reports. */
export const lastEndedPeriod = (cadence: ReportCadence, timeZone: string, now: number): ReportPeriod => previousPeriod(periodContaining(cadence, timeZone, now), timeZone);

/**
 * The period a schedule owes a report for at `now`: the latest one whose firing time has come,
 * provided it came while the schedule was active (`activeSince`: its creation, its last resume,
 * or its last change of cadence, zone or hour). A platform that was down at the firing time sends
 * it when it is back (the same period: its key makes it once); periods missed before that one
 * are not sent afterwards. Null when nothing is owed.
 */
export function periodDue(schedule: { cadence: ReportCadence; timeZone: string; hour: number; activeSince: number }, now: number): { period: ReportPeriod; firesAt: number } | null {
  let period = lastEndedPeriod(schedule.cadence, schedule.timeZone, now);
  let firesAt = firingTime(period, schedule.timeZone, schedule.hour);
  if (firesAt > now) {
    // Ended, but its hour has not come yet (the 1st before the hour): the one before is the latest.
    period = previousPeriod(period, schedule.timeZone);
    firesAt = firingTime(period, schedule.timeZone, schedule.hour);
  }
  return firesAt >= schedule.activeSince ? { period, firesAt } : null;
}

/** The next firing after `now` (what the schedule's list shows). */
export function nextFiring(schedule: { cadence: ReportCadence; timeZone: string; hour: number; activeSince: number }, now: number): number {
  const current = periodContaining(schedule.cadence, schedule.timeZone, now);
  const ended = previousPeriod(current, schedule.timeZone);
  const soon = firingTime(ended, schedule.timeZone, schedule.hour);
  if (soon > now && soon >= schedule.activeSince) return soon;
  return firingTime(current, schedule.timeZone, schedule.hour);
}
