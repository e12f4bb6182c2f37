/*
 * The platform's error `detail` (FastAPI-style: `{"detail": "text"}` or `{"detail": [{loc, msg,
 * type}]}`), read in one place for the server (app/lib/api.server.ts, which owns calling and
 * failure replies) and the browser (the JS PCAP upload, app/lib/pcap.ts). No server imports.
 */
import { FETCH_FAILED } from "./messages.ts";

/** One item of a FastAPI-style error list. */
export interface DetailItem {
  loc?: (string | number)[];
  msg: string;
  type?: string;
}
export type Detail = string | DetailItem[] | unknown;

/** An answer's body text as JSON when it is JSON, else the text itself (null when empty). */
export function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `detail` of a parsed answer, or the whole answer when it has none. */
export function detailOf(parsed: unknown): Detail {
  return parsed && typeof parsed === "object" && "detail" in parsed ? (parsed as { detail: Detail }).detail : parsed;
}

const itemMessage = (d: unknown): string => (d && typeof d === "object" && "msg" in d ? String((d as { msg: unknown }).msg) : String(d));

/** Plain text of any detail, for toasts and logs. */
export function detailText(detail: Detail, fallback = FETCH_FAILED): string {
  if (typeof detail === "string" && detail) return detail;
  if (Array.isArray(detail)) return detail.map(itemMessage).join(" ");
  return fallback;
}

/** The messages of a detail, one per item (for persistent toasts). */
export function detailMessages(detail: Detail, fallback?: string): string[] {
  if (Array.isArray(detail)) return detail.map(itemMessage);
  return [detailText(detail, fallback)];
}

/**
 * Detail items whose `loc` names one of `fieldNames` become that field's errors; everything else
 * becomes form errors (the summary at the top of a form).
 */
export function splitDetail(detail: Detail, fieldNames: string[]) {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  if (Array.isArray(detail)) {
    for (const item of detail) {
      const msg = itemMessage(item);
      const loc = item && typeof item === "object" && "loc" in item ? (item as { loc: unknown[] }).loc : [];
      const field = Array.isArray(loc) ? loc.filter((p) => p !== "body" && p !== "query").map(String).join(".") : "";
      if (field && fieldNames.includes(field)) (fieldErrors[field] ??= []).push(msg);
      else formErrors.push(msg);
    }
  } else {
    formErrors.push(detailText(detail));
  }
  return { fieldErrors, formErrors };
}
