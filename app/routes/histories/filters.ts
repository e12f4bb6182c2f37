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

const LOCAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;

export function readFilters(params: URLSearchParams): { filters: LogFilters; errors: string[] } {
  const get = (name: string, max: number) => (params.get(name) ?? "").trim().slice(0, max);
  const filters = { username: get("username", 254), command: get("command", 200), from: get("from", 19), to: get("to", 19) };
  const errors: string[] = [];
  for (const [key, label] of [["from", "From"], ["to", "To"]] as const) {
    if (filters[key] && (!LOCAL_TIME.test(filters[key]) || Number.isNaN(Date.parse(`${filters[key]}Z`)))) {
      errors.push(`${label} must be a date and time.`);
      filters[key] = "";
    }
  }
  return { filters, errors };
}

/** The platform's filter parameters: the times as ISO 8601 UTC. */
export function platformFilters(f: LogFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.username) out.username = f.username;
  if (f.command) out.command = f.command;
  const iso = (v: string) => (v.length === 16 ? `${v}:00Z` : `${v}Z`);
  if (f.from) out.from = iso(f.from);
  // "To" names a minute: every entry within it is included.
  if (f.to) out.to = f.to.length === 16 ? `${f.to}:59.999Z` : `${f.to}.999Z`;
  return out;
}
