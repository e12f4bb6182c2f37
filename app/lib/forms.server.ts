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
    { result: safeReply(submission, { formErrors, fieldErrors }) },
    { status: result.status >= 400 && result.status < 500 ? result.status : 400 },
  );
}

/**
 * Names of the form fields that hold a secret (passwords, login codes, link tokens). A reply never
 * carries them back: Conform's `reply()` copies every submitted value into `initialValue`, which
 * ends up in the inputs' `value=` and in the hydration data of the page.
 */
export const SECRET_FIELDS = ["password", "current_password", "confirm_password", "new_password", "otp", "token"] as const;

type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[]; resetForm?: boolean };

/** `submission.reply(options)` with every secret field (SECRET_FIELDS and `hideFields`) removed. */
export function safeReply(submission: Submission<any>, options: ReplyOptions = {}) {
  const { resetForm, hideFields = [], ...rest } = options;
  if (resetForm) return submission.reply({ resetForm: true });
  return submission.reply({ ...rest, hideFields: [...new Set([...SECRET_FIELDS, ...hideFields])] });
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
