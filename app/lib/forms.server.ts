import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import type { ApiResult, Detail } from "./api.server.ts";
import { detailText } from "./api.server.ts";

/**
 * Turns a platform error into the form's reply (spec 1 §8): detail items whose `loc` names a field
 * of the form become that field's errors, everything else becomes form errors shown in the
 * summary at the top (persistent until the next submission). Status 400 keeps the browser on the form.
 */
export function upstreamReply(submission: Submission<any>, result: Extract<ApiResult<unknown>, { ok: false }>, fieldNames: string[] = []) {
  const { fieldErrors, formErrors } = splitDetail(result.detail, fieldNames);
  return data(
    { result: submission.reply({ formErrors, fieldErrors }) },
    { status: result.status >= 400 && result.status < 500 ? result.status : 400 },
  );
}

export function splitDetail(detail: Detail, fieldNames: string[]) {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  if (Array.isArray(detail)) {
    for (const item of detail) {
      const msg = item && typeof item === "object" && "msg" in item ? String((item as { msg: unknown }).msg) : String(item);
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

/** The messages of a detail, one per item (for persistent toasts). */
export function detailMessages(detail: Detail): string[] {
  if (Array.isArray(detail)) return detail.map((d) => (d && typeof d === "object" && "msg" in d ? String((d as { msg: unknown }).msg) : String(d)));
  return [detailText(detail)];
}
