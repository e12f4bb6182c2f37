/**
 * Links that change some query parameters and keep the rest. The URL is the state (DESIGN.md):
 * page, size, q, sort, selected, cols, tab, dialog and id all live in the query string, so every
 * link a screen renders is "this URL, but with X". Isomorphic (server and browser), no React.
 */

/** A change to one parameter: a value sets it, a list sets it repeated, null/undefined/"" removes it. */
export type ParamValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type ParamChanges = Record<string, ParamValue>;

/** The parameters a dialog adds to the URL; closing a dialog removes them. */
export const DIALOG_PARAMS = ["dialog", "id"] as const;

function toParams(search: URLSearchParams | string): URLSearchParams {
  return new URLSearchParams(typeof search === "string" ? search : search.toString());
}

/** `search` with `changes` applied (a new URLSearchParams; the input is not touched). */
export function applyParams(search: URLSearchParams | string, changes: ParamChanges): URLSearchParams {
  const params = toParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "" || value === false) {
      params.delete(key);
    } else if (Array.isArray(value)) {
      params.delete(key);
      for (const v of value) if (v !== "" && v !== null && v !== undefined) params.append(key, String(v));
    } else {
      // In place when present, so links differ from the current URL only where they must.
      params.set(key, String(value));
    }
  }
  return params;
}

/** "?a=1&b=2", or "?" + nothing → the bare pathname (pass it) so a link never ends in a lone "?". */
export function queryString(params: URLSearchParams): string {
  const s = params.toString();
  return s ? `?${s}` : "";
}

/**
 * The href of the current page with some parameters changed:
 * `hrefWith({ pathname, search }, { page: 2 })` → "/contacts?q=x&page=2".
 */
export function hrefWith(location: { pathname: string; search: string }, changes: ParamChanges): string {
  return location.pathname + queryString(applyParams(location.search, changes));
}

/** The href of the current page without these parameters. */
export function hrefWithout(location: { pathname: string; search: string }, names: readonly string[]): string {
  const changes: ParamChanges = {};
  for (const n of names) changes[n] = null;
  return hrefWith(location, changes);
}

/** The same page with the dialog closed (no `dialog`, no `id`). */
export function closeDialogHref(location: { pathname: string; search: string }): string {
  return hrefWithout(location, DIALOG_PARAMS);
}

/** The href that opens a dialog on the current page: `?…&dialog=edit&id=con-1`. */
export function dialogHref(location: { pathname: string; search: string }, dialog: string, id?: string | null): string {
  return hrefWith(location, { dialog, id: id ?? null });
}

/** For actions: where to go after success — the request's own URL (path + query) minus `dialog`/`id` (and `extra`). */
export function returnUrl(request: Request | string, changes: ParamChanges = {}): string {
  const url = new URL(typeof request === "string" ? request : request.url, "http://x");
  const all: ParamChanges = { dialog: null, id: null, index: null, ...changes };
  return hrefWith({ pathname: url.pathname, search: url.search }, all);
}

/** Every value of a repeated or comma-joined parameter (`?selected=a&selected=b,c` → [a, b, c]), without blanks or repeats. */
export function listParam(params: URLSearchParams, name: string): string[] {
  const out: string[] = [];
  for (const raw of params.getAll(name)) {
    for (const part of raw.split(",")) {
      const v = part.trim();
      if (v && !out.includes(v)) out.push(v);
    }
  }
  return out;
}

/** The pairs to carry as hidden inputs in a GET form, minus the ones the form sets itself (and minus the dialog). */
export function keptParams(search: URLSearchParams | string, except: readonly string[]): [string, string][] {
  const params = toParams(search);
  const skip = new Set<string>([...except, ...DIALOG_PARAMS, "index"]);
  const out: [string, string][] = [];
  params.forEach((value, key) => {
    if (!skip.has(key)) out.push([key, value]);
  });
  return out;
}
