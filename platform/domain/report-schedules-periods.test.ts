import { describe, expect, it } from "vitest";
import { firingTime, isTimeZone, lastEndedPeriod, nextFiring, periodContaining, periodDue, zonedTime } from "./report-schedules-periods.ts";

const utc = (iso: string) => Date.parse(iso);
const hours = (p: { start: number; end: number }) => (p.end - p.start) / 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe("calendar periods in a time zone", () => {
  it("a month with the change to summer time in Europe/Berlin has 743 hours, from local midnight to local midnight", () => {
    const march = periodContaining("monthly", "Europe/Berlin", utc("2026-03-15T12:00:00Z"));
    expect(iso(march.start)).toBe("2026-02-28T23:00:00.000Z"); // 1 March 00:00 CET (+01:00)
    expect(iso(march.end)).toBe("2026-03-31T22:00:00.000Z"); // 1 April 00:00 CEST (+02:00)
    expect(hours(march)).toBe(743);
    expect(march.label).toBe("2026-03");
    expect([march.firstDay, march.lastDay]).toEqual(["2026-03-01", "2026-03-31"]);
    const october = periodContaining("monthly", "Europe/Berlin", utc("2026-10-10T00:00:00Z"));
    expect(hours(october)).toBe(745);
  });

  it("America/New_York: March has 743 hours, November 721 (the 1st of November 2026 is the day clocks go back)", () => {
    const march = periodContaining("monthly", "America/New_York", utc("2026-03-20T00:00:00Z"));
    expect(iso(march.start)).toBe("2026-03-01T05:00:00.000Z");
    expect(iso(march.end)).toBe("2026-04-01T04:00:00.000Z");
    expect(hours(march)).toBe(743);
    const november = periodContaining("monthly", "America/New_York", utc("2026-11-20T00:00:00Z"));
    expect(iso(november.start)).toBe("2026-11-01T04:00:00.000Z"); // midnight EDT, before the change at 02:00
    expect(hours(november)).toBe(30 * 24 + 1);
  });

  it("the local hour chosen fires once on a 25-hour day (its first occurrence) and after the gap on a 23-hour day", () => {
    // 1 November 2026, New York: 01:00–02:00 happens twice (EDT, then EST).
    const october = periodContaining("monthly", "America/New_York", utc("2026-10-15T00:00:00Z"));
    expect(iso(firingTime(october, "America/New_York", 1))).toBe("2026-11-01T05:00:00.000Z");
    expect(iso(firingTime(october, "America/New_York", 3))).toBe("2026-11-01T08:00:00.000Z");
    // 29 March 2026, Berlin: 02:00–03:00 does not exist; 02:30 is taken as 03:30 CEST.
    expect(iso(zonedTime("Europe/Berlin", 2026, 3, 29, 2, 30))).toBe("2026-03-29T01:30:00.000Z");
    expect(iso(zonedTime("Europe/Berlin", 2026, 10, 25, 2, 30))).toBe("2026-10-25T00:30:00.000Z");
  });

  it("a day whose midnight is skipped starts when the gap ends (America/Santiago, 2026-09-06)", () => {
    const start = zonedTime("America/Santiago", 2026, 9, 6);
    expect(iso(start)).toBe("2026-09-06T04:00:00.000Z"); // 01:00 -03, the first instant of that day
  });

  it("a leap February has 29 days; a non-leap one 28", () => {
    const leap = periodContaining("monthly", "UTC", utc("2028-02-29T23:59:59Z"));
    expect([leap.firstDay, leap.lastDay, hours(leap)]).toEqual(["2028-02-01", "2028-02-29", 29 * 24]);
    const plain = periodContaining("monthly", "Europe/Berlin", utc("2027-02-10T00:00:00Z"));
    expect([plain.lastDay, hours(plain)]).toEqual(["2027-02-28", 28 * 24]);
  });

  it("a week is Monday to Sunday in the zone, labelled as its ISO week, across a year's end", () => {
    // Thursday 1 January 2026: the week of Monday 29 December 2025, ISO week 2026-W01.
    const w = periodContaining("weekly", "Europe/Berlin", utc("2026-01-01T10:00:00Z"));
    expect([w.firstDay, w.lastDay, w.label]).toEqual(["2025-12-29", "2026-01-04", "2026-W01"]);
    expect(iso(w.start)).toBe("2025-12-28T23:00:00.000Z");
    expect(hours(w)).toBe(168);
    // The week holding Berlin's change to summer time (Monday 23 to Sunday 29 March 2026): 167 hours.
    expect(hours(periodContaining("weekly", "Europe/Berlin", utc("2026-03-25T00:00:00Z")))).toBe(167);
    // Sunday late evening local is still the same week, though UTC is Monday already.
    const sunday = periodContaining("weekly", "Asia/Tokyo", utc("2026-03-01T14:30:00Z")); // Sunday 23:30 JST
    expect(sunday.firstDay).toBe("2026-02-23");
  });

  it("a schedule created on the 31st reports that month on the 1st, and the next month on the next 1st", () => {
    const created = utc("2027-01-31T15:00:00Z");
    const s = { cadence: "monthly" as const, timeZone: "UTC", hour: 6, activeSince: created };
    expect(periodDue(s, utc("2027-01-31T23:00:00Z"))).toBeNull();
    expect(iso(nextFiring(s, created))).toBe("2027-02-01T06:00:00.000Z");
    expect(periodDue(s, utc("2027-02-01T05:59:00Z"))).toBeNull();
    expect(periodDue(s, utc("2027-02-01T06:00:00Z"))?.period.label).toBe("2027-01");
    expect(periodDue(s, utc("2027-02-28T23:00:00Z"))?.period.label).toBe("2027-01");
    expect(periodDue(s, utc("2027-03-01T06:00:00Z"))?.period.label).toBe("2027-02");
    expect(iso(nextFiring(s, utc("2027-02-01T06:00:00Z")))).toBe("2027-03-01T06:00:00.000Z");
  });

  it("fired late after the platform was down at the firing time: the same period, the month before (not the current one)", () => {
    const s = { cadence: "monthly" as const, timeZone: "Europe/Berlin", hour: 0, activeSince: utc("2026-01-15T00:00:00Z") };
    // Down from 31 March 23:00 to 1 April 09:30 (Berlin): the report owed is March's, fired at 1 April 00:00 CEST.
    const due = periodDue(s, utc("2026-04-01T07:30:00Z"));
    expect(due?.period.label).toBe("2026-03");
    expect(iso(due!.firesAt)).toBe("2026-03-31T22:00:00.000Z");
    // Still March's (the key is the period: it is sent once) for the rest of April.
    expect(periodDue(s, utc("2026-04-30T21:00:00Z"))?.period.start).toBe(due!.period.start);
  });

  it("a schedule created after this month's firing time owes nothing until the next one", () => {
    const s = { cadence: "weekly" as const, timeZone: "UTC", hour: 8, activeSince: utc("2026-11-30T09:00:00Z") }; // Monday 09:00
    expect(periodDue(s, utc("2026-11-30T10:00:00Z"))).toBeNull();
    expect(periodDue(s, utc("2026-12-07T08:00:00Z"))?.period.firstDay).toBe("2026-11-30");
  });

  it("'Send now' reports the last period that has ended, in the zone", () => {
    // 1 December 2026 00:30 in Berlin is still 30 November in UTC.
    expect(lastEndedPeriod("monthly", "Europe/Berlin", utc("2026-11-30T23:30:00Z")).label).toBe("2026-11");
    expect(lastEndedPeriod("monthly", "UTC", utc("2026-11-30T23:30:00Z")).label).toBe("2026-10");
  });

  it("knows IANA names and refuses others", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});
