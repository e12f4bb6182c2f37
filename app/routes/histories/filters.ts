/*
 * The change log's filters in the URL: ?username=&command=&from=&to= (from/to as the
 * datetime-local inputs write them, read as UTC). Plain functions, shared by the loader and the page.
 */

export interface LogFilters {
  username: string;
  command: string;
  /** "YYYY-MM-DDTHH:MM" (UTC), or "". */
  from: string;
  to: string;
}

/** Said when From is after To; the range is then not applied (the platform would refuse it: 422). */
export const RANGE_ORDER_ERROR = "From must be before To.";

const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;

export function readFilters(params: URLSearchParams): { filters: LogFilters; errors: string[] } {
  const get = (name: string, max: number) => (params.get(name) ?? "").trim().slice(0, max);
  const filters = { username: get("username", 254), command: get("command", 200), from: get("from", 19), to: get("to", 19) };
  const errors: string[] = [];
  for (const [key, label] of [["from", "From"], ["to", "To"]] as const) {
    // 1970 to 9999, as the platform's times (lib/fields.ts timeParam): year 0000 is no time PostgreSQL holds.
    const t = Date.parse(`${filters[key]}Z`);
    if (filters[key] && (!LOCAL_TIME.test(filters[key]) || Number.isNaN(t) || t < Date.UTC(1970, 0, 1))) {
      errors.push(`${label} must be a date and time.`);
      filters[key] = "";
    }
  }
  // A From after its To selects nothing: say so, rather than 'No data found.' (issue 27 item 4).
  const range = platformFilters({ ...filters, username: "", command: "" });
  if (range.from && range.to && Date.parse(range.from) > Date.parse(range.to)) errors.push(RANGE_ORDER_ERROR);
  return { filters, errors };
}

/** The platform's filter parameters: the times as ISO 8601 UTC. */
export function platformFilters(f: LogFilters, errors: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.username) out.username = f.username;
  if (f.command) out.command = f.command;
  const iso = (v: string) => (v.length === 16 ? `${v}:00Z` : `${v}Z`);
  if (errors.includes(RANGE_ORDER_ERROR)) return out;
  if (f.from) out.from = iso(f.from);
  // "To" names a minute: every entry within it is included.
  if (f.to) out.to = f.to.length === 16 ? `${f.to}:59.999Z` : `${f.to}.999Z`;
  return out;
}
