/*
 * What was typed in a create form, carried through the URL (`draft=`, a query string of the
 * fields) when the form switches its deployment or goes to a side panel and back: the switch is a
 * submit button (`name="switch"`, value e.g. "deployment=aws" or "panel=group"), so the values
 * travel with it and work without JavaScript. Used by App Services and Endpoints alike.
 */

export type Draft<F extends string = string> = Partial<Record<F, string>>;

/** The URL parameters a switch may change (anything else in its value is ignored). */
export const SWITCH_PARAMS = ["deployment", "panel"] as const;

/** The draft in the URL, read leniently: only `fields`, each at most 2000 characters. */
export function readDraft<F extends string>(raw: string | null | undefined, fields: readonly F[]): Draft<F> {
  const out: Draft<F> = {};
  if (!raw) return out;
  const params = new URLSearchParams(raw);
  for (const f of fields) {
    const v = params.get(f);
    if (v !== null) out[f] = v.slice(0, 2000);
  }
  return out;
}

export function writeDraft<F extends string>(draft: Draft<F>, fields: readonly F[]): string {
  const params = new URLSearchParams();
  for (const f of fields) {
    const v = draft[f];
    if (v) params.set(f, v);
  }
  return params.toString();
}

/** The form's typed values (the non-empty ones among `fields`). */
export function draftOf<F extends string>(formData: FormData, fields: readonly F[]): Draft<F> {
  const d: Draft<F> = {};
  for (const f of fields) {
    const v = formData.get(f);
    if (typeof v === "string" && v !== "") d[f] = v;
  }
  return d;
}

/** A switch button's value ("deployment=aws&panel=") as URL changes, limited to SWITCH_PARAMS. */
export function switchChanges(value: string): Record<string, string | null> {
  const params = new URLSearchParams(value);
  const changes: Record<string, string | null> = {};
  for (const p of SWITCH_PARAMS) if (params.has(p)) changes[p] = params.get(p) || null;
  return changes;
}
